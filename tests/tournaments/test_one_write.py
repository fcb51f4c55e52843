"""A deal POST loads its table once and invalidates the standings once (after its
commit): the write context (``SheetWrite``) is loaded by the one locked load — by the
token's authentication, or by the table endpoint for staff — and shared by the
idempotency check, the service's checks, the scoring and the re-totalling.

Counted for real: the SELECTs on ``tournaments_table`` the request runs, the on-commit
invalidations it leaves and, on PostgreSQL + Redis (the ``services`` pass), the messages
a real subscription to the standings' invalidation channel receives."""

import threading
import time

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.recompute import connection as standings_redis
from tournaments.recompute import invalidations, snapshots

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}


def post_deal(client, table, number=1, **headers):
    return client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **WIN},
                       format="json", **headers)


def table_selects(queries) -> list[str]:
    return [q["sql"] for q in queries
            if q["sql"].lstrip().upper().startswith("SELECT")
            and 'FROM "tournaments_table"' in q["sql"]]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["table_client", "director_client"])
@pytest.mark.parametrize("key", [None, "k-1"])
def test_a_deal_post_loads_its_table_once(request, table, who, key):
    client = request.getfixturevalue(who)
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with CaptureQueriesContext(connection) as queries:
        resp = post_deal(client, table, **headers)
    assert resp.status_code == 201, resp.content
    loads = table_selects(queries.captured_queries)
    assert len(loads) == 1, loads
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in loads[0]  # the one load is the row lock


@pytest.mark.django_db
def test_a_refused_deal_loads_its_table_once_too(table_client, table):
    post_deal(table_client, table)
    with CaptureQueriesContext(connection) as queries:
        assert post_deal(table_client, table).status_code == 409  # entered already
    assert len(table_selects(queries.captured_queries)) == 1


@pytest.mark.django_db
def test_a_deal_post_invalidates_the_standings_once_after_its_commit(
        table_client, table, django_capture_on_commit_callbacks):
    before = snapshots.invalidation_count()
    with django_capture_on_commit_callbacks() as callbacks:
        assert post_deal(table_client, table).status_code == 201
        assert snapshots.invalidation_count() == before  # nothing before the commit
    invalidating = [c for c in callbacks
                    if getattr(c, "func", None) is snapshots.invalidate_now]
    assert len(invalidating) == 1
    for callback in invalidating:  # the commit
        callback()
    assert snapshots.invalidation_count() == before + 1


@pytest.mark.services
@pytest.mark.skipif(not settings.REDIS_URL, reason="publish/subscribe needs Redis "
                    "(the PostgreSQL + Redis pass of .ci/run)")
@pytest.mark.django_db(transaction=True)
def test_a_committed_deal_post_publishes_one_invalidation(table_client, table):
    tournament_id = None
    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    pubsub.subscribe(standings_redis.key(invalidations.CHANNEL))
    assert pubsub.get_message(timeout=2)["type"] == "subscribe"
    heard: list[bytes] = []
    stop = threading.Event()

    def listen():
        while not stop.is_set():
            message = pubsub.get_message(timeout=0.1)
            if message and message["type"] == "message":
                heard.append(message["data"])

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    try:
        from tournaments.models import Table

        tournament_id = Table.objects.select_related("round").get(
            pk=table["id"]).round.tournament_id
        before = snapshots.invalidation_count()
        assert post_deal(table_client, table).status_code == 201  # committed
        time.sleep(0.5)  # publishes reach the subscriber in well under a millisecond
    finally:
        stop.set()
        listener.join()
        pubsub.close()
    # one message: that tournament's sheets and that table (``invalidation_message``)
    assert heard.count(f"{tournament_id}:{table['id']}".encode()) == 1, heard
    # (no other message of this tournament; others' may share a Redis's channels)
    assert [m for m in heard if m.split(b":")[0] == str(tournament_id).encode()] == [
        f"{tournament_id}:{table['id']}".encode()], heard
    assert snapshots.invalidation_count() == before + 1
