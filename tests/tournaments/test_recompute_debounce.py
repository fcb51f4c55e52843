"""The standings recompute a sheet change publishes waits ``STANDINGS_DEBOUNCE_SECONDS``
(issue 26: a room of tablets costs about one recompute a second, not one per deal), a
larger field longer (up to the board's poll interval: a championship's computation is a
new answer for every phone), and while it waits every further change joins it. Read from
the real broker's queue (the PostgreSQL + Redis pass of .ci/run): the message's
``eta``."""

import datetime
import json

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from config.celery import app as celery_app
from tournaments.models import Participant
from tournaments.recompute.tasks import (
    STANDINGS,
    STANDINGS_DEBOUNCE_SECONDS,
    debounce_for,
    recompute_standings,
)

NO_SUCH_TOURNAMENT = 987_654_321  # the broker tests' messages are their own

needs_broker = pytest.mark.skipif(not settings.REDIS_URL, reason="needs the Redis broker "
                                  "(the PostgreSQL + Redis pass of .ci/run)")


@pytest.mark.parametrize(("players", "seconds"), [
    (0, 1.0), (12, 1.0), (600, 1.0), (900, 1.5), (1200, 2.0), (3000, 5.0), (10_000, 5.0)])
def test_the_wait_grows_with_the_field_up_to_the_boards_poll(players, seconds):
    assert debounce_for(players) == pytest.approx(seconds)


@pytest.mark.django_db
def test_a_recompute_counts_the_field_for_the_next_wait(short_skat):
    cache.delete(f"standings:field:{short_skat.pk}")
    assert STANDINGS.wait(short_skat.pk) == STANDINGS_DEBOUNCE_SECONDS  # none counted yet
    recompute_standings(short_skat.pk)
    players = Participant.objects.filter(tournament=short_skat).count()
    assert players > 0
    assert cache.get(f"standings:field:{short_skat.pk}") == players
    assert STANDINGS.wait(short_skat.pk) == debounce_for(players)


def _ours(broker: redis.Redis, tournament_id: int) -> list[dict]:
    queue = celery_app.conf.task_default_queue  # one queue per test worker
    messages = [json.loads(raw) for raw in broker.lrange(queue, 0, -1)]
    return [m for m in messages
            if m["headers"]["task"] == STANDINGS.task.name
            and m["headers"]["argsrepr"] == f"({tournament_id},)"]


@pytest.mark.services
@needs_broker
@pytest.mark.parametrize("field", [None, 3000])
def test_a_published_recompute_waits_the_debounce_and_later_changes_join_it(field):
    tournament_id = NO_SUCH_TOURNAMENT
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    STANDINGS.forget(tournament_id)
    key = f"standings:field:{tournament_id}"
    if field is None:
        cache.delete(key)
    else:  # as the last recompute of a championship counted it
        cache.set(key, field, 60)
    expected = debounce_for(field or 0)
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
        cache.delete(key)
