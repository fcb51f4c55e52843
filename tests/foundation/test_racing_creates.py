"""Twenty identical requests at once against the real PostgreSQL: a unique value that
they race for answers what one request alone would get, never a 500.

Names of tournaments, clubs and club evenings are not unique, their slugs are: every
request creates its object (``name``, ``name-2``, …). A member number, a player's entry
in a tournament and a team's name are unique: one request creates, the others get the
400 naming the field (the console's form skips the name, as it does for one that is
registered already). A ``threading.Barrier`` lets the requests go at the same moment.

SQLite serialises whole-database writes, so these run in the PostgreSQL pass of CI;
``tests/foundation/test_unique_values.py`` covers the same answers one at a time.
"""

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from clublife.models import Season
from clubs.models import Club, Player
from tests.conftest import token_client
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Participant, Team, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="races for unique values need concurrent writers (PostgreSQL)"),
]

N = 20


def race(make_client, send):
    """``send(client, i)`` from N threads released together by a barrier; each thread has
    its own client (made beforehand) and closes its own connection. The answers, in order."""
    clients = [make_client() for _ in range(N)]
    barrier = threading.Barrier(N)

    def call(i):
        try:
            barrier.wait(timeout=30)
            return send(clients[i], i)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=N) as pool:
        return list(pool.map(call, range(N)))


def assert_one_created_rest_name(answers, field, created=201):
    """One request created; every other one got a 400 naming ``field``."""
    statuses = sorted(resp.status_code for resp in answers)
    assert statuses == [created] + [400] * (N - 1), statuses
    for resp in answers:
        if resp.status_code == 400:
            body = resp.json()
            assert [e["field"] for e in body["errors"]] == [field], body
            assert body[field], body


@pytest.fixture
def api(director):
    return lambda: token_client(director)


@pytest.fixture
def logged_in(director):
    def make():
        client = Client()
        client.force_login(director)
        return client
    return make


def test_twenty_racing_tournament_creates_with_one_name_all_get_a_slug(api):
    answers = race(api, lambda c, i: c.post("/api/v1/tournaments/",
                                            {"name": "Herbstpreis", "game": "skat"},
                                            format="json"))
    assert [r.status_code for r in answers] == [201] * N, [r.content for r in answers]
    slugs = set(Tournament.objects.filter(name="Herbstpreis").values_list("slug", flat=True))
    assert slugs == {"herbstpreis"} | {f"herbstpreis-{n}" for n in range(2, N + 1)}
    assert {r.json()["slug"] for r in answers} == slugs


def test_twenty_racing_club_creates_with_one_name_all_get_a_slug(api):
    answers = race(api, lambda c, i: c.post("/api/v1/clubs/", {"name": "Kreuz Bube"},
                                            format="json"))
    assert [r.status_code for r in answers] == [201] * N, [r.content for r in answers]
    slugs = set(Club.objects.filter(name="Kreuz Bube").values_list("slug", flat=True))
    assert slugs == {"kreuz-bube"} | {f"kreuz-bube-{n}" for n in range(2, N + 1)}


def test_twenty_racing_club_evening_forms_of_one_date_all_create_an_evening(logged_in, club):
    members = [PlayerFactory(club=club) for _ in range(3)]
    form = {"date": "2026-03-05", "game": "skat", "players": [str(m.pk) for m in members],
            "method": "random"}
    answers = race(logged_in, lambda c, i: c.post(f"/clubs/{club.slug}/evenings/new/", form))
    assert [r.status_code for r in answers] == [302] * N, [r.status_code for r in answers]
    evenings = Tournament.objects.filter(club=club, club_evening=True)
    assert evenings.count() == N
    assert {r["Location"] for r in answers} == {f"/console/t/{e.pk}/" for e in evenings}
    assert len(set(evenings.values_list("slug", flat=True))) == N
    assert all(e.participants.count() == 3 and e.rounds.count() == 1 for e in evenings)


