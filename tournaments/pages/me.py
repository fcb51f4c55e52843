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
from the versions of the tournament (a draw, a round closed, a withdrawal), its calls and
every table the player sat at (a deal, a correction, a confirmation there): a poll gets
304 after reading the token's seating (kept under the tournament's version,
``tournaments.player_view``) and the versions, without rendering. The live part's
standing (rank and score) is polled from the ranks part it names (``ranks_part``: a page
of players shared by their phones and kept by the proxy; ``me_ranks`` for a tournament
not published), so a recompute renews one answer per page of players, not every
player's live part; the page itself follows the stored standings too. The score card of
the player's table is a part of its own (``card_part``: shared by the table's phones and
kept by the proxy, its URL versioned by the table's push message; ``me_card`` for a
tournament not published): a deal renews the card, not every player's live part
(``part_scopes``). The card the players' own answers show (the live part, ``me_card``)
is kept per version of the table, the tournament and the language (``tournaments.kept``).
An erased or expired token is 404 at the next request.
"""

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import freshness, kept, push
from tournaments.links import personal_path
from tournaments.models import Participant, StandingsPage, Table
from tournaments.pages.access import allowed_if, tournament_by_slug
from tournaments.pages.clock import shown_clock
from tournaments.pages.panels import panels
from tournaments.pages.paper_list import paper_list
from tournaments.pages.parts import page_parts
from tournaments.pages.sheet import list_answer, sheet_context
from tournaments.player_view import (
    PlayerOverview,
    live_scopes,
    overview_keys,
    part_scopes,
    participant_by_token,
    personal_seating,
    seated_table,
    seating_overview,
)
from tournaments.policies import can_see_tournament
from tournaments.selectors import (
    public_names,
    ranks_key,
    ranks_page,
    ranks_page_of,
    table_states,
)
from tournaments.statements import related
from tournaments.templatetags.figures import num

MAX_ID = 2**63 - 1  # the largest id a database row has (a larger page is 404 unread)
# the deals of the table's card a phone polls (the latest; the sheet page has them all)
LIVE_DEALS = 6
# the changes to the player's score the live part shows (the latest, with who and why;
# ``me_changes`` all): a phone's poll stays within 12 KB (a full table's card is about
# 10 KB) however often a table's deals are corrected
LIVE_CHANGES = 1


def _participant(token: str) -> Participant:
    participant = participant_by_token(token)
    if participant is None:
        raise Http404()
    return participant


def _seating(request, token: str):
    """The token's seating (``personal_seating``), read once per request: by the tag,
    then by the view."""
    if getattr(request, "me_seating", None) is None:
        request.me_seating = personal_seating(token)
    return request.me_seating


def _card_scopes(table: int, tournament: int) -> tuple[str, str]:
    """What a table's card shows: the table (its deals) and the tournament (the names)."""
    return freshness.table(table), freshness.tournament(tournament)


def _card_key(table: int, tournament: int, names: str) -> str | None:
    """Where the table's card is kept under the versions of ``_card_scopes`` now (None:
    the versions unavailable), by language and the ``names`` it shows."""
    found = freshness.versions(_card_scopes(table, tournament))
    if found is None:
        return None
    return f"card:{table}:{found[0]}:{found[1]}:{LIVE_DEALS}:{names}:{get_language()}"


def _kept_read(request, seating) -> dict:
    """The kept entries the player's answer reads under the versions (read with the
    seating): the player's page of ranks, the shown tables' reads, the player's changes
    and the card of the table now — in one round trip, once per request (what is
    missing is built where it is used)."""
    if getattr(request, "me_kept", None) is None:
        participant = seating.participant
        ranks = ranks_key(participant.tournament_id, ranks_page_of(participant.pk))
        card = (_card_key(seating.now.table_id, participant.tournament_id, _names(participant))
                if seating.now is not None else None)
        request.me_kept = kept.read([*([ranks] if ranks else []), *overview_keys(seating),
                                     *([card] if card else [])])
    return request.me_kept


def _tag(request, token: str) -> freshness.Tag | None:
    """The page's tag: the versions of what it shows, the stored standings among them
    (None for a token that opens no page: the view answers 404)."""
    seating = _seating(request, token)
    if seating is None:
        return None
    return freshness.tag((*live_scopes(seating),
                          freshness.computed(seating.participant.tournament_id)), "me", token)


