"""Objections ("Einspruch"): a player or the table disputes a deal or the whole sheet.

An objection is raised from a player's phone or the tablet with a short note (and the
deal's number when it is about one deal); the sheet stays open — it is not submitted,
by the last confirmation or by anyone, while an objection is open — and the director
sees it in the console at once. The director resolves it with a few words (after
correcting the sheet, or not); raising and resolving are both in the sheet's history.
Resolving the last open objection of a sheet every player has confirmed submits it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.engines.base import is_int
from games.errors import user_error
from tournaments.errors import StateConflict
from tournaments.models import OBJECTION_NOTE_MAX, Objection, SheetEvent
from tournaments.services.actors import Actor
from tournaments.services.confirmations import submit_if_all_confirmed
from tournaments.services.notes import clean_note
from tournaments.services.sheets import SheetWrite, _check_writable, _log, sheet_write


def _deal_number(table, deal: Any) -> int | None:
    if deal is None:
        return None
    if not is_int(deal) or not table.deals.filter(number=deal).exists():
        raise user_error("deal", _("There is no deal %(deal)s on this sheet."), deal=deal)
    return deal


@transaction.atomic
def objection_raise(*, table_id: int | None = None, deal: Any = None, note: Any,
                    actor: Actor, sheet: SheetWrite | None = None) -> Objection:
    """Raise an objection at the table (see the module docstring). ``UserError`` naming
    ``note`` or ``deal``; ``StateConflict`` once the sheet is submitted (the director is
    called instead) or its round closed."""
    note = clean_note(note, field="note", max_length=OBJECTION_NOTE_MAX, required=True)
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    if table.submitted:
        raise StateConflict(_("The sheet has been submitted; call the director instead."))
    _check_writable(sheet, actor, staff_after_submit=False)
    number = _deal_number(table, deal)
    objection = Objection.objects.create(table=table, deal_number=number, note=note,
                                         participant=actor.participant)
    by = actor.participant.player.name if actor.participant is not None else None
    _log(table, actor, SheetEvent.Action.OBJECTION, number=number,
         after={"objection": objection.pk, "note": note, "by": by})
    return objection


@transaction.atomic
def objection_resolve(*, objection_id: int, resolution: Any, actor: Actor) -> Objection:
    """The director resolves an open objection with a few words; resolving a resolved
    one again changes nothing."""
    resolution = clean_note(resolution, field="resolution", max_length=OBJECTION_NOTE_MAX,
                            required=True)
    objection = Objection.objects.select_for_update().get(pk=objection_id)
    sheet = sheet_write(objection.table_id)
    objection.refresh_from_db()  # as it stands now that its table is locked
    if objection.status == Objection.Status.RESOLVED:
        return objection
    objection.status = Objection.Status.RESOLVED
    objection.resolution = resolution
    objection.resolved_at = timezone.now()
    objection.resolved_by = actor.user if actor.is_staff else None
    objection.save(update_fields=["status", "resolution", "resolved_at", "resolved_by"])
    _log(sheet.table, actor, SheetEvent.Action.OBJECTION_RESOLVE,
         number=objection.deal_number,
         before={"objection": objection.pk, "note": objection.note, "status": "open"},
         after={"objection": objection.pk, "status": "resolved", "resolution": resolution})
    if not sheet.table.round.closed:
        submit_if_all_confirmed(sheet, actor)
    return objection
