"""Fixtures of the ratings' tests."""

import pytest

from tests.factories import StaffFactory


@pytest.fixture
def boss(db):
    """A superuser who directs the events the tests build."""
    return StaffFactory(is_superuser=True)
