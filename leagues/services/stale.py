"""Marking a division's table stale: an outbox row now, a recompute after the commit."""

from django.db import transaction

from leagues.models import LeagueOutbox
from leagues.tasks import schedule_division


def division_mark_stale(division_id: int) -> None:
    """Note a change of the division's table and have it recomputed (inside the writing
    transaction; the recompute runs after the commit, a broker outage leaves the row for
    the sweep)."""
    LeagueOutbox.objects.create(division_id=division_id)
    transaction.on_commit(lambda: schedule_division(division_id), robust=True)
