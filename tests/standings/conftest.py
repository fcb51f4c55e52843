"""The standings tests see what production sees: a request's changes commit when it ends,
so the standings cache's invalidation (run on commit) has happened before the next
request."""

import pytest


@pytest.fixture(autouse=True)
def _requests_commit(requests_commit):
    yield
