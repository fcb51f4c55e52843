"""Calls for the director from a table's tablet or a player's phone.

A call is *open* until the director acknowledges it (*seen*: the caller's screen says
the director is coming) and *closed* when it is dealt with. Each caller (a player, or
the table's tablet) has at most one call not yet closed: calling again answers with that
call instead of a second one. The console lists the calls not yet closed, oldest first.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.errors import user_error
from tournaments.models import CALL_REASON_MAX, DirectorCall
from tournaments.services.actors import Actor
from tournaments.services.notes import clean_note
from tournaments.services.sheets import SheetWrite, sheet_write

_ORDER = [DirectorCall.Status.OPEN, DirectorCall.Status.SEEN, DirectorCall.Status.CLOSED]


@transaction.atomic
def call_raise(*, table_id: int | None = None, reason: Any = "", actor: Actor,
               sheet: SheetWrite | None = None) -> tuple[DirectorCall, bool]:
    """The caller's call not yet closed, or a new one; and whether it is new."""
    reason = clean_note(reason, field="reason", max_length=CALL_REASON_MAX, required=False)
    table = sheet_write(table_id, sheet).table  # locked: two taps make one call
    waiting = (DirectorCall.objects.filter(table=table, participant=actor.participant)
               .exclude(status=DirectorCall.Status.CLOSED).order_by("at", "id").first())
    if waiting is not None:
        return waiting, False
    return DirectorCall.objects.create(table=table, participant=actor.participant,
                                       reason=reason), True


@transaction.atomic
def call_update(*, call_id: int, status: Any, actor: Actor) -> DirectorCall:
    """The director marks a call seen or closed; a call never goes back (marking a
    closed call seen changes nothing)."""
    if status not in (DirectorCall.Status.SEEN, DirectorCall.Status.CLOSED):
        raise user_error("status", _("Choose seen or closed."))
    call = DirectorCall.objects.select_for_update().get(pk=call_id)
    if _ORDER.index(status) <= _ORDER.index(call.status):
        return call
    now = timezone.now()
    call.status = status
    call.seen_at = call.seen_at or now
    if status == DirectorCall.Status.CLOSED:
        call.closed_at = now
    call.handled_by = actor.user if actor.is_staff else call.handled_by
    call.save(update_fields=["status", "seen_at", "closed_at", "handled_by"])
    return call
