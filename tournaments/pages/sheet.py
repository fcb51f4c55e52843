"""The tablet score sheet at ``/t/<entry token>/`` (and the same sheet for staff).

The page renders the seats, the entry form of the game and the sheet like a paper list;
``static/js/sheet.js`` posts deals to the API with an ``Idempotency-Key`` and keeps them
in the browser while offline, so a deal is never lost and never doubled.
"""

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from api.permissions import directs
from tournaments.models import Table
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


def _context(request, table: Table, *, token: str | None) -> dict:
    state = table_state(table)
    return {
        "table": table,
        "state": state,
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
            "plan": deal_plan(table, state["next_deal"]),
            "sheetLength": state["sheet_length"],
            "seats": state["seats"],
            "submitted": state["submitted"],
            "staff": token is None,
        },
    }


def sheet_page(request, token: str):
    table = _open_table(token)
    if table.round.closed:
        return render(request, "sheet/closed.html", {"table": table}, status=410)
    return render(request, "sheet/page.html", _context(request, table, token=token))


def sheet_list(request, token: str):
    """The paper-list part of the sheet, re-fetched after every change."""
    table = _open_table(token)
    return render(request, "sheet/_list.html", {"state": table_state(table)})


def _staff_table(request, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id)
    if not directs(request.user, table.round.tournament):
        raise PermissionDenied()
    return table


@staff_member_required
def staff_sheet_page(request, table_id: int):
    table = _staff_table(request, table_id)
    context = _context(request, table, token=None)
    context["history"] = table.events.select_related("user").order_by("-at", "-id")[:200]
    return render(request, "sheet/page.html", context)


@staff_member_required
def staff_sheet_list(request, table_id: int):
    return render(request, "sheet/_list.html",
                  {"state": table_state(_staff_table(request, table_id))})
