"""The standings recompute a sheet change publishes waits ``STANDINGS_DEBOUNCE_SECONDS``
(issue 26: a room of tablets costs about one recompute a second, not one per deal),
whatever the field, and while it waits every further change joins it. Read from the real
broker's queue (the PostgreSQL + Redis pass of .ci/run): the message's ``eta``."""

import datetime
import json

import pytest
import redis
from django.conf import settings

from config.celery import app as celery_app
from tournaments.recompute.tasks import STANDINGS, STANDINGS_DEBOUNCE_SECONDS

NO_SUCH_TOURNAMENT = 987_654_321  # the broker tests' messages are their own

needs_broker = pytest.mark.skipif(not settings.REDIS_URL, reason="needs the Redis broker "
                                  "(the PostgreSQL + Redis pass of .ci/run)")


@pytest.mark.django_db
def test_every_field_waits_the_same_second(short_skat):
    """The field's size no longer lengthens the wait: what a computation renews for the
    phones is shared, so the board is a second behind at a championship too."""
    assert STANDINGS.wait(short_skat.pk) == STANDINGS_DEBOUNCE_SECONDS == 1.0


def _ours(broker: redis.Redis, tournament_id: int) -> list[dict]:
    queue = celery_app.conf.task_default_queue  # one queue per test worker
    messages = [json.loads(raw) for raw in broker.lrange(queue, 0, -1)]
    return [m for m in messages
            if m["headers"]["task"] == STANDINGS.task.name
            and m["headers"]["argsrepr"] == f"({tournament_id},)"]


@pytest.mark.services
@needs_broker
def test_a_published_recompute_waits_the_debounce_and_later_changes_join_it():
    tournament_id = NO_SUCH_TOURNAMENT
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    STANDINGS.forget(tournament_id)
    expected = STANDINGS_DEBOUNCE_SECONDS
    try:
        before = datetime.datetime.now(datetime.UTC)
        assert STANDINGS.publish(tournament_id) is True
        for _ in range(5):  # the deals of the next second: no message of their own
            assert STANDINGS.publish(tournament_id) is False
        ours = _ours(broker, tournament_id)
        assert len(ours) == 1
        eta = datetime.datetime.fromisoformat(ours[0]["headers"]["eta"])
        waits = (eta - before).total_seconds()
        assert expected - 0.1 <= waits <= expected + 1
    finally:
        for raw in broker.lrange(celery_app.conf.task_default_queue, 0, -1):
            message = json.loads(raw)
            if message["headers"]["argsrepr"] == f"({tournament_id},)":
                broker.lrem(celery_app.conf.task_default_queue, 0, raw)
        STANDINGS.forget(tournament_id)
