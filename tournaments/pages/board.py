"""The public board at ``/p/<tournament slug>/``: standings that refresh themselves,
a full-screen mode for a projector, per-round results, each player's sheet lines and a
chart of the top players' totals after every round; ``print/`` is the printable
standings list (overall and every round, or ``?round=N``).

Withdrawn players are marked, each row says how many rounds the player played, and
sheets ended early (shortened) are listed with their reason under the round's results.

The standings part is re-fetched every few seconds; it carries an ETag, so the browser
revalidates it and an unchanged board costs a 304. The page, the part and the print are
rendered once per standings computation and language and then answered from memory by
the standings snapshots (``snapshots.Snapshotted``): a board that shows the standings
current is dropped by the first change of a sheet (it turns stale), a stale one only by
the next computation — not by every deal of the room.

Every name here is shown as its player chose (``clubs.publication``), to everybody: the
board is projected and its print pinned up, so a director looking at it sees what the
room sees (the console shows the full names).
"""

from django.conf import settings
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.publication import shown_player
from tournaments.bounds import round_number
from tournaments.conditional import precondition_answer, tagged
from tournaments.models import (
    Participant,
    Table,
    Tournament,
)
from tournaments.pages.access import allowed_if, tournament_by_slug
from tournaments.pages.chart import cumulative, line_chart
from tournaments.pages.paper_list import paper_list
from tournaments.policies import can_see_tournament
from tournaments.recompute import snapshots
from tournaments.recompute.invalidations import tournament_scope
from tournaments.selectors import (
    StandingEntry,
    category_members,
    category_standings,
    club_results,
    participant_sheets,
    public_names,
    standing_entries,
    standings_version,
    team_results,
    teams_version,
)
from tournaments.templatetags.short_names import keep_words

TOP_IN_CHART = 8


def _round(request) -> int:
    """The round asked for (``?round=N``), 0 (overall) for none or a bad value."""
    return round_number(request.GET.get("round")) or 0


def _category(request, tournament: Tournament) -> str | None:
    """The category asked for (``?category=``, one of the tournament's), else None."""
    category = request.GET.get("category")
    return category if category in (tournament.categories or []) else None


def in_category(rows: list[StandingEntry], members: set[int], game: str
                ) -> list[StandingEntry]:
    """The rows of a category's members with their own ranks by the game's tie-break
    (games.md §10.3): the entries themselves, re-ranked."""
    kept = [row for row in rows if row.participant_id in members]
    ranked = category_standings([{"participant": row.participant_id, "score": row.score,
                                  **row.figures} for row in kept], members, game)
    by_id = {row.participant_id: row for row in kept}
    out = []
    for item in ranked:
        row = by_id[item["participant"]]
        row.rank = item["rank"]
        out.append(row)
    return out


def _etag(tournament: Tournament, number: int, fresh: snapshots.Freshness) -> str:
    """The standings cache's freshness as the part shows it (the computation, whether a
    change is pending — not which), with what else it shows (teams, language)."""
    stale = int(fresh.pending is not None)
    return (f'"board-{tournament.pk}-{number}-{fresh.version}-{stale}-'
            f'{teams_version(tournament)}-{get_language()}"')


def _remembered(response, tournament: Tournament, stale: bool):
    """The answer, for the snapshots to keep while nothing it shows changes."""
    return snapshots.mark(response, snapshots.standings_scopes(tournament.pk, stale=stale),
                          tournament.published)


def _shortened(tournament: Tournament, round_number: int | None = None) -> list[Table]:
    """The tables whose sheet was ended early, with round and deal count (one query)."""
    tables = (Table.objects.filter(round__tournament=tournament, shortened=True)
              .select_related("round").annotate(deal_count=Count("deals"))
              .order_by("round__number", "number"))
    return list(tables if round_number is None else tables.filter(round__number=round_number))


def _figures(rows: list[StandingEntry]) -> list[str]:
    return [k for k in (rows[0].figures if rows else {}) if k in ("won", "lost", "game_points")]


