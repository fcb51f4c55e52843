"""The ratings' public pages: leaderboards per game, for the whole instance and per club
(``/ratings/<game>/`` and ``/ratings/<game>/<club slug>/``, linked from the club page),
and the rating panels on a player's pages (``ratings.hooks``).

A leaderboard lists the players with at least ``min_sheets`` rated sheets (10 unless the
query says else) as the API does (``ratings.selectors.leaderboard``): one query for the
list, however long. Names follow the players' publication choice, except for those who
run the club.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.policies import may_change_player, runs_club
from games.choices import game_choices, game_keys, game_name
from ratings.chart import history_chart
from ratings.selectors import DEFAULT_MIN_SHEETS, MAX_MIN_SHEETS, leaderboard, player_ratings
from tournaments.text_checks import whole_number


def _min_sheets(request) -> int:
    raw = request.GET.get("min_sheets")
    if raw is None:
        return DEFAULT_MIN_SHEETS
    value = whole_number(raw, low=0, high=MAX_MIN_SHEETS)
    if value is None:
        raise Http404()
    return value


def leaderboard_page(request, game: str, slug: str | None = None):
    if game not in game_keys():
        raise Http404()
    club = get_object_or_404(Club, slug=slug) if slug is not None else None
    min_sheets = _min_sheets(request)
    full = runs_club(request.user, club) if club else bool(
        request.user.is_authenticated and request.user.is_superuser)
    rows = leaderboard(game=game, club_id=club.pk if club else None, min_sheets=min_sheets,
                       full_names=full)
    return render(request, "ratings/leaderboard.html", {
        "game": game, "game_name": game_name(game), "club": club, "rows": rows,
        "min_sheets": min_sheets, "games": game_choices()})


def player_panel(request, player, *, own: bool = False) -> str:
    """The player's rating per game and its history as a chart ("" while unrated)."""
    ratings = player_ratings(player=player,
                             everything=own or may_change_player(request.user, player))
    if not ratings:
        return ""
    games = []
    for rating in ratings:
        name = game_name(rating["game"])
        points = [(formats.date_format(h["date"], "SHORT_DATE_FORMAT"), h["rating"])
                  for h in rating["history"]]
        games.append({**rating, "name": name, "chart": history_chart(
            points, _("Rating history in %(game)s") % {"game": name})})
    return render_to_string("ratings/_player_panel.html",
                            {"games": games, "own": own}, request=request)


def club_panel(request, club) -> str:
    return render_to_string("ratings/_club_panel.html", {
        "club": club, "games": game_choices(),
        "default_game": club.default_game}, request=request)
