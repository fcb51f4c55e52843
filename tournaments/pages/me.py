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

The page and its live part are rendered once per language and per state of what they
show, then answered from memory by the standings snapshots (``snapshots.Snapshotted``,
keyed by the token): dropped by a change of the player's table's sheet or a
confirmation there, by a recompute of the standings, and by anything about the
tournament (a draw, a round closed, a withdrawal, a publication choice) — not by the
deals of the other tables. A correction of an earlier round's sheet shows with the
recompute it causes. A computation drops every player's page (the ranks move), but what
a page reads besides the standings — the seats, the table, the confirmations — is kept
in the process while none of that changed (``player_view.personal_overview``; a table's
reads after a deal, and its card, are shared between the processes), and so is what is
rendered of them (the seat now with the table's card, ``_now_part``): after a
computation a phone's poll costs the ranks' look-up and the render of the standing
around that part, not the queries.
"""

from collections import OrderedDict

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.conditional import precondition_answer, tagged
from tournaments.links import personal_path
from tournaments.models import Participant, Table
from tournaments.pages.clock import shown_clock
from tournaments.pages.panels import panels
from tournaments.pages.paper_list import paper_list
from tournaments.pages.registration import registration_context
from tournaments.pages.sheet import list_answer, sheet_context
from tournaments.player_view import (
    PlayerOverview,
    participant_by_token,
    personal_overview,
    seated_table,
    share_rendered,
)
from tournaments.recompute import snapshots

HEADERS = {"Cache-Control": "no-cache"}
# where the card goes in the rendered part of the seat now (``_now_part``)
_CARD_MARK = "\x00card\x00"


def _participant(token: str) -> Participant:
    participant = participant_by_token(token)
    if participant is None:
        raise Http404()
    return participant


def _etag(overview: PlayerOverview) -> str:
    """The overview's ETag, per language (the part is rendered in words)."""
    return f'"{overview.etag.strip(chr(34))}-{get_language()}"'


def _remembered(response, participant: Participant, overview: PlayerOverview):
    """The answer, for the snapshots to keep while the player's tables and the tournament
    are unchanged (never for an unpublished tournament)."""
    tables = [*overview.body["confirmations_due"]]
    if overview.table is not None:
        tables.append(overview.table.pk)
    tournament = participant.tournament
    return snapshots.mark(response, snapshots.player_scopes(tournament.pk, tables),
                          tournament.published)


def _live(participant: Participant, overview: PlayerOverview, token: str) -> dict:
    body = overview.body
    now = body["now"]
    context = {"token": token, "tournament": participant.tournament, "me": body, "now": now,
               "earlier": [r for r in body["rounds"] if not now or r["round"] != now["round"]],
               "seat_key": "", "notice": "", "now_part": _now_part(overview, token),
               "clock": shown_clock(now.get("clock"), now["round"]) if now else None}
    if now is not None:
        context.update(
            seat_key=f"{now['round']}-{now['table_id']}-{now['seat']}",
            notice=_("New round: table %(table)s, seat %(seat)s")
            % {"table": now["table"], "seat": now["seat"]})
    return context


def _now_part(overview: PlayerOverview, token: str) -> str:
    """Where the player sits now, who deals first, the others and the table's card — or
    that they have no seat: rendered once per language and seat for the table's reads
    the process keeps (``sheet_memo``, dropped with them when the sheet changes), not
    on every poll. A computation (every few seconds) changes the player's rank and
    score, rendered around it (``me/_live.html``); this part it leaves alone."""
    now = overview.body["now"]
    if now is None:
        return render_to_string("me/_now.html", {"now": None})
    key = ("now", get_language(), token, now["round"], now["table"], now["seat"])
    parts = overview.sheet_memo.get(key)
    if parts is None:
        # kept around the card, which the table's four players share (kept once)
        names = {p["seat"]: p["name"] for p in now["players"]}
        html = render_to_string("me/_now.html", {
            "token": token, "now": now, "card": mark_safe(_CARD_MARK),  # noqa: S308
            "dealer_name": names.get(now["first_dealer"], "")})
        # the card comes last: the mark's last occurrence is the card's place
        head, _mark, tail = html.rpartition(_CARD_MARK)
        parts = overview.sheet_memo[key] = (head, tail)
    head, tail = parts
    return mark_safe(head + _card(overview) + tail)  # noqa: S308 - our templates' output


def _card(overview: PlayerOverview) -> str:
    """The table's live score card (read-only), rendered once per language and process
    from the sheet's state the process keeps for everyone at the table (``sheet_memo``:
    dropped with the state when the sheet changes), so the four players' polls after a
    deal render it once and read nothing more. The process that renders it first after
    a change shares it (``share_rendered``); another process takes it in the round trip
    that brings it the table's reads (``personal_overview``'s ``rendered``), and renders
    it itself (from its own rows, ``_ROWS``: the new rows only) where it is not there
    yet. Nobody waits for another process's render: sharing the card behind a lock, with
    round trips of its own, cost more than rendering it (an eighth of a web worker's
    time on a championship day, bench/README)."""
    language = get_language()
    card = overview.sheet_memo.get(language)
    if card is None:
        card = overview.sheet_memo[language] = _card_now(overview.table.pk, overview.sheet)
        share_rendered(overview, language, card)
    return card


_ROWS: OrderedDict[int, dict[tuple, str]] = OrderedDict()
"""The rendered rows of the score cards, by table, for this process: a row is rendered
once and reused while its deal, the running totals and the names are the same — a
deal renders one new row, not the 48 of a full sheet. Bounded by ``ROW_TABLES``."""
ROW_TABLES = 1_000


def _card_now(table_id: int, state: dict) -> str:
    language = get_language()
    names = tuple(s["name"] for s in state["seats"])
    rows = [dict(row) for row in state.get("deals") or []]
    keys = [(language, names, row["number"], row["etag"],
             tuple(cell["running"] for cell in row["cells"])) for row in rows]
    kept = _ROWS.pop(table_id, {})
    listed = paper_list({**state, "deals": rows},
                        known={key[2] for key in keys if key in kept})
    current = {key[1:] for key in keys}
    fresh = {key: html for key, html in kept.items() if key[1:] in current}
    for key, row in zip(keys, rows, strict=True):
        html = fresh.get(key)
        if html is None:
            html = fresh[key] = render_to_string("sheet/_deal_row.html", {
                "d": row, "state": listed, "readonly": True})
        row["html"] = mark_safe(html)  # noqa: S308 - our own template's output
    _ROWS[table_id] = fresh
    while len(_ROWS) > ROW_TABLES:
        _ROWS.popitem(last=False)
    return mark_safe(render_to_string(  # noqa: S308 - our own template's output
        "sheet/_list.html", {"state": listed, "readonly": True}))


def _overview(token: str) -> tuple[Participant, PlayerOverview]:
    # the table's card in the reader's language (``_card``) comes with the table's reads
    found = personal_overview(token, rendered=get_language())
    if found is None:
        raise Http404()
    return found


def me_page(request, token: str):
    participant, overview = _overview(token)
    return _remembered(render(request, "me/page.html", {
        **_live(participant, overview, token), "etag": _etag(overview),
        "name": overview.body["name"], **registration_context(participant),
        "panels": panels("player", request, participant.player, own=True)}),
        participant, overview)


me_page.snapshot = snapshots.Snapshotted("me", per_language=True)


def me_live(request, token: str):
    """The page's live part, polled: 304 while the player's overview is unchanged."""
    participant, overview = _overview(token)
    etag = _etag(overview)
    answer = precondition_answer(request, etag, HEADERS)
    if answer is not None:
        return _remembered(answer, participant, overview)
    return _remembered(tagged(render(request, "me/_live.html",
                                     _live(participant, overview, token)), etag, HEADERS),
                       participant, overview)


me_live.snapshot = snapshots.Snapshotted("me-live", per_language=True)


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