def _now_round(seating) -> int | None:
    """The round of the seat shown as the player's seat now (at a table still played)."""
    now = seating.now
    shown = {s.table_id for s in seating.shown}
    return now.table.round.number if now is not None and now.table_id in shown else None


def _live_tag(request, token: str) -> freshness.Tag | None:
    """The live part's tag. Its standing (rank and score) is polled on its own from the
    shared ranks part (``ranks_part``), so a recompute reaches the live part only through
    the ranks of the earlier rounds it lists (read only for a player who has them): at a
    championship a computation every few seconds would otherwise make every phone's
    poll a new answer."""
    seating = _seating(request, token)
    if seating is None:
        return None
    scopes = part_scopes(seating)
    # in the same read the versions the answer's reads are kept under, and the stored
    # standings' (the answer's standing needs it)
    freshness.versions([*scopes, *live_scopes(seating),
                        freshness.computed(seating.participant.tournament_id)])
    now = _now_round(seating)
    earlier = []
    if any(s.table.round.number != now for s in seating.seats):
        _computation, page = _ranks_read(request, seating.participant)
        earlier = sorted((number, found[0]) for number, found
                         in page.get(seating.participant.pk, {}).items()
                         if number and number != now)
    return freshness.tag(scopes, "me-live", token, earlier)


def _names(participant: Participant) -> str:
    """Which names the card of the player's table shows: as the players chose where
    everyone may read the card (``card_part``), else the table's own."""
    return "public" if participant.tournament.published else "table"


def _card_url(participant: Participant, token: str, table_id: int) -> str:
    """Where the card of the player's table is fetched: the shared card part of a
    published tournament (kept by the proxy for the table's phones), else the player's
    own."""
    tournament = participant.tournament
    if tournament.published:
        return reverse("pages:card", args=[tournament.slug, table_id])
    return reverse("pages:me-card", args=[token])


def _ranks_read(request, participant: Participant) -> tuple[int, dict]:
    """The participant's page of ranks (``ranks_page``), read once per request."""
    if getattr(request, "me_ranks", None) is None:
        request.me_ranks = ranks_page(participant.tournament, ranks_page_of(participant.pk),
                                      _kept_read(request, request.me_seating))
    return request.me_ranks


def _ranks_url(participant: Participant, token: str) -> str:
    """Where the live part's standing is polled: the shared ranks part of a published
    tournament (kept by the proxy for all the room's phones), else the player's own."""
    tournament = participant.tournament
    if tournament.published:
        return reverse("pages:ranks", args=[tournament.slug, ranks_page_of(participant.pk)])
    return reverse("pages:me-ranks", args=[token])


def _live(request, participant: Participant, overview: PlayerOverview, token: str,
          computation: int = 0) -> dict:
    body = overview.body
    now = body["now"]
    seating = _seating(request, token)
    context = {"token": token, "tournament": participant.tournament, "me": body, "now": now,
               # the live part's channels, and its card's: the table's, renewed by a deal
               "push": push.subscription([*part_scopes(seating), *(
                   [freshness.table(now["table_id"])] if now else [])]),
               "changes": body["changes"][:LIVE_CHANGES],
               "changes_total": len(body["changes"]),
               "changes_url": reverse("pages:me-changes", args=[token]),
               "participant_id": participant.pk, "computation": computation,
               "ranks_url": _ranks_url(participant, token),
               "earlier": [r for r in body["rounds"] if not now or r["round"] != now["round"]],
               "seat_key": "", "notice": "", "now_part": _now_part(participant, overview, token,
                                                          _kept_read(request, seating)),
               "clock": shown_clock(now.get("clock"), now["round"]) if now else None}
    if now is not None:
        context.update(
            seat_key=f"{now['round']}-{now['table_id']}-{now['seat']}",
            notice=_("New round: table %(table)s, seat %(seat)s")
            % {"table": now["table"], "seat": now["seat"]})
    return context


