"""Guests of a club's tournaments stay guests: no membership unless the director takes
them in; a returning guest is found again; the evening's tick list offers members and the
guests who came."""

import pytest

from clublife.services.evenings import club_evening_create
from clubs.models import Player
from tests.clublife.helpers import day
from tests.factories import PlayerFactory
from tournaments.services.entries import participant_add, participants_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client, director):
    client.force_login(director)
    return client


def test_names_registered_at_the_desk_are_guests(console, club, tournament):
    member = PlayerFactory(club=club, name="Anna Schmidt", member_number="1")
    resp = console.post(f"/console/t/{tournament.pk}/register/",
                        {"names": "anna  schmidt\nGast Eins\nGast Zwei"})
    assert resp.status_code == 302
    assert set(tournament.participants.values_list("player__name", flat=True)) == {
        "Anna Schmidt", "Gast Eins", "Gast Zwei"}
    assert tournament.participants.filter(player=member).exists()
    assert list(club.players.all()) == [member]
    assert Player.objects.filter(club=None).count() == 2


def test_the_director_adds_new_names_as_members(console, club, tournament):
    page = console.get(f"/console/t/{tournament.pk}/").content.decode()
    assert 'name="as_members"' in page
    resp = console.post(f"/console/t/{tournament.pk}/register/",
                        {"names": "Neu Eins\nNeu Zwei", "as_members": "on"})
    assert resp.status_code == 302
    assert sorted(club.players.values_list("name", flat=True)) == ["Neu Eins", "Neu Zwei"]


def test_a_returning_guest_is_found_again(club, tournament, director):
    participants_register(tournament=tournament, names=["Gast Eins"], by=director)
    evening = club_evening_create(club=club, date=day(1), player_ids=[],
                                  guests=["gast eins", "Gast Drei"], director=director)
    guest = Player.objects.get(name="Gast Eins")
    assert evening.participants.filter(player=guest).exists()
    assert Player.objects.filter(club=None).count() == 2 and not club.players.exists()


def test_registered_already_is_one_decision(club, tournament, director, director_client):
    added, skipped = participants_register(tournament=tournament, names=["Anna", "ANNA"],
                                           by=director)
    assert (added, skipped) == (1, ["ANNA"])
    anna = Player.objects.get(name="Anna")
    assert participants_register(tournament=tournament, names=["Anna"]) == (0, ["Anna"])
    with pytest.raises(Exception, match="registered"):
        participant_add(tournament=tournament, player=anna)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/participants/",
                                {"player": anna.pk}, format="json",
                                HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert "already registered" in str(resp.json())


def test_the_tick_list_shows_members_then_guests_who_came(console, club, tournament,
                                                          director):
    members = [PlayerFactory(club=club, name=n) for n in ("Anna", "Bernd")]
    participants_register(tournament=tournament, names=["Gast Eins"], by=director)
    PlayerFactory(club=None, name="Fremder Gast")  # never played here: not offered
    html = console.get(f"/clubs/{club.slug}/evenings/new/").content.decode()
    assert all(m.name in html for m in members)
    assert "Gäste, die schon da waren" in html and "Gast Eins" in html
    assert "Fremder Gast" not in html
    assert html.index("Bernd") < html.index("Gast Eins")
