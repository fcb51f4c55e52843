"""The tablet score sheet at ``/t/<entry token>/`` (and the same sheet for staff, and for
a player's own phone at ``/me/<personal token>/sheet/``, ``tournaments.pages.me``).

The page renders the seats, the entry form of the game and the sheet like a paper list;
the tablet's script (``static/js/sheet/``, ES modules) posts deals to the API with an
``Idempotency-Key`` and keeps them in the browser while offline, so a deal is never lost
and never doubled.
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.csrf import ensure_csrf_cookie

from games.presentation import presentation_of
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged
from tournaments.history_words import history_rows
from tournaments.models import SheetEvent, Table
from tournaments.pages.access import allowed_if, staff_required, table_by_pk
from tournaments.pages.clock import clock_context
from tournaments.pages.paper_list import paper_list
from tournaments.policies import directs_table, sheet_refusal
from tournaments.selectors import deal_plan, table_state, waiting_call
from tournaments.tokens import storable


def list_etag(table: Table) -> str:
    """The ETag of a table's paper list at the version read: its fragment's, and the
    page's, which embeds the same list (its script asks with it, so a page just loaded
    is answered 304 and the list a player is about to tap is not replaced)."""
    return freshness_etag("sheet", table.pk, table.version, get_language())


def _token_table(token: str) -> Table:
    table = (Table.objects.select_related("round__tournament")
             .filter(entry_token=token).first()) if storable(token) else None
    if table is None:
        raise Http404()
    return table


def _closed(request, table: Table):
    """The answer to a token the policy refuses (its round closed or reopened for staff
    corrections, its tournament finished): 410."""
    return render(request, "sheet/closed.html", {"table": table}, status=410)


def _submission(table: Table) -> dict | None:
    """Who confirmed a submitted sheet at the table, and the director's reason when not
    everyone did (the last submit in the history)."""
    if not table.submitted:
        return None
    event = (table.events.filter(action=SheetEvent.Action.SUBMIT).order_by("-at", "-id")
             .values_list("after", flat=True).first()) or {}
    return {"names": ", ".join(c.get("name", "") for c in event.get("confirmed_by") or []
                               if isinstance(c, dict)),
            "reason": event.get("unconfirmed_reason", "")}


def sheet_context(request, table: Table, *, token: str | None, player=None,
                  sheet_url: str | None = None) -> dict:
    """The sheet page's context: for the tablet (the table's ``token``), for staff (no
    token: their session), or for a seated ``player``'s own phone (``token`` is then the
    player's personal token, sent as ``Authorization: Player …``, and the page confirms
    only the player's own seat). ``sheet_url``: where the page re-fetches its list
    (default: the table token's or the staff's)."""
    state = paper_list(table_state(table))
    shown = presentation_of(state["game"])  # the game's form and what it needs
    own_seat = next((s["seat"] for s in state["seats"]
                     if player is not None and s["participant"] == player.pk), None)
    # the caller's call not yet closed (staff call nobody): shown by the server, so a
    # reload or another browser on the same phone still says the director has seen it
    call = None if token is None else waiting_call(
        table.pk, player.pk if player is not None else None)
    return {
        "own_seat": own_seat,
        "call": call,
        "open_objections": [o for o in state["objections"] if o["status"] == "open"],
        **shown.form_context(state),
        "table": table,
        "state": state,
        "submission": _submission(table),
        "clock": clock_context(table.round, poll=True),
        "form_template": shown.form_template,
        "config": {
            "tableId": table.pk,
            "token": token,
            "api": reverse("table-detail", args=[table.pk]),
            "listTag": list_etag(table),
            "sheetUrl": sheet_url or (reverse("pages:sheet-list", args=[token]) if token
                                      else reverse("pages:staff-sheet-list", args=[table.pk])),
            "lang": get_language(),
            "game": state["game"],
            "next": state["next"],
            "plan": deal_plan(table, state["next_deal"], players=len(state["seats"]),
                              records=[d["record"] for d in state["deals"]]),
            # the tablet enters numbers up to this one (the engine's room, games.engines)
            "sheetLength": state["last_number"],
            "seats": state["seats"],
            "submitted": state["submitted"],
            "staff": token is None,
            # how the page's script authenticates: the table's token, or the player's
            # personal one (``Authorization: Player …``) with their own seat
            "authScheme": "Player" if player is not None else "Table",
            "ownSeat": own_seat,
            "confirmed": state["confirmed"],
            "serviceWorker": reverse("pages:service-worker"),
        },
    }


def sheet_page(request, token: str):
    table = _token_table(token)
    if sheet_refusal(table, by_table=True, write=False) is not None:
        return _closed(request, table)
    context = sheet_context(request, table, token=token)
    if directs_table(request.user, table):
        # the director who scans the table's code on a phone: the staff sheet is a tap
        # away (penalties, annulled games, a submit without everyone)
        context["staff_url"] = reverse("pages:staff-sheet", args=[table.pk])
    return render(request, "sheet/page.html", context)


def list_answer(request, table: Table):
    """The paper-list fragment, or 304 when the asking device already shows this version
    of the sheet (devices at a table poll it every few seconds)."""
    etag = list_etag(table)
    answer = precondition_answer(request, etag)
    if answer is not None:
        return answer
    return tagged(render(request, "sheet/_list.html",
                         {"state": paper_list(table_state(table))}), etag)


def sheet_list(request, token: str):
    """The paper-list part of the sheet, re-fetched after every change (410, as the page,
    once the token may no longer read it; the tablet keeps what it shows)."""
    table = _token_table(token)
    if sheet_refusal(table, by_table=True, write=False) is not None:
        return _closed(request, table)
    return list_answer(request, table)


@staff_required
@allowed_if(directs_table, table_by_pk)
@ensure_csrf_cookie  # its script sends the cookie's token (static/js/sheet/api.js)
def staff_sheet_page(request, table: Table, table_id: int):
    context = sheet_context(request, table, token=None)
    state = context["state"]
    context["history"] = history_rows(
        table.events.select_related("user", "participant__player")
        .order_by("-at", "-id")[:200],
        game=state["game"], names={s["seat"]: s["name"] for s in state["seats"]})
    return render(request, "sheet/page.html", context)


@staff_required
@allowed_if(directs_table, table_by_pk)
def staff_sheet_list(request, table: Table, table_id: int):
    return list_answer(request, table)
