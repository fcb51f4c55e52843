"""The coalescing publisher: scheduling recomputes (tournament standings, season
rankings) so that the request that asked is never failed or slowed.

- Without ``REDIS_URL`` (quick start, tests on the defaults) the recompute runs in
  process right after the commit.
- With a broker, one background thread (``tournaments.publishing``) publishes the task:
  the request returns at once even while Redis is down. A Redis key marks the id as
  queued, so a burst of submissions queues one recompute, not hundreds; the task clears
  the mark when it starts, so a change made during a recompute queues the next one.
- Whatever cannot be published (broker down) stays in its outbox, and the periodic
  sweeps (run by Celery beat) publish it once the broker is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache

from tournaments.publishing import publish_off_thread

log = logging.getLogger(__name__)

QUEUED_TTL = 30  # seconds; a lost task's mark expires so the sweep can publish again
BROKER_BACKOFF = 5  # seconds without publishing attempts after a failure
_broker = {"down_until": 0.0}  # one broker for every kind of recompute


class CoalescedRecompute:
    """Publishes ``task(id)`` at most once while one is queued for that id."""

    def __init__(self, name: str, task, delay: float = 0.0):
        self.name = name
        self.task = task  # the Celery task, called with the id
        # seconds the published task waits before it runs; the queued mark stays the
        # while, so every change of that time joins the one recompute (a debounce)
        self.delay = delay

    def wait(self, obj_id: int) -> float:
        """The seconds a recompute of ``obj_id`` published now waits."""
        return self.delay

    def key(self, obj_id: int) -> str:
        return f"{self.name}:queued:{obj_id}"

    def schedule(self, obj_id: int) -> None:
        """Have it recomputed soon (called after commit)."""
        if settings.CELERY_TASK_ALWAYS_EAGER:
            self.task.delay(obj_id)
            return
        publish_off_thread(self.publish, obj_id)

    def publish(self, obj_id: int) -> bool:
        """Publish one recompute unless one is already queued; False when none was sent."""
        if time.monotonic() < _broker["down_until"]:
            return False
        try:
            if not cache.add(self.key(obj_id), 1, QUEUED_TTL):
                return False
            self.task.apply_async((obj_id,), retry=False,
                                  countdown=self.wait(obj_id) or None)
            return True
        except Exception:  # any broker or cache failure: the sweep publishes it later
            _broker["down_until"] = time.monotonic() + BROKER_BACKOFF
            log.warning("%s recompute of %s not published; the sweep will", self.name, obj_id,
                        exc_info=True)
            return False

    def run(self, obj_id: int, compute: Callable[[], object],
            gone: type[Exception] | tuple[type[Exception], ...] = ()) -> bool:
        """The task's body: the queued mark cleared first (a change made while this runs
        queues the next recompute), then ``compute()``; False when the object is gone
        (``gone``: its ``DoesNotExist``, where it can go) — nothing to do, and no retry."""
        self.forget(obj_id)
        try:
            compute()
        except gone:
            return False
        return True

    def forget(self, obj_id: int) -> None:
        """Clear the queued mark (the task calls this when it starts)."""
        try:
            cache.delete(self.key(obj_id))
        except Exception:  # the mark expires on its own
            log.warning("could not clear the queued mark of %s %s", self.name, obj_id,
                        exc_info=True)
