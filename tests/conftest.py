"""Fixtures every test may use: API clients and the users of permission tests.

- director: staff who runs the club and directs the tournament;
- outsider: staff who runs neither;
- anonymous: nobody logged in.
(The table — a client with a table's entry token — joins them with the tables.)
"""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import ClubFactory, StaffFactory, TournamentFactory


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club)


@pytest.fixture
def director(club, tournament):
    user = StaffFactory(username="director")
    club.admins.add(user)
    tournament.directors.add(user)
    return user


@pytest.fixture
def outsider(db):
    return StaffFactory(username="outsider")


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anon_client():
    return APIClient()


@pytest.fixture
def director_client(director):
    return token_client(director)


@pytest.fixture
def outsider_client(outsider):
    return token_client(outsider)
