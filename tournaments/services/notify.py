"""After a sheet changes: note it in the standings outbox and have the standings redone.

The outbox row is written in the changing transaction, so a change is never lost: if
the enqueue after commit fails (broker down, no worker), the periodic sweep finds the
pending row and schedules the recompute later.
"""

from django.db import transaction

from tournaments import standings_cache
from tournaments.models import StandingsOutbox


def sheet_changed(tournament_id: int) -> None:
    """Called inside the writing transaction."""
    from tournaments.scheduling import schedule_standings

    StandingsOutbox.objects.create(tournament_id=tournament_id)
    standings_cache.invalidate(tournament_id)  # ``stale`` flips: pollers' snapshots go
    # robust: a failing recompute in process must not fail the committed request
    transaction.on_commit(lambda: schedule_standings(tournament_id), robust=True)
