"""Schemathesis against /api/schema/: generated requests, with a staff token, with a
table token and without credentials, never get a 500 and never an answer that breaks
the published schema.

Each operation of the schema is driven by its own hypothesis strategy inside one
database-backed test (schemathesis' lazy pytest fixtures do not run under pytest 9).
"""

from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application

# A hang guard, not a time limit: each test sends some thousands of requests, and on a
# busy 2-core machine with every xdist worker at work one took longer than the suite's
# 300 s for a single test.
pytestmark = [pytest.mark.fuzz, pytest.mark.timeout(1200)]

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]
EXAMPLES = 20


@contextmanager
def connection_kept():
    """Schemathesis calls the WSGI app directly, so Django's request signals would close
    the connection of the test's transaction (autocommit is off inside it, which
    ``close_old_connections`` takes for a broken connection); Django's own test client
    disconnects them the same way around each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def fuzz_every_operation(authorization: str | None) -> int:
    with connection_kept():
        return _fuzz(authorization)


def _fuzz(authorization: str | None) -> int:
    headers = {"Authorization": authorization} if authorization else {}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case):
            case.call_and_validate(headers=headers, checks=CHECKS)

        run()
    return len(operations)


@pytest.fixture(autouse=True)
def localhost(settings):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]


def test_staff_requests_follow_the_schema_and_never_500(director, drawn):
    token, _ = Token.objects.get_or_create(user=director)
    assert fuzz_every_operation(f"Token {token.key}") >= 20


def test_table_requests_follow_the_schema_and_never_500(drawn):
    assert fuzz_every_operation(f"Table {drawn['tables'][0]['entry_token']}") >= 20


def test_anonymous_requests_follow_the_schema_and_never_500(drawn):
    assert fuzz_every_operation(None) >= 20


def test_player_requests_follow_the_schema_and_never_500(drawn):
    from tournaments.models import Participant

    seated = drawn["tables"][0]["seats"][0]["participant"]
    token = Participant.objects.get(pk=seated).personal_token
    assert fuzz_every_operation(f"Player {token}") >= 20
