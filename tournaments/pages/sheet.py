"""The tablet score sheet at ``/t/<entry token>/`` (and the same sheet for staff).

The page renders the seats, the entry form of the game and the sheet like a paper list;
the tablet's script (``static/js/sheet/``, ES modules) posts deals to the API with an
``Idempotency-Key`` and keeps them in the browser while offline, so a deal is never lost
and never doubled.
"""

from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import parse_etags
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.history_words import history_rows
from tournaments.models import SheetEvent, Table
from tournaments.pages.access import allowed_if, table_by_pk
from tournaments.pages.paper_list import paper_list
from tournaments.policies import directs_table
from tournaments.selectors import deal_plan, table_state

FORM_TEMPLATES = {game: f"sheet/forms/{game}.html"
                  for game in ("skat", "schafkopf", "baptistenskat", "basler", "labatarde")}


TRUMPS = {
    "baptistenskat": [("red", _("red")), ("yellow", _("yellow")), ("green", _("green")),
                      ("blue", _("blue"))],
    "labatarde": [("all", _("all trumps")), ("spades", _("spades")), ("hearts", _("hearts")),
                  ("diamonds", _("diamonds")), ("clubs", pgettext_lazy("card suit", "clubs")),
                  ("none", _("no trump"))],
}
BASLER_ROWS = [("melds", _("Player")), ("captured", _("Team"))]


def _open_table(token: str) -> Table:
    table = (Table.objects.select_related("round__tournament")
             .filter(entry_token=token).first())
    if table is None:
        raise Http404()
    return table


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


def _context(request, table: Table, *, token: str | None) -> dict:
    state = paper_list(table_state(table))
    return {
        "table": table,
        "state": state,
        "submission": _submission(table),
        "form_template": FORM_TEMPLATES[state["game"]],
        "trumps": TRUMPS.get(state["game"], []),
        "basler_rows": BASLER_ROWS,
        "config": {
            "tableId": table.pk,
            "token": token,
            "api": reverse("table-detail", args=[table.pk]),
            "sheetUrl": (reverse("pages:sheet-list", args=[token]) if token
                         else reverse("pages:staff-sheet-list", args=[table.pk])),
            "lang": get_language(),
            "game": state["game"],
            "next": state["next"],
            "plan": deal_plan(table, state["next_deal"], players=len(state["seats"])),
            "sheetLength": state["sheet_length"],
            "seats": state["seats"],
            "submitted": state["submitted"],
            "staff": token is None,
            "serviceWorker": reverse("pages:service-worker"),
        },
    }


def sheet_page(request, token: str):
    table = _open_table(token)
    if table.round.closed or table.round.reopened:  # reopened: for staff corrections only
        return render(request, "sheet/closed.html", {"table": table}, status=410)
    return render(request, "sheet/page.html", _context(request, table, token=token))


def _list_answer(request, table: Table):
    """The paper-list fragment, or 304 when the asking device already shows this version
    of the sheet (devices at a table poll it every few seconds)."""
    etag = f'"sheet-{table.pk}.{table.version}.{get_language()}"'
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        response = render(request, "sheet/_list.html", {"state": paper_list(table_state(table))})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def sheet_list(request, token: str):
    """The paper-list part of the sheet, re-fetched after every change."""
    return _list_answer(request, _open_table(token))


@staff_member_required
@allowed_if(directs_table, table_by_pk)
def staff_sheet_page(request, table: Table, table_id: int):
    context = _context(request, table, token=None)
    state = context["state"]
    context["history"] = history_rows(
        table.events.select_related("user").order_by("-at", "-id")[:200],
        game=state["game"], names={s["seat"]: s["name"] for s in state["seats"]})
    return render(request, "sheet/page.html", context)


@staff_member_required
@allowed_if(directs_table, table_by_pk)
def staff_sheet_list(request, table: Table, table_id: int):
    return _list_answer(request, table)
