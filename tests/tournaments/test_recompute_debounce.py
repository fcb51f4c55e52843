"""The standings recompute a sheet change publishes waits ``STANDINGS_DEBOUNCE_SECONDS``
(issue 26: a room of tablets costs about one recompute a second, not one per deal), and
while it waits every further change joins it. Read from the real broker's queue (the
PostgreSQL + Redis pass of .ci/run): the message's ``eta``."""

import datetime
import json

import pytest
import redis
from django.conf import settings

from tournaments.recompute.tasks import STANDINGS, STANDINGS_DEBOUNCE_SECONDS

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs the Redis broker (the "
                       "PostgreSQL + Redis pass of .ci/run)"),
]


def _ours(broker: redis.Redis, tournament_id: int) -> list[dict]:
    messages = [json.loads(raw) for raw in broker.lrange("celery", 0, -1)]
    return [m for m in messages
            if m["headers"]["task"] == STANDINGS.task.name
            and m["headers"]["argsrepr"] == f"({tournament_id},)"]


def test_a_published_recompute_waits_the_debounce_and_later_changes_join_it():
    tournament_id = 987_654_321  # no such tournament: the test's message is its own
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    STANDINGS.forget(tournament_id)
    try:
        before = datetime.datetime.now(datetime.UTC)
        assert STANDINGS.publish(tournament_id) is True
        for _ in range(5):  # the deals of the next second: no message of their own
            assert STANDINGS.publish(tournament_id) is False
        ours = _ours(broker, tournament_id)
        assert len(ours) == 1
        eta = datetime.datetime.fromisoformat(ours[0]["headers"]["eta"])
        waits = (eta - before).total_seconds()
        assert STANDINGS_DEBOUNCE_SECONDS - 0.1 <= waits <= STANDINGS_DEBOUNCE_SECONDS + 5
    finally:
        for raw in broker.lrange("celery", 0, -1):
            message = json.loads(raw)
            if message["headers"]["argsrepr"] == f"({tournament_id},)":
                broker.lrem("celery", 0, raw)
        STANDINGS.forget(tournament_id)