def _now_part(participant: Participant, overview: PlayerOverview, token: str,
              read: dict | None = None) -> str:
    """Where the player sits now, who deals first, the others, the player's call for the
    director not yet closed and the table's live score card (read-only, its latest
    ``LIVE_DEALS`` deals and the totals) — or that they have no seat."""
    now = overview.body["now"]
    if now is None:
        return render_to_string("me/_now.html", {"now": None})
    names = {p["seat"]: p["name"] for p in now["players"]}
    table_id = now["table_id"]
    card = _card(overview.table, lambda: overview.sheet, _names(participant), read)
    return render_to_string("me/_now.html", {
        "token": token, "now": now, "card": mark_safe(card),  # noqa: S308 - our template's
        "card_url": _card_url(participant, token, table_id),
        "card_scope": freshness.table(table_id), "call": overview.call,
        "dealer_name": names.get(now["first_dealer"], "")})


def _card_html(table: Table, state, names: str) -> str:
    """The table's read-only score card: its latest ``LIVE_DEALS`` deals, the totals and
    how many deals came before them, with ``names`` (``_names``); ``state`` gives the
    table's state (``table_states``)."""
    sheet = state()
    if names == "public":  # as the players chose, as the board shows them
        shown = public_names(table.round.tournament,
                             only=[seat["participant"] for seat in sheet["seats"]])
        sheet = {**sheet, "seats": [{**seat, "name": shown.get(
            seat["participant"], ("",))[0]} for seat in sheet["seats"]]}
    deals = sheet.get("deals") or []
    earlier = max(0, len(deals) - LIVE_DEALS)
    # the words of the deals shown only (the earlier ones are not on the card)
    listed = paper_list(sheet, known={d["number"] for d in deals[:earlier]})
    return render_to_string("me/_card.html", {
        "state": {**listed, "deals": listed["deals"][earlier:]}, "earlier_deals": earlier})


def _card(table: Table, state, names: str, read: dict | None = None) -> str:
    """``_card_html``, the same for every reader of the players' own pages, kept per
    version of the table and the tournament, ``names`` and language (``read``: the
    request's ``_kept_read``)."""
    key = _card_key(table.pk, table.round.tournament_id, names)
    if key is None:
        return _card_html(table, state, names)
    return kept.kept({0: key}, lambda _missing: {0: _card_html(table, state, names)},
                     found=read)[0]


def _overview(request, token: str) -> tuple[Participant, PlayerOverview]:
    """The player's overview, from the seating the tag read for this request."""
    seating = _seating(request, token)
    if seating is None:
        raise Http404()
    _computation, page = _ranks_read(request, seating.participant)
    return seating.participant, seating_overview(seating, page.get(seating.participant.pk, {}),
                                                 _kept_read(request, seating))


@freshness.personal(_tag)
def me_page(request, token: str):
    participant, overview = _overview(request, token)
    live = _live_tag(request, token)  # the live part's, for its first poll
    return render(request, "me/page.html", {
        **_live(request, participant, overview, token, _ranks_read(request, participant)[0]),
        "name": overview.body["name"], "etag": live.etag or "",
        **page_parts("me", participant),
        "panels": panels("player", request, participant.player, own=True)})


@freshness.personal(_live_tag)
def me_live(request, token: str):
    """The page's live part, polled: 304 while what it shows is unchanged."""
    participant, overview = _overview(request, token)
    return render(request, "me/_live.html",
                  _live(request, participant, overview, token,
                        _ranks_read(request, participant)[0]))


@freshness.personal(_tag)
def me_changes(request, token: str):
    """Every change to the player's score in the tournament, newest first (the live part
    shows the latest ``LIVE_CHANGES``)."""
    participant, overview = _overview(request, token)
    return render(request, "me/changes.html", {
        "token": token, "tournament": participant.tournament, "name": overview.body["name"],
        "changes": overview.body["changes"]})


def _standing(tournament, page: int, participant_ids=None) -> JsonResponse:
    """The ranks part: ``{"computation": n, "standings": {"<participant>": {"rank",
    "score"}}}`` of the participants on ``page`` (or only ``participant_ids``) in the
    stored overall list, rank and score as the page shows them."""
    computation, found = ranks_page(tournament, page)
    standings = {str(pid): {"rank": str(entry[0][0]), "score": num(entry[0][1])}
                 for pid, entry in found.items()
                 if 0 in entry and (participant_ids is None or pid in participant_ids)}
    return JsonResponse({"computation": computation, "standings": standings})


