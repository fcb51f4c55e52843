"""Celery tasks for season rankings, and scheduling them without failing a request.

Loaded by Celery through ``tournaments.tasks`` (autodiscovery finds ``tasks`` modules
only). Scheduling is ``tournaments.scheduling``'s, as for standings; whatever could not
be published stays in the season outbox for ``sweep_seasons``.
"""

from __future__ import annotations

from celery import shared_task

from clubs.models import Season
from tournaments.scheduling import CoalescedRecompute
from tournaments.services.seasons import season_recompute, seasons_with_pending_changes


def _season_task():
    return recompute_season


SEASONS = CoalescedRecompute("season", _season_task)
schedule_season = SEASONS.schedule
publish_season = SEASONS.publish
queued_key = SEASONS.key


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_season(season_id: int) -> None:
    SEASONS.forget(season_id)
    try:
        season_recompute(season_id=season_id)
    except Season.DoesNotExist:
        return


@shared_task(ignore_result=True)
def sweep_seasons() -> int:
    """Publish a recompute for every season with changes not yet in its ranking."""
    return sum(publish_season(sid) for sid in seasons_with_pending_changes())
