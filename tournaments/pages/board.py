"""The public board at ``/p/<tournament slug>/``: standings that refresh themselves,
a full-screen mode for a projector, per-round results, each player's sheet lines and a
chart of the top players' totals after every round; ``print/`` is the printable
standings list (overall and every round, or ``?round=N``).

Withdrawn players are marked, each row says how many rounds the player played, and
sheets ended early (shortened) are listed with their reason under the round's results.

The standings part is re-fetched every few seconds. The page, the part and the print
are tagged by ``tournaments.freshness`` (the versions of the tournament, its stored
standings and its sheets): an unchanged board costs a 304, and an anonymous reader's
answer of a published tournament is ``public`` for two seconds, so the proxy renders it
once for all the room's phones. A large field is shown in pages of ``PAGE_ROWS`` rows
(``?page=N``), searched by name (``?q=``) or opened at a player's row (``?find=<id>``);
the print keeps the whole list.

Every name here is shown as its player chose (``clubs.publication``), to everybody: the
board is projected and its print pinned up, so a director looking at it sees what the
room sees (the console shows the full names).
"""

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Count
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.publication import shown_player
from tournaments import freshness
from tournaments.bounds import round_number
from tournaments.models import (
    Participant,
    Table,
    Tournament,
)
from tournaments.pages.access import allowed_if, tournament_by_slug
from tournaments.pages.chart import cumulative, line_chart
from tournaments.pages.clock import clock_context
from tournaments.pages.paper_list import paper_list
from tournaments.policies import can_see_tournament
from tournaments.score_changes import participant_changes
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
)
from tournaments.templatetags.figures import num
from tournaments.templatetags.short_names import keep_words

TOP_IN_CHART = 8
PAGE_ROWS = 100  # a page of a large field's board: what a phone on the hall's Wi-Fi polls
QUERY_CHARS = 40


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


def _view(request) -> dict:
    """Which part of the list is asked for: ``page`` (from 1), ``q`` (a name), ``find``
    (a participant whose page is shown); a bad value is ignored."""
    page, find = request.GET.get("page", ""), request.GET.get("find", "")
    return {"page": int(page) if page.isdigit() and len(page) < 6 else 1,
            "q": request.GET.get("q", "").strip()[:QUERY_CHARS],
            "find": int(find) if find.isdigit() and len(find) < 12 else None}


def _tag(request, tournament: Tournament, slug: str) -> freshness.Tag:
    """The board's answers' tag (after the access check): the standings' versions, the
    view, the round, the category and the part of the list asked for."""
    view = _view(request)
    return freshness.tournament_tag(request, tournament, freshness.standings(tournament.pk),
                                    request.resolver_match.url_name, _round(request),
                                    _category(request, tournament), view["page"], view["q"],
                                    view["find"])


def _shortened(tournament: Tournament, round_number: int | None = None) -> list[Table]:
    """The tables whose sheet was ended early, with round and deal count (one query)."""
    tables = (Table.objects.filter(round__tournament=tournament, shortened=True)
              .select_related("round").annotate(deal_count=Count("deals"))
              .order_by("round__number", "number"))
    return list(tables if round_number is None else tables.filter(round__number=round_number))


def _figures(rows: list[StandingEntry]) -> list[str]:
    return [k for k in (rows[0].figures if rows else {}) if k in ("won", "lost", "game_points")]


def _number(value) -> str:
    """A figure as the template's ``num`` prints it (a negative one with the minus sign);
    whole non-negative numbers plain (no thousands separator is configured), without the
    formatting machinery's cost for every cell."""
    if type(value) is int and value >= 0 and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return conditional_escape(num(value))


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
        cells = ["\n    <tr", ' class="withdrawn">' if withdrawn else ">",
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


def _standings(request, tournament: Tournament, round_number: int) -> dict:
    """What the standings part shows: one page of the list (``_view``)."""
    computed_at, pending = standings_version(tournament)
    rows = standing_entries(tournament, round_number).get(round_number, [])
    view = _view(request)
    shown = rows
    if view["q"]:
        needle = view["q"].casefold()
        shown = [row for row in rows if needle in shown_player(
            row.participant.player, row.participant.start_number).casefold()]
    number = view["page"]
    if view["find"] is not None:
        number = next((i // PAGE_ROWS + 1 for i, row in enumerate(shown)
                       if row.participant_id == view["find"]), number)
    page = Paginator(shown, PAGE_ROWS).get_page(number)
    figures = _figures(rows)
    query = {"round": round_number or "", "q": view["q"]}
    return {"rows": page.object_list, "figures": figures, "round": round_number,
            "rows_html": rows_html(tournament, page.object_list, figures, round_number),
            "page": page, "q": view["q"], "paged": page.paginator.num_pages > 1,
            "query": urlencode({k: v for k, v in query.items() if v}),
            "part_query": urlencode({k: v for k, v in {**query, "page": page.number}.items()
                                     if v and not (k == "page" and v == 1)}),
            "computed_at": computed_at, "stale": pending is not None,
            "shortened": _shortened(tournament, round_number or None),
            "teams": _teams(tournament) if not round_number else [],
            "clubs": club_results(tournament) if not round_number else [],
            "club_k": tournament.club_ranking_k}


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
@freshness.public(_tag)
def board_page(request, tournament: Tournament, slug: str):
    return render(request, "board/page.html", {
        "tournament": tournament,
        "standings": _standings(request, tournament, _round(request)),
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "chart": _chart(tournament),
        "clock": clock_context(tournament.rounds.order_by("-number").first(), poll=True),
    })


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
@freshness.public(_tag)
def board_standings(request, tournament: Tournament, slug: str):
    """The standings part, re-fetched every few seconds: 304 while unchanged (checked
    after access, so no 304 tells a hidden tournament exists)."""
    return render(request, "board/_standings.html", {
        "tournament": tournament, "standings": _standings(request, tournament, _round(request))})


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
@freshness.public(_tag)
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
    return render(request, "board/print.html", {
        "tournament": tournament, "lists": lists, "only": only, "show_club": show_club,
        "category": category, "categories": tournament.categories or [],
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "computed_at": computed_at, "stale": pending is not None,
        "shortened_overall": shortened if not only else [],
        "teams": _teams(tournament) if not only and not category else [],
        "clubs": club_results(tournament) if not only and not category else []})


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
        "changes": participant_changes(participant),
        "sheets": [{**sheet, "state": paper_list(sheet["state"])} for sheet in sheets]})


def landing(request):
    """The front page: the published tournaments' boards, and the way in for directors."""
    tournaments = (Tournament.objects.filter(published=True).select_related("club")
                   .order_by("-date", "-id")[:50])
    return render(request, "board/landing.html", {"tournaments": tournaments})
