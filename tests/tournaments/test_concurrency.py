"""Concurrent writers against the real PostgreSQL: retries and corrections race.

SQLite serialises whole-database writes and is not what production runs, so these run
in the PostgreSQL pass of CI (`.ci/run` sets DATABASE_URL).
"""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import table_client_for
from tournaments.models import Deal, IdempotencyKey, SheetEvent

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

