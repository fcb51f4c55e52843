"""The statistics section of a player's pages (games.md §11): on the public profile from
published results, on the player's own page (``/me/``) and for those who may change him
from all. Per game the figures in words, the counts by role and kind as the game's
engine names them, and the placements against the ratings' expectation as a chart
(``ratings.insight_chart``). One query per game the player played, whatever his history.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import formats
from django.utils.translation import gettext as _

from clubs.policies import may_change_player
from games.choices import game_name
from games.engines import get_engine
from games.figures import num
from ratings.insight_chart import placement_chart
from ratings.insight_selectors import player_stats, stats_games

# the names of the counts of ``ratings.insight`` (by_role: deals; by_kind: how counted)
COUNT_WORDS = {
    "deals": lambda n: _("%(n)s deals") % {"n": n},
    "declared": lambda n: _("%(n)s as declarer") % {"n": n},
    "partner": lambda n: _("%(n)s as partner") % {"n": n},
    "played": lambda n: _("%(n)s played") % {"n": n},
    "won": lambda n: _("%(n)s won") % {"n": n},
    "lost": lambda n: _("%(n)s lost") % {"n": n},
}


def _number(value, places: int = 2) -> str:
    return formats.number_format(value, places, use_l10n=True, force_grouping=True)


def _rows(engine, counts: dict) -> list[tuple[str, str]]:
    """(label, the counts in words) per role or kind, in the engine's order of words."""
    order = list(engine.INSIGHT_LABELS)
    rows = []
    for key in sorted(counts, key=lambda k: (order.index(k) if k in order else len(order), k)):
        figures = counts[key]
        words = [COUNT_WORDS[what](_number(figures[what], 0))
                 for what in COUNT_WORDS if what in figures]
        rows.append((_(engine.INSIGHT_LABELS.get(key, key)), ", ".join(words)))
    return rows


def _performance(value: float) -> str:
    if value > 0:
        return _("%(n)s places better than the ratings predicted") % {"n": _number(value)}
    if value < 0:
        return _("%(n)s places below what the ratings predicted") % {"n": _number(-value)}
    return _("exactly as the ratings predicted")


def insight_panel(request, player, *, own: bool = False) -> str:
    """The section ("" while the player has no sheet to show)."""
    everything = own or may_change_player(request.user, player)
    games = []
    for game in stats_games(player_id=player.pk, everything=everything):
        stats = player_stats(player_id=player.pk, game=game, everything=everything)
        if not stats["sheets"]:
            continue
        engine = get_engine(game)
        name = game_name(game)
        series = stats["series"]
        dates = tuple(formats.date_format(series[i]["date"], "SHORT_DATE_FORMAT")
                      for i in (0, -1))
        games.append({
            "name": name, "stats": stats,
            # as the public profile's table writes it: one decimal; there (``own`` False)
            # the table shows it, so the panel does not say it again
            "score_avg": num(round(stats["score_avg"], 1)),
            "placement_avg": _number(stats["placement_avg"]),
            "expected_avg": _number(stats["expected_placement_avg"]),
            "performance": _performance(stats["performance"]),
            "first": dates[0], "last": dates[1],
            "roles": _rows(engine, stats["by_role"]), "kinds": _rows(engine, stats["by_kind"]),
            "chart": placement_chart(
                series, dates, reached=_("placement"), expected=_("expected"),
                label=_("Placements against the ratings' expectation in %(game)s")
                % {"game": name}),
        })
    if not games:
        return ""
    return render_to_string("ratings/_insight_panel.html", {"games": games, "own": own},
                            request=request)