def test_twenty_racing_club_evening_posts_of_one_date_all_create_an_evening(api, club):
    members = [PlayerFactory(club=club) for _ in range(3)]
    body = {"date": "2026-03-05", "player_ids": [m.pk for m in members]}
    answers = race(api, lambda c, i: c.post(f"/api/v1/clubs/{club.pk}/evenings/", body,
                                            format="json"))
    assert [r.status_code for r in answers] == [201] * N, [r.content for r in answers]
    assert Tournament.objects.filter(club=club, date=datetime.date(2026, 3, 5)).count() == N


def test_twenty_racing_api_registrations_of_one_player_make_one_entry(api, tournament, club):
    player = PlayerFactory(club=club)
    url = f"/api/v1/tournaments/{tournament.pk}/participants/"
    answers = race(api, lambda c, i: c.post(url, {"player": player.pk}, format="json"))
    assert_one_created_rest_name(answers, "player")
    assert Participant.objects.filter(tournament=tournament, player=player).count() == 1


def test_twenty_racing_console_registrations_of_one_name_make_one_entry(logged_in, tournament,
                                                                       club):
    player = PlayerFactory(club=club, name="Anna Acht")
    url = f"/console/t/{tournament.pk}/register/"
    answers = race(logged_in, lambda c, i: c.post(url, {"name": "Anna Acht"}))
    assert [r.status_code for r in answers] == [302] * N, [r.status_code for r in answers]
    assert Participant.objects.filter(tournament=tournament, player=player).count() == 1
    assert Player.objects.filter(name="Anna Acht").count() == 1


def test_twenty_racing_player_creates_with_one_member_number_make_one_player(api, club):
    body = {"name": "Bernd Neun", "club": club.pk, "member_number": "0815"}
    answers = race(api, lambda c, i: c.post("/api/v1/players/", body, format="json"))
    assert_one_created_rest_name(answers, "member_number")
    assert Player.objects.filter(club=club, member_number="0815").count() == 1


def test_twenty_racing_player_changes_to_one_member_number_give_it_once(api, club):
    players = [PlayerFactory(club=club) for _ in range(N)]
    answers = race(api, lambda c, i: c.patch(f"/api/v1/players/{players[i].pk}/",
                                             {"member_number": "4711"}, format="json"))
    assert_one_created_rest_name(answers, "member_number", created=200)
    assert Player.objects.filter(club=club, member_number="4711").count() == 1


def test_twenty_racing_team_creates_with_one_name_make_one_team(api, tournament):
    url = f"/api/v1/tournaments/{tournament.pk}/teams/"
    answers = race(api, lambda c, i: c.post(url, {"name": "Die Buben"}, format="json"))
    assert_one_created_rest_name(answers, "name")
    assert Team.objects.filter(tournament=tournament).count() == 1


def test_twenty_racing_team_renames_to_one_name_give_it_once(api, tournament):
    teams = [Team.objects.create(tournament=tournament, name=f"Team {i}") for i in range(N)]
    answers = race(api, lambda c, i: c.patch(
        f"/api/v1/tournaments/{tournament.pk}/teams/{teams[i].pk}/", {"name": "Die Damen"},
        format="json"))
    assert_one_created_rest_name(answers, "name", created=200)
    assert Team.objects.filter(tournament=tournament, name="Die Damen").count() == 1


def test_twenty_racing_season_settings_of_a_new_season_make_one_season(api, club):
    answers = race(api, lambda c, i: c.put(f"/api/v1/clubs/{club.pk}/seasons/2026/",
                                           {"best_n": 10, "min_evenings": 2}, format="json"))
    assert [r.status_code for r in answers] == [200] * N, [r.content for r in answers]
    assert Season.objects.filter(club=club, year=2026).count() == 1


def test_twenty_racing_registrations_of_different_players_all_get_a_start_number(api,
                                                                                tournament,
                                                                                club):
    ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club), start_number=1)
    players = [PlayerFactory(club=club) for _ in range(N)]
    url = f"/api/v1/tournaments/{tournament.pk}/participants/"
    answers = race(api, lambda c, i: c.post(url, {"player": players[i].pk}, format="json"))
    assert [r.status_code for r in answers] == [201] * N
    numbers = sorted(tournament.participants.values_list("start_number", flat=True))
    assert numbers == list(range(1, N + 2))
