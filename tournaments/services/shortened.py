"""Ending a table's sheet early (a player left, time ran out): a *shortened* sheet.

How a shortened series counts: the deals entered are the sheet. Its totals are the
game's own totals over those deals (for Skat the Seeger-Fabian points of the games
played, won and lost included; for the other games their points or penalty points), as
if the series had been planned that long. Nothing is invented: no missing deal is
filled in, no average is extrapolated, no penalty is added for the deals not played.
Every player seated at the table has played the round (it counts in ``rounds_played``),
the one who left included, who keeps what the sheet gives them. The sheet then counts
as submitted, so the round can be closed; the table shows ``shortened`` and the reason,
and the history keeps who ended it, when and why.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.errors import user_error
from tournaments.errors import StateConflict
from tournaments.models import REASON_MAX, SheetEvent, Table
from tournaments.recompute.outbox import sheet_changed
from tournaments.services.actors import Actor
from tournaments.services.sheets import SheetWrite, _check_writable, _log, sheet_write


def _clean_reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise user_error("reason", _("Give a reason for ending the sheet early."))
    reason = " ".join(reason.split())
    if len(reason) > REASON_MAX:
        raise user_error("reason", _("The reason may be at most %(max)s characters long."),
                         max=REASON_MAX)
    return reason


@transaction.atomic
def sheet_end(*, table_id: int | None = None, reason: Any, actor: Actor,
              sheet: SheetWrite | None = None) -> Table:
    """End a sheet early with the deals entered (staff only; see the module docstring).

    ``UserError`` naming ``reason`` when it is missing, blank or too long;
    ``StateConflict`` when the round is closed, the sheet is submitted already or it is
    complete (then it is simply submitted).
    """
    reason = _clean_reason(reason)
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    if actor.by_table:
        raise StateConflict(_("Only the tournament's directors may end a sheet early."))
    _check_writable(sheet, actor, staff_after_submit=False)
    records = list(table.deals.order_by("number").values_list("record", flat=True))
    count = len(records)
    if table.summary is not None:
        raise StateConflict(_("This sheet was entered as a summary; submit it instead."))
    length = sheet.engine.sheet_length(sheet.players, sheet.rules)
    if sheet.engine.sheet_complete(records, sheet.players, sheet.rules):
        raise StateConflict(_("The sheet is complete; submit it instead."))
    table.submitted = True
    table.submitted_at = timezone.now()
    table.shortened = True
    table.end_reason = reason
    table.version += 1
    table.save(update_fields=["submitted", "submitted_at", "shortened", "end_reason",
                              "version"])
    _log(table, actor, SheetEvent.Action.END,
         after={"submitted": True, "shortened": True, "reason": reason, "deals": count,
                "sheet_length": length})
    sheet_changed(table.round.tournament_id, round_number=table.round.number,
                  table_id=table.pk, table=table)
    return table
