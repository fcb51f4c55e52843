"""Confirming a sheet: each seated player's word that the sheet as it stands is right.

A player confirms on their own phone (their personal token: their own seat only), or at
the tablet (the table's token names the seat). A confirmation holds for the sheet's
``version`` at that moment; any later change to the sheet voids it, so what was
confirmed is what goes in. When every seated player has confirmed the current version
and no objection is open, the sheet is submitted (``sheet_submit``, with the confirming
seats), in the same transaction. Confirming again is harmless: nothing new is stored,
and after the submission the answer says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from games.engines.base import is_int
from games.errors import user_error
from tournaments.models import Objection, SheetConfirmation, SheetEvent, Table
from tournaments.selectors import confirmed_seats
from tournaments.services.actors import Actor
from tournaments.services.sheets import (
    SheetWrite,
    _check_writable,
    _log,
    sheet_submit,
    sheet_write,
)


@dataclass(frozen=True)
class Confirmations:
    """Which seats have confirmed the sheet as it stands, and whether it is submitted."""

    confirmed: list[int]
    submitted: bool


def has_open_objection(table: Table) -> bool:
    return table.objections.filter(status=Objection.Status.OPEN).exists()


def sheet_is_complete(sheet: SheetWrite) -> bool:
    table = sheet.table
    if table.summary is not None:
        return True
    records = list(table.deals.order_by("number").values_list("record", flat=True))
    return sheet.engine.sheet_complete(records, sheet.players, sheet.rules)


def submit_if_all_confirmed(sheet: SheetWrite, actor: Actor) -> bool:
    """Submit the sheet when every seated player has confirmed its current version and
    no objection is open; whether it is submitted now."""
    table = sheet.table
    if table.submitted:
        return True
    seats = list(table.seats.order_by("seat").values_list("seat", flat=True))
    if not seats or confirmed_seats(table) != seats or has_open_objection(table):
        return False
    sheet_submit(actor=actor, confirmed_by=seats, sheet=sheet)
    return True


def _seat_of(table: Table, actor: Actor, seat: Any) -> int:
    """The seat being confirmed: a player's own (naming another is refused), or the seat
    the tablet or staff name."""
    seats = {s.seat: s for s in table.seats.select_related("participant__player")}
    if actor.participant is not None:
        own = next((n for n, s in seats.items() if s.participant_id == actor.participant.pk),
                   None)
        if own is None:  # the endpoint lets only seated players in; cannot happen
            raise user_error("seat", _("You do not sit at this table."))
        if seat is not None and seat != own:
            raise user_error("seat", _("Each player confirms only for themselves."))
        return own
    if seat is None:
        raise user_error("seat", _("Name the seat of the player who confirms."))
    if not is_int(seat) or seat not in seats:
        raise user_error("seat", _("Seat %(seat)s is not at this table."), seat=seat)
    return seat


@transaction.atomic
def sheet_confirm(*, table_id: int | None = None, seat: Any = None, actor: Actor,
                  sheet: SheetWrite | None = None) -> Confirmations:
    """Record that the player of ``seat`` (a player's own seat when they confirm on their
    phone) confirms the sheet as it stands; submit it when that was the last one."""
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    seat = _seat_of(table, actor, seat)
    if table.submitted:  # confirming again after the last one submitted it: harmless
        return Confirmations(confirmed_seats(table), True)
    _check_writable(sheet, actor, staff_after_submit=False)
    if not sheet_is_complete(sheet):
        raise user_error("deals", _("The sheet is not complete yet; confirm it when the "
                                    "last deal is entered."))
    _confirmation, created = SheetConfirmation.objects.get_or_create(
        table=table, seat=seat, version=table.version,
        defaults={"participant": actor.participant})
    if created:
        name = table.seats.filter(seat=seat).values_list(
            "participant__player__name", flat=True).first()
        _log(table, actor, SheetEvent.Action.CONFIRM,
             after={"seat": seat, "name": name, "version": table.version})
    submitted = submit_if_all_confirmed(sheet, actor)
    return Confirmations(confirmed_seats(table), submitted)
