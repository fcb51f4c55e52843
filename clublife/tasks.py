"""Celery tasks for season rankings, and scheduling them without failing a request.

Scheduling is ``tournaments.recompute.publisher``'s coalescing publisher, as for standings;
whatever could not be published stays in the season outbox for ``sweep_seasons``.
"""

from __future__ import annotations

from celery import shared_task

from clublife.models import Season
from clublife.selectors import seasons_with_pending_changes
from clublife.services.season_rows import season_recompute
from tournaments.recompute.publisher import CoalescedRecompute


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_season(season_id: int) -> None:
    SEASONS.run(season_id, lambda: season_recompute(season_id=season_id), Season.DoesNotExist)


@shared_task(ignore_result=True)
def sweep_seasons() -> int:
    """Publish a recompute for every season with changes not yet in its ranking."""
    return sum(SEASONS.publish(sid) for sid in seasons_with_pending_changes())


SEASONS = CoalescedRecompute("season", recompute_season)
schedule_season = SEASONS.schedule