def _number(value) -> str:
    """A figure as the template prints it (whole numbers plain: no thousands separator
    is configured), without the formatting machinery's cost for every cell."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return conditional_escape(localize(value))


def rows_html(tournament: Tournament, rows: list[StandingEntry], figures: list[str],
              round_number: int) -> SafeString:
    """The standings part's table rows, built here rather than by the template's loop:
    a championship's 3,000 rows cost the template about a third of a second (a URL
    reversed and four words translated per row); here the link's stem and the words are
    made once. The markup is the template's own (tested byte for byte)."""
    stem = conditional_escape(
        reverse("pages:board-player", args=[tournament.slug, 0]).removesuffix("0/"))
    with_figures, overall = "won" in figures, not round_number
    won, lost = conditional_escape(_("won")), conditional_escape(_("lost"))
    badge = (' <span class="badge withdrawn-badge">'
             f'{conditional_escape(_("withdrawn"))}</span>')
    out = []
    for row in rows:
        participant = row.participant
        withdrawn = participant.withdrawn
        cells = [f'\n    <tr data-participant="{row.participant_id}"',
                 ' class="withdrawn">' if withdrawn else ">",
                 f'<td class="num">{_number(row.rank)}</td><td><a href="{stem}'
                 f'{row.participant_id}/">'
                 f'{keep_words(shown_player(participant.player, participant.start_number))}'
                 '</a>', badge if withdrawn else ""]
        if with_figures:
            w, lo = _number(row.figures.get("won", "")), _number(row.figures.get("lost", ""))
            cells.append(f'<span class="figs-under"><span class="w">{won} {w}</span> · '
                         f'<span class="w">{lost} {lo}</span></span>')
        cells.append(f'</td><td class="num score">{_number(row.score)}</td>')
        if with_figures:
            cells.append(f'<td class="num fig-col">{w}</td><td class="num fig-col">{lo}</td>')
        if overall:
            cells.append(f'<td class="num rounds-col">{len(row.rounds)}</td>')
        cells.append("</tr>\n  ")
        out.append("".join(cells))
    return mark_safe("".join(out))  # built from escaped parts


def _standings(tournament: Tournament, round_number: int, version: tuple | None = None
               ) -> dict:
    """What the standings part shows. The rows of a computation are built once per
    process and language (``snapshots.keep``, while neither the tournament nor the
    computation changed): the part is rendered twice per computation — current, then
    stale at the next sheet change — and only the stale notice differs."""
    computed_at, pending = version or standings_version(tournament)

    def build() -> dict:
        rows = standing_entries(tournament, round_number).get(round_number, [])
        figures = _figures(rows)
        return {"rows": rows, "figures": figures, "round": round_number,
                "rows_html": rows_html(tournament, rows, figures, round_number),
                "computed_at": computed_at,
                "shortened": _shortened(tournament, round_number or None),
                "teams": _teams(tournament) if not round_number else [],
                "clubs": club_results(tournament) if not round_number else [],
                "club_k": tournament.club_ranking_k}

    if not tournament.published:
        return {**build(), "stale": pending is not None}
    key = ("board-rows", tournament.pk, round_number, get_language())
    scopes = snapshots.standings_scopes(tournament.pk, stale=True)
    shown = snapshots.kept(key, scopes)
    if shown is snapshots.MISSING or shown["computed_at"] != computed_at:
        read = snapshots.before(key, scopes)
        shown = build()
        snapshots.keep(key, scopes, shown, read)
    return {**shown, "stale": pending is not None}


def _teams(tournament: Tournament) -> list[dict]:
    """The team ranking beside the overall standings, when the tournament has teams."""
    return team_results(tournament, full=False) if tournament.teams.exists() else []


def _chart(tournament: Tournament) -> str:
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    top = standing_entries(tournament, 0, limit=TOP_IN_CHART).get(0, [])
    # Every line starts at 0 before the first round, so one round already draws lines.
    series = [(shown_player(row.participant.player, row.participant.start_number),
               [0, *cumulative(row.rounds, numbers)])
              for row in top]
    labels = [_("Start"), *[_("R%(n)s") % {"n": n} for n in numbers]]
    return mark_safe(line_chart(series, labels))  # built from escaped parts


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
def board_page(request, tournament: Tournament, slug: str):
    round_number = _round(request)
    standings = _standings(tournament, round_number)
    return _remembered(render(request, "board/page.html", {
        "tournament": tournament,
        "standings": standings,
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "chart": _chart(tournament),
    }), tournament, standings["stale"])


