"""The standings outbox: after a sheet changes, note it and have the standings redone.

The outbox row is written in the changing transaction, so a change is never lost: if
the enqueue after commit fails (broker down, no worker), the periodic sweep finds the
pending row and schedules the recompute later.
"""

from django.db import transaction

from tournaments import freshness
from tournaments.models import StandingsOutbox, Tournament
from tournaments.recompute.signals import results_changed
from tournaments.recompute.tasks import schedule_standings


def sheet_changed(tournament_id: int, *, round_number: int | None = None,
                  table_id: int | None = None, table=None, writes=None,
                  appended: bool = False) -> None:
    """Called inside the writing transaction. ``round_number``: the round whose seats or
    sheets changed, so that the recompute may redo only that round; None for a change
    that may touch any round. ``table_id``: the one table whose sheet changed, its
    players unchanged, so that only its seats are read again; ``table``: that table when
    the caller holds it (the floors above read its ``submitted`` without a query);
    ``writes``: the sheet write's ``Writes``, which stores the outbox row with its other
    rows (else it is stored now); ``appended``: the change only added deals at the end of
    the table's sheet (``freshness.amended`` holds)."""
    row = StandingsOutbox(tournament_id=tournament_id, round_number=round_number,
                          table_id=table_id)
    if writes is None:
        row.save()
    else:
        writes.insert(row)
    # ``stale`` flips: new versions of the tournament's sheets and the table's (or, with
    # no table named, of the whole tournament) after the commit
    freshness.bump(tournament_id, table_id, appended=appended)
    results_changed.send(sender=Tournament, tournament_id=tournament_id,
                         round_number=round_number,
                         table=table if table is not None and table.pk == table_id else None,
                         table_id=table_id)
    # robust: a failing recompute in process must not fail the committed request
    transaction.on_commit(lambda: schedule_standings(tournament_id), robust=True)
