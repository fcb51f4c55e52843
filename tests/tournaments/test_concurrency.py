"""Concurrent writers against the real PostgreSQL: retries and corrections race.

SQLite serialises whole-database writes and is not what production runs, so these run
in the PostgreSQL pass of CI (`.ci/run` sets DATABASE_URL).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import OperationalError, connection, transaction

from tests.conftest import table_client_for
from tournaments.models import Deal, IdempotencyKey, Round, SheetEvent, Tournament
from tournaments.services import table_lock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="row locks are exercised against PostgreSQL (CI's second pass)"),
]

DEAL = {"number": 1, "declarer": 2, "game": "spades", "matadors": 2, "won": True}


def run_concurrently(count, request):
    """``request(i)`` for i in 0..count-1, all at once; each thread closes its connection."""
    def call(i):
        try:
            return request(i)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(call, range(count)))


def test_fifty_concurrent_retries_with_one_key_store_exactly_one_deal(table):
    url = f"/api/v1/tables/{table['id']}/deals/"

    def post(_):
        resp = table_client_for(table["entry_token"]).post(
            url, DEAL, format="json", HTTP_IDEMPOTENCY_KEY="tablet-42-deal-1")
        return resp.status_code, resp.json()

    answers = run_concurrently(50, post)
    assert {status for status, _ in answers} == {201}
    assert all(body == answers[0][1] for _, body in answers)
    assert Deal.objects.filter(table_id=table["id"]).count() == 1
    assert IdempotencyKey.objects.count() == 1
    assert SheetEvent.objects.filter(action="deal_create").count() == 1


def test_twenty_concurrent_corrections_with_one_etag_let_exactly_one_through(table):
    client = table_client_for(table["entry_token"])
    etag = client.post(f"/api/v1/tables/{table['id']}/deals/", DEAL, format="json")["ETag"]
    url = f"/api/v1/tables/{table['id']}/deals/1/"

    def put(i):
        correction = {**DEAL, "matadors": (i % 10) + 1}
        return table_client_for(table["entry_token"]).put(
            url, correction, format="json", HTTP_IF_MATCH=etag).status_code

    statuses = run_concurrently(20, put)
    assert sorted(statuses) == [200] + [412] * 19
    assert Deal.objects.get(table_id=table["id"]).version == 2
    assert SheetEvent.objects.filter(action="deal_update").count() == 1



def _in_other_connection(work):
    """``work()`` in a thread of its own (its own connection), its result or exception."""
    def call():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '300ms'")
                return work()
        except OperationalError as error:
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def test_the_sheet_writes_of_two_tables_do_not_wait_for_each_other(table, other_table):
    """Every table of a tournament joins the one tournament row: the sheet lock takes it
    (and the round's) for share, so a write at one table never waits for another's."""
    with transaction.atomic():
        held = table_lock(table["id"])
        other = _in_other_connection(lambda: table_lock(other_table["id"]))
    assert held.round_id == other.round_id
    assert other.pk == other_table["id"]


@pytest.mark.parametrize("row", ["round", "tournament"])
def test_a_change_of_the_round_or_tournament_waits_for_a_sheet_write_in_flight(table, row):
    def lock_for_update():
        rnd = Round.objects.get(tables__pk=table["id"])
        model, pk = (Round, rnd.pk) if row == "round" else (Tournament, rnd.tournament_id)
        return model.objects.select_for_update().get(pk=pk)

    with transaction.atomic():
        table_lock(table["id"])
        waited = _in_other_connection(lock_for_update)
    assert isinstance(waited, OperationalError) and "lock timeout" in str(waited)
    assert not isinstance(_in_other_connection(lock_for_update), OperationalError)


def test_a_sheet_write_waits_for_a_round_closing_and_reads_it_closed(table):
    """A write that arrives while the round is being closed waits for the close and
    reads the round as the close left it: never a deal in a closed round."""
    rnd = Round.objects.get(tables__pk=table["id"])
    closing = threading.Event()
    closed = threading.Event()

    def close_round():
        try:
            with transaction.atomic():
                locked = Round.objects.select_for_update().get(pk=rnd.pk)
                locked.closed = True
                locked.save(update_fields=["closed"])
                closing.set()
                closed.wait(5)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        closer = pool.submit(close_round)
        assert closing.wait(5)

        def write():
            try:
                with transaction.atomic():
                    return table_lock(table["id"]).round.closed
            finally:
                connection.close()

        writer = pool.submit(write)
        with pytest.raises(TimeoutError):
            writer.result(timeout=0.3)  # waits for the close
        closed.set()
        closer.result(5)
        assert writer.result(5) is True