board_page.snapshot = snapshots.Snapshotted("board", per_language=True)


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
def board_standings(request, tournament: Tournament, slug: str):
    """The standings part, re-fetched every few seconds: 304 while unchanged (checked
    after access, so no 304 tells a hidden tournament exists)."""
    number = _round(request)
    token = snapshots.current_token(tournament_scope(tournament.pk))  # before the reads
    fresh = snapshots.etag(tournament, number)
    etag, headers = _etag(tournament, number, fresh), {"Cache-Control": "no-cache"}
    stale = fresh.pending is not None
    answer = precondition_answer(request, etag, headers)
    if answer is not None:
        return _remembered(answer, tournament, stale)
    version = (fresh.computed_at, fresh.pending)
    shared = snapshots.shared_render(
        f"board-standings:{tournament.pk}:{number}", etag,
        lambda: render_to_string("board/_standings.html", {
            "tournament": tournament, "standings": _standings(tournament, number, version)},
            request), token)
    if not shared.current:
        # the part before this one, while another process renders it: under its own
        # ETag, and not remembered (the next poll asks again)
        before = snapshots.etag_of(shared.version)
        return (precondition_answer(request, before, headers)
                or tagged(HttpResponse(shared.value), before, headers))
    return _remembered(tagged(HttpResponse(shared.value), etag, headers), tournament, stale)


board_standings.snapshot = snapshots.Snapshotted("board-standings", per_language=True)


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
def print_page(request, tournament: Tournament, slug: str):
    """The printable standings list: overall and each round, or one round (``?round=N``).

    A constant number of queries however many rounds and players: all stored lists in
    one query, their participants in another."""
    only = _round(request)
    by_round = standing_entries(tournament, only or None)
    category = _category(request, tournament)
    if category:
        members = category_members(tournament, category)
        by_round = {number: in_category(found, members, tournament.game)
                    for number, found in by_round.items()}
    shortened = _shortened(tournament, only or None)
    lists = [{"round": number, "rows": found, "figures": _figures(found),
              "shortened": [t for t in shortened if t.round.number == number]}
             for number, found in sorted(by_round.items())]
    computed_at, pending = standings_version(tournament)
    # The club column only when a player plays for another club than the tournament's
    # own (printed once in the head): it cost half the width and three lines per row.
    show_club = any(row.participant.player.club_id != tournament.club_id
                    or row.participant.club_name
                    for found in by_round.values() for row in found)
    return _remembered(render(request, "board/print.html", {
        "tournament": tournament, "lists": lists, "only": only, "show_club": show_club,
        "category": category, "categories": tournament.categories or [],
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "computed_at": computed_at, "stale": pending is not None,
        "shortened_overall": shortened if not only else [],
        "teams": _teams(tournament) if not only and not category else [],
        "clubs": club_results(tournament) if not only and not category else []}),
        tournament, pending is not None)


print_page.snapshot = snapshots.Snapshotted("board-print", per_language=True)


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
def player_page(request, tournament: Tournament, slug: str, participant_id: int):
    participant = get_object_or_404(Participant.objects.select_related("player"),
                                    tournament=tournament, pk=participant_id)
    participant.tournament = tournament
    sheets = participant_sheets(participant)
    shown = {pid: name for pid, (name, _n, _w) in public_names(tournament).items()}
    for sheet in sheets:
        for seat in sheet["state"]["seats"]:
            seat["name"] = shown.get(seat["participant"], "")
    return render(request, "board/player.html", {
        "tournament": tournament, "participant": participant,
        "sheets": [{**sheet, "state": paper_list(sheet["state"])} for sheet in sheets]})


def landing(request):
    """The front page: the published tournaments' boards, and the way in for directors."""
    tournaments = (Tournament.objects.filter(published=True).select_related("club")
                   .order_by("-date", "-id")[:50])
    return render(request, "board/landing.html", {"tournaments": tournaments})