def _ranks_tag(request, tournament, slug: str, page: int) -> freshness.Tag:
    return freshness.tournament_tag(
        request, tournament, (freshness.tournament(tournament.pk),
                              freshness.computed(tournament.pk)), "ranks", page)


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
@freshness.public(_ranks_tag)
def ranks_part(request, tournament, slug: str, page: int):
    """A page of the players' standing (``ranks_page``), polled by their pages: one
    answer for every phone of that page, kept by the proxy (no names: the board has
    them). A page without participants is 404."""
    first = page * StandingsPage.PAGE_SIZE
    if first > MAX_ID or not Participant.objects.filter(tournament=tournament, pk__gte=first,
                                      pk__lt=first + StandingsPage.PAGE_SIZE).exists():
        raise Http404()
    return _standing(tournament, page)


def _own_ranks_tag(request, token: str) -> freshness.Tag | None:
    seating = _seating(request, token)
    if seating is None:
        return None
    tournament_id = seating.participant.tournament_id
    return freshness.tag((freshness.tournament(tournament_id), freshness.computed(tournament_id)),
                         "me-ranks", token)


@freshness.personal(_own_ranks_tag)
def me_ranks(request, token: str):
    """The player's own standing as the ranks part gives it, for a tournament not
    published (whose ranks no shared cache may keep)."""
    participant, _overview_read = _overview(request, token)
    return _standing(participant.tournament, ranks_page_of(participant.pk), {participant.pk})


def _card_table(request, tournament, table_id: int) -> Table | None:
    """The tournament's table ``table_id`` (round loaded), read once per request."""
    if not hasattr(request, "card_table"):
        found = [] if table_id > MAX_ID else related(Table, ("round",), "id", [table_id])
        request.card_table = next((t for t in found if t.round.tournament_id == tournament.pk),
                                  None)
        if request.card_table is not None:
            request.card_table.round.tournament = tournament
    return request.card_table


def _card_tag(request, tournament, slug: str, table_id: int) -> freshness.Tag | None:
    table = _card_table(request, tournament, table_id)
    if table is None:
        return None
    return freshness.tournament_tag(request, tournament, _card_scopes(table_id, tournament.pk),
                                    "card", table_id, LIVE_DEALS)


@allowed_if(can_see_tournament, tournament_by_slug, hide=True)
@freshness.public(_card_tag)
def card_part(request, tournament, slug: str, table_id: int):
    """The read-only score card of a table (``_card_html``, the names as the players chose),
    fetched by the pages of the players who sit there when its push message says it
    changed — at a URL naming the table's new version (``?v=``), so the proxy renders it
    once for all of them, never answering from what it kept before — and polled without
    push. Any table of a published tournament: the board's player pages show them all."""
    # not kept: the proxy keeps it, and a deal makes the next one
    return _card_answer(_card_table(request, tournament, table_id), "public", _card_html)


def _card_answer(table: Table | None, names: str, card=_card) -> HttpResponse:
    """The card of ``table`` (by ``card``, its state read when not kept); 404 without one."""
    if table is None:
        raise Http404()
    return HttpResponse(card(table, lambda: table_states([table])[0], names))


def _own_card_tag(request, token: str) -> freshness.Tag | None:
    seating = _seating(request, token)
    if seating is None or seating.now is None:
        return None
    return freshness.tag(_card_scopes(seating.now.table_id, seating.participant.tournament_id),
                         "me-card", token, LIVE_DEALS)


@freshness.personal(_own_card_tag)
def me_card(request, token: str):
    """The card of the player's table as ``card_part`` gives it (with the table's own
    names), for a tournament not published (whose cards no shared cache may keep); 404
    while the player sits at no open table."""
    seating = _seating(request, token)
    if seating is None or seating.now is None:
        raise Http404()
    # (no table: its round deleted since the seating was read)
    return _card_answer(_card_table(request, seating.participant.tournament,
                                    seating.now.table_id), _names(seating.participant))


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
