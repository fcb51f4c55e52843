"""The player's own page at ``/me/<personal token>/``, and their table's sheet on it.

The page shows where the player sits now (round, table, seat, who deals first, the
others at the table), their live score card at that table (read-only), their score and
rank and the way to the public standings, and their earlier rounds
(``tournaments.player_view``). Its live part (``live/``) is re-fetched every few seconds
by ``static/js/me.js`` with the ETag of the player's overview (304 while nothing moved);
when a new draw gives the player a new seat, the page says so and the phone vibrates
where it can.

``sheet/`` is the tablet's own sheet page (``tournaments.pages.sheet``) for the table
where the player sits in the open round, its API calls made with the personal token
(``Authorization: Player``), so a table needs no tablet. An unknown, expired or erased
token is 404, as is the sheet while the player sits at no open table.

The page and its live part are ``private`` answers tagged by ``tournaments.freshness``
from the versions of the tournament (a draw, a round closed, a withdrawal), its stored
standings and the tables the player sits at in open rounds (a deal, a correction, a
confirmation there): a poll gets 304 after reading the token's seating (kept under the
tournament's version, ``tournaments.player_view``) and the versions, without rendering.
The table's score card is rendered once per version of the table and language and kept
for the four players there (``tournaments.kept``). An erased or expired token is 404 at
the next request.
"""

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import freshness, kept
from tournaments.links import personal_path
from tournaments.models import Participant, Table
from tournaments.pages.clock import shown_clock
from tournaments.pages.panels import panels
from tournaments.pages.paper_list import paper_list
from tournaments.pages.parts import page_parts
from tournaments.pages.sheet import list_answer, sheet_context
from tournaments.player_view import (
    PlayerOverview,
    participant_by_token,
    personal_seating,
    seated_table,
    seating_overview,
)
from tournaments.selectors import waiting_call

# the deals of the table's card a phone polls (the latest; the sheet page has them all)
LIVE_DEALS = 6


def _participant(token: str) -> Participant:
    participant = participant_by_token(token)
    if participant is None:
        raise Http404()
    return participant


def _tag(request, token: str) -> freshness.Tag | None:
    """The player's answers' tag: the versions of what they show (None for a token that
    opens no page: the view answers 404). The seating read is the view's too."""
    seating = request.me_seating = personal_seating(token)
    if seating is None:
        return None
    tournament_id = seating.participant.tournament_id
    # calls: the director marking the player's call seen shows on the page
    return freshness.tag((freshness.tournament(tournament_id), freshness.computed(tournament_id),
                          freshness.calls(tournament_id),
                          *(freshness.table(s.table_id) for s in seating.shown)),
                         "me", token)  # the page and its live part alike: per URL


def _live(participant: Participant, overview: PlayerOverview, token: str) -> dict:
    body = overview.body
    now = body["now"]
    context = {"token": token, "tournament": participant.tournament, "me": body, "now": now,
               "earlier": [r for r in body["rounds"] if not now or r["round"] != now["round"]],
               "seat_key": "", "notice": "", "now_part": _now_part(participant, overview, token),
               "clock": shown_clock(now.get("clock"), now["round"]) if now else None}
    if now is not None:
        context.update(
            seat_key=f"{now['round']}-{now['table_id']}-{now['seat']}",
            notice=_("New round: table %(table)s, seat %(seat)s")
            % {"table": now["table"], "seat": now["seat"]})
    return context


def _now_part(participant: Participant, overview: PlayerOverview, token: str) -> str:
    """Where the player sits now, who deals first, the others, the player's call for the
    director not yet closed and the table's live score card (read-only, its latest
    ``LIVE_DEALS`` deals and the totals) — or that they have no seat."""
    now = overview.body["now"]
    if now is None:
        return render_to_string("me/_now.html", {"now": None})
    names = {p["seat"]: p["name"] for p in now["players"]}
    card, earlier = _card(overview)
    return render_to_string("me/_now.html", {
        "token": token, "now": now, "card": mark_safe(card),  # noqa: S308 - our template's
        "call": waiting_call(now["table_id"], participant.pk),
        "earlier_deals": earlier, "dealer_name": names.get(now["first_dealer"], "")})


def _card(overview: PlayerOverview) -> tuple[str, int]:
    """The table's read-only score card (its latest ``LIVE_DEALS`` deals) and the number
    of deals before them: the same for the table's players, kept per sheet read and
    language."""

    def render(_missing) -> dict[int, tuple[str, int]]:
        listed = paper_list(overview.sheet)
        earlier = max(0, len(listed["deals"]) - LIVE_DEALS)
        return {0: (render_to_string("sheet/_list.html", {
            "state": {**listed, "deals": listed["deals"][earlier:]}, "readonly": True}),
            earlier)}

    if overview.sheet_key is None:
        return render(())[0]
    return kept.kept({0: f"{overview.sheet_key}:card:{LIVE_DEALS}:{get_language()}"},
                     render)[0]


def _overview(request, token: str) -> tuple[Participant, PlayerOverview]:
    """The player's overview, from the seating ``_tag`` read for this request."""
    seating = getattr(request, "me_seating", None) or personal_seating(token)
    if seating is None:
        raise Http404()
    return seating.participant, seating_overview(seating)


@freshness.personal(_tag)
def me_page(request, token: str):
    participant, overview = _overview(request, token)
    return render(request, "me/page.html", {
        **_live(participant, overview, token), "name": overview.body["name"],
        "etag": _tag(request, token).etag or "",  # the live part's, for its first poll
        **page_parts("me", participant),
        "panels": panels("player", request, participant.player, own=True)})


@freshness.personal(_tag)
def me_live(request, token: str):
    """The page's live part, polled: 304 while what it shows is unchanged."""
    participant, overview = _overview(request, token)
    return render(request, "me/_live.html", _live(participant, overview, token))


def _table(token: str, participant: Participant | None = None) -> Table:
    table = seated_table(participant or _participant(token))
    if table is None:
        raise Http404()
    return table


def me_sheet(request, token: str):
    """The tablet's sheet page for the player's table, entering with their own token."""
    participant = _participant(token)
    table = _table(token, participant)
    context = sheet_context(request, table, token=token, player=participant,
                            sheet_url=reverse("pages:me-sheet-list", args=[token]))
    context["me_url"] = personal_path(token)
    return render(request, "sheet/page.html", context)


def me_sheet_list(request, token: str):
    return list_answer(request, _table(token))
