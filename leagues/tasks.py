"""Celery tasks of the league tables: thin wrappers that take an id and call a service.

Scheduling is ``tournaments.recompute.publisher``'s coalescing publisher, as for the
standings; whatever could not be published stays in the league outbox for
``sweep_leagues``. Both tasks are idempotent and safe to run twice.
"""

from __future__ import annotations

from celery import shared_task

from leagues.models import Division, LeagueOutbox
from leagues.services.table_rows import division_recompute
from tournaments.recompute.publisher import CoalescedRecompute


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_division(division_id: int) -> None:
    DIVISIONS.run(division_id, lambda: division_recompute(division_id=division_id),
                  Division.DoesNotExist)


@shared_task(ignore_result=True)
def sweep_leagues() -> int:
    """Publish a recompute for every division with changes not yet in its table."""
    pending = LeagueOutbox.objects.values_list("division_id", flat=True).distinct()
    return sum(DIVISIONS.publish(did) for did in sorted(set(pending)))


DIVISIONS = CoalescedRecompute("league", recompute_division)
schedule_division = DIVISIONS.schedule
