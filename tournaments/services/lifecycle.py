"""Finishing a tournament (or a club evening) and reopening it.

A *finished* tournament is closed for changes: no round is drawn, reopened or swapped,
no player is registered, checked in or withdrawn, and no sheet can be written (its
rounds are all closed). Reading it, publishing it and exporting it still work. Staff
who direct it may reopen it; it is then running again (a draft when it has no round).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop as _

from tournaments.errors import StateConflict
from tournaments.models import Tournament


def finished_refusal(tournament: Tournament) -> str:
    """The refusal (a msgid) of a change to a finished event, in the event's own word: a
    club evening is an evening, not a tournament."""
    if tournament.club_evening:
        return _("The evening is finished; reopen it to change anything.")
    return _("The tournament is finished; reopen it to change anything.")


def check_not_finished(tournament: Tournament) -> None:
    """Raise ``StateConflict`` when the tournament is finished."""
    if tournament.status == Tournament.Status.FINISHED:
        raise StateConflict(finished_refusal(tournament))


def lock_open_tournament(tournament_id: int) -> Tournament:
    """The tournament, locked for the caller's transaction; ``StateConflict`` when it is
    finished."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    check_not_finished(tournament)
    return tournament


@transaction.atomic
def tournament_finish(*, tournament_id: int) -> Tournament:
    """Finish a tournament whose rounds are all closed (``StateConflict`` otherwise, and
    when it is finished already)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    check_not_finished(tournament)
    open_rounds = list(tournament.rounds.filter(closed=False).order_by("number")
                       .values_list("number", flat=True))
    if open_rounds:
        raise StateConflict(_("Close round %(rounds)s before finishing the tournament."),
                            rounds=", ".join(str(n) for n in open_rounds))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])  # its signal bumps the answers' versions
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament_id: int) -> Tournament:
    """Reopen a finished tournament for changes (``StateConflict`` when not finished)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if tournament.status != Tournament.Status.FINISHED:
        raise StateConflict(_("The tournament is not finished."))
    tournament.status = (Tournament.Status.RUNNING if tournament.rounds.exists()
                         else Tournament.Status.DRAFT)
    tournament.save(update_fields=["status"])  # its signal bumps the answers' versions
    return tournament
