"""The publication choice on every anonymous surface: a club evening where Anna Maria
Berger chose "initial" and Hans von der Heide "number". Their full names appear in no
anonymous answer (board, print, player page, standings/rounds/teams/participants API,
CSV, season page and API, profiles), while the director's answers show them; a change of
the choice shows on the next read."""

import pytest

from clublife.models import Season
from clublife.services.privacy import player_publish
from clublife.services.season_rows import season_recompute
from tests.clublife.helpers import day, play_evening
from tests.conftest import token_client
from tests.factories import PlayerFactory
from tournaments.models import Participant
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db

HIDDEN = ("Berger", "Heide")


@pytest.fixture
def people(club):
    return {name: PlayerFactory(club=club, name=name)
            for name in ("Anna Maria Berger", "Hans von der Heide", "Karl Schmidt",
                         "Greta Ulm")}


@pytest.fixture
def evening(club, director, people):
    anna, hans = people["Anna Maria Berger"], people["Hans von der Heide"]
    tournament = play_evening(club, director, day(1),
                              dict(zip(people.values(), [120, 100, 80, 60], strict=True)))
    team_create(tournament_id=tournament.pk, name="Kreuz",
                members=list(Participant.objects.filter(tournament=tournament, player__in=[
                    anna, hans]).values_list("pk", flat=True)))
    player_publish(player=anna, publication="initial")
    player_publish(player=hans, publication="number")
    standings_recompute(tournament_id=tournament.pk)
    season_recompute(season_id=Season.objects.get(club=club, year=2026).pk)
    return tournament


def hans_number(evening):
    return Participant.objects.get(tournament=evening,
                                   player__name="Hans von der Heide").start_number


def anonymous_answers(client, evening, club, people):
    t, slug = evening.pk, evening.slug
    anna = people["Anna Maria Berger"]
    paths = [f"/p/{slug}/", f"/p/{slug}/standings/", f"/p/{slug}/print/",
             *[f"/p/{slug}/player/{p.pk}/" for p in evening.participants.all()],
             f"/api/v1/tournaments/{t}/standings/", f"/api/v1/tournaments/{t}/standings/?round=1",
             f"/api/v1/tournaments/{t}/rounds/", f"/api/v1/tournaments/{t}/rounds/1/",
             f"/api/v1/tournaments/{t}/participants/", f"/api/v1/tournaments/{t}/teams/",
             f"/api/v1/tournaments/{t}/teams/standings/",
             f"/api/v1/tournaments/{t}/standings/csv/?format=csv",
             f"/clubs/tournaments/{t}/standings.csv",
             f"/api/v1/clubs/{club.pk}/seasons/2026/", f"/clubs/{club.slug}/seasons/2026/",
             f"/api/v1/players/{anna.pk}/profile/", f"/clubs/players/{anna.pk}/",
             f"/api/v1/clubs/{club.pk}/evenings/"]
    answers = {}
    for path in paths:
        resp = client.get(path)
        assert resp.status_code == 200, (path, resp.status_code)
        answers[path] = resp.content.decode()
    return answers


def test_no_anonymous_answer_names_a_player_who_chose_otherwise(client, evening, club,
                                                                 people):
    answers = anonymous_answers(client, evening, club, people)
    for path, body in answers.items():
        for hidden in HIDDEN:
            assert hidden not in body, (path, hidden)
    number = hans_number(evening)
    assert "Anna Maria B." in answers[f"/p/{evening.slug}/"]
    assert f"Nr. {number}" in answers[f"/p/{evening.slug}/"]
    assert f"Nr. {number}" in answers[f"/api/v1/tournaments/{evening.pk}/standings/"]
    assert "Anna Maria B." in answers[f"/api/v1/tournaments/{evening.pk}/rounds/"]
    assert "Anna Maria B." in answers[f"/api/v1/tournaments/{evening.pk}/teams/standings/"]
    assert "Anna Maria B." in answers[f"/clubs/tournaments/{evening.pk}/standings.csv"]
    season = answers[f"/api/v1/clubs/{club.pk}/seasons/2026/"]
    hans = people["Hans von der Heide"]
    assert "Anna Maria B." in season and f"Spieler/in {hans.pk}" in season
    # a name others chose to show stays whole
    assert "Karl Schmidt" in answers[f"/p/{evening.slug}/print/"]


def test_the_english_board_says_no(client, evening):
    body = client.get(f"/p/{evening.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"No. {hans_number(evening)}" in body and "Nr." not in body
    # the API's standings are one answer for every poller: in the site's language
    api = client.get(f"/api/v1/tournaments/{evening.pk}/standings/",
                     HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Nr. {hans_number(evening)}" in api


def test_the_director_sees_the_full_names(director, evening, club, people):
    api = token_client(director)
    t = evening.pk
    for path in (f"/api/v1/tournaments/{t}/standings/", f"/api/v1/tournaments/{t}/rounds/",
                 f"/api/v1/tournaments/{t}/participants/", f"/api/v1/tournaments/{t}/teams/",
                 f"/api/v1/tournaments/{t}/teams/standings/",
                 f"/api/v1/clubs/{club.pk}/seasons/2026/",
                 f"/api/v1/players/{people['Hans von der Heide'].pk}/profile/"):
        body = api.get(path).content.decode()
        assert "Hans von der Heide" in body, path


def test_the_directors_answer_is_never_served_to_the_public(director, client, evening):
    path = f"/api/v1/tournaments/{evening.pk}/standings/"
    assert "Heide" in token_client(director).get(path).content.decode()
    assert "Heide" not in client.get(path).content.decode()
    assert "Heide" not in client.get(path).content.decode()  # a second poll: a snapshot


def test_a_changed_choice_shows_on_the_next_read(client, evening, people, requests_commit):
    path = f"/api/v1/tournaments/{evening.pk}/standings/"
    first = client.get(path)
    assert "Karl Schmidt" in first.content.decode()
    player_publish(player=people["Karl Schmidt"], publication="initial")
    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert "Karl S." in again.content.decode() and "Schmidt" not in again.content.decode()
    board = client.get(f"/p/{evening.slug}/").content.decode()
    assert "Karl S." in board and "Schmidt" not in board
