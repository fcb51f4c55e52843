"""Celery tasks for season rankings, and scheduling them without failing a request.

Loaded by Celery through ``tournaments.tasks`` (autodiscovery finds ``tasks`` modules
only). Scheduling mirrors ``tournaments.scheduling`` for standings: in process after the
commit without a broker; with one, a background thread publishes the task, a cache key
coalesces a burst of changes into one queued recompute, and whatever could not be
published stays in the season outbox for ``sweep_seasons``.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from clubs.models import Season
from tournaments.services.seasons import season_recompute, seasons_with_pending_changes

log = logging.getLogger(__name__)

QUEUED_TTL = 30  # seconds; a lost task's mark expires so the sweep can publish again
BROKER_BACKOFF = 5
_publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="season-publish")
_broker_down_until = 0.0


def queued_key(season_id: int) -> str:
    return f"season:queued:{season_id}"


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_season(season_id: int) -> None:
    try:
        cache.delete(queued_key(season_id))
    except Exception:  # the mark expires on its own
        log.warning("could not clear the queued mark of season %s", season_id, exc_info=True)
    try:
        season_recompute(season_id=season_id)
    except Season.DoesNotExist:
        return


@shared_task(ignore_result=True)
def sweep_seasons() -> int:
    """Publish a recompute for every season with changes not yet in its ranking."""
    return sum(publish_season(sid) for sid in seasons_with_pending_changes())


def schedule_season(season_id: int) -> None:
    """Have the season recomputed soon (called after commit)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        recompute_season.delay(season_id)
        return
    _publisher.submit(publish_season, season_id)


def publish_season(season_id: int) -> bool:
    """Publish one recompute unless one is already queued; False when none was sent."""
    global _broker_down_until
    if time.monotonic() < _broker_down_until:
        return False
    try:
        if not cache.add(queued_key(season_id), 1, QUEUED_TTL):
            return False
        recompute_season.apply_async((season_id,), retry=False)
        return True
    except Exception:  # broker or cache down: the sweep publishes it later
        _broker_down_until = time.monotonic() + BROKER_BACKOFF
        log.warning("season recompute %s not published; the sweep will", season_id,
                    exc_info=True)
        return False


def wait_for_publisher() -> None:
    """Block until every submitted publish has run (tests)."""
    _publisher.submit(lambda: None).result()
