"""Scheduling standings recomputes so that the request that asked is never failed or slowed.

- Without ``REDIS_URL`` (quick start, tests on the defaults) the recompute runs in
  process right after the commit.
- With a broker, a single background thread publishes the task: the request returns at
  once even while Redis is down. A Redis key marks a tournament as queued, so a burst of
  submissions queues one recompute, not hundreds; the task clears the mark when it
  starts, so a change made during a recompute queues the next one.
- Whatever cannot be published (broker down) stays in the standings outbox, and the
  periodic sweep (``sweep_standings``, run by Celery beat) publishes it once the broker
  is back.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

QUEUED_TTL = 30  # seconds; a lost task's mark expires so the sweep can publish again
BROKER_BACKOFF = 5  # seconds without publishing attempts after a failure
_publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="standings-publish")
_broker_down_until = 0.0


def queued_key(tournament_id: int) -> str:
    return f"standings:queued:{tournament_id}"


def schedule_standings(tournament_id: int) -> None:
    """Have the tournament's standings recomputed soon (called after commit)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        from tournaments.tasks import recompute_standings

        recompute_standings.delay(tournament_id)
        return
    _publisher.submit(publish_recompute, tournament_id)


def publish_recompute(tournament_id: int) -> bool:
    """Publish one recompute unless one is already queued; False when it was not sent."""
    global _broker_down_until
    from tournaments.tasks import recompute_standings

    if time.monotonic() < _broker_down_until:
        return False
    try:
        if not cache.add(queued_key(tournament_id), 1, QUEUED_TTL):
            return False
        recompute_standings.apply_async((tournament_id,), retry=False)
        return True
    except Exception:  # any broker or cache failure: the sweep publishes it later
        _broker_down_until = time.monotonic() + BROKER_BACKOFF
        log.warning("standings recompute of tournament %s not published; the sweep will",
                    tournament_id, exc_info=True)
        return False


def forget_queued(tournament_id: int) -> None:
    try:
        cache.delete(queued_key(tournament_id))
    except Exception:  # the mark expires on its own
        log.warning("could not clear the queued mark of tournament %s", tournament_id,
                    exc_info=True)


def wait_for_publisher() -> None:
    """Block until every submitted publish has run (tests and graceful shutdown)."""
    _publisher.submit(lambda: None).result()
