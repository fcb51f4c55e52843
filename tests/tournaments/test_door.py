"""Walk-in mode and the door (api.md "Rounds, corrections and the door"; issue 56): the
door form behind the poster registers and checks in at once and lands on the player's
own page, matches a known player and never creates one twice, takes a second submit
from the same phone harmlessly; bad input at the door gets a German message and stores
nothing; the director's door desk checks in by name with one tap and counts; the
poster prints the form's address as a QR code."""

import re

import pytest

from api.throttling import RegistrationRateThrottle
from tests.factories import PlayerFactory
from tournaments.models import Participant, RegistrationStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mails_in_process(in_process_tasks):
    """Registration mails run in process after the commit."""


@pytest.fixture
def door(tournament, director_client, settings):
    settings.REGISTRATION_RATE = "1000/min"
    tournament.published = True
    tournament.save()
    resp = director_client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"registration": {
        "open": True, "check_in": True, "walk_in": True}}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["registration"]["walk_in"] is True
    # the sign-up limit counts per tournament now: a clean count (its number is reused
    # by other tests' databases)
    RegistrationRateThrottle.forget(f"tournament-{tournament.pk}")
    yield tournament
    RegistrationRateThrottle.forget(f"tournament-{tournament.pk}")


def door_url(tournament) -> str:
    return f"/p/{tournament.slug}/door/"


def walk_in(client, tournament, name, **fields):
    return client.post(door_url(tournament), {"name": name, "publication": "full",
                                              **fields}, HTTP_ACCEPT_LANGUAGE="de")


def test_a_walk_in_is_registered_checked_in_and_lands_on_their_own_page(door, client):
    resp = walk_in(client, door, "Greta Sommer", club=door.club_id)
    assert resp.status_code == 302
    participant = Participant.objects.get(tournament=door, player__name="Greta Sommer")
    assert resp["Location"] == f"/me/{participant.personal_token}/"
    assert participant.checked_in and participant.status == RegistrationStatus.REGISTERED
    assert participant.player.club_id == door.club_id


def test_a_second_submit_from_the_same_phone_is_harmless(door, client):
    first = walk_in(client, door, "Greta Sommer")
    again = walk_in(client, door, "greta  sommer")
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert Participant.objects.filter(tournament=door).count() == 1
    page = client.get(door_url(door), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Mit diesem Telefon wurde Greta Sommer angemeldet." in page


def test_a_known_player_is_matched_never_created_twice(door, client, club):
    member = PlayerFactory(club=club, name="Anna Berg")
    resp = walk_in(client, door, "anna berg", club=club.pk)
    assert resp.status_code == 302
    assert Participant.objects.get(tournament=door).player == member
    # another phone with the same name: a clear message, nothing stored
    from django.test import Client
    other = walk_in(Client(), door, "Anna Berg", club=club.pk)
    assert other.status_code == 400
    assert "bereits" in other.content.decode()
    assert Participant.objects.filter(tournament=door).count() == 1


@pytest.mark.parametrize("name, message", [
    ("", "Dieses Feld ist zwingend erforderlich."),
    ("x" * 500, "höchstens 120 Zeichen"),
])
def test_bad_input_at_the_door_gets_a_german_message_and_stores_nothing(door, client, name,
                                                                        message):
    resp = walk_in(client, door, name)
    assert resp.status_code == 400
    assert message in resp.content.decode()
    assert not Participant.objects.filter(tournament=door).exists()


def test_a_closed_door_and_a_full_tournament_say_so_and_store_nothing(door, client,
                                                                      director_client):
    director_client.patch(f"/api/v1/tournaments/{door.pk}/", {"registration": {
        "walk_in": False}}, format="json")
    resp = walk_in(client, door, "Greta Sommer")
    assert resp.status_code == 409
    assert "Dieses Turnier nimmt keine Anmeldungen an der Tür an." in resp.content.decode()
    director_client.patch(f"/api/v1/tournaments/{door.pk}/", {"registration": {
        "walk_in": True, "cap": 1}}, format="json")
    assert walk_in(client, door, "Greta Sommer").status_code == 302
    from django.test import Client
    full = walk_in(Client(), door, "Hans Winter")
    assert full.status_code == 409 and "Alle Plätze sind vergeben." in full.content.decode()
    assert Participant.objects.filter(tournament=door).count() == 1


def _scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]* src="([^"]+)"', html)


def test_a_phone_at_the_door_loads_only_the_scripts_the_door_uses(door, client):
    """The door form posts itself and the own page polls with fetch: neither loads htmx,
    50 KB each phone at the door would download and compile for nothing."""
    form = client.get(door_url(door), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    own = client.get(walk_in(client, door, "Greta Sommer")["Location"],
                     HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert _scripts(form) == ["/static/js/page.js"]
    assert _scripts(own) == ["/static/js/page.js", "/static/js/me.js", "/static/js/clock.js"]
    assert "hx-" not in form + own


def test_the_api_checks_in_a_sign_up_at_the_door_only(door, anon_client):
    url = f"/api/v1/tournaments/{door.pk}/registrations/"
    at_door = anon_client.post(url, {"name": "Greta Sommer", "at_door": True}, format="json")
    online = anon_client.post(url, {"name": "Hans Winter"}, format="json")
    assert at_door.status_code == online.status_code == 201
    checked = dict(Participant.objects.filter(tournament=door)
                   .values_list("player__name", "checked_in"))
    assert checked == {"Greta Sommer": True, "Hans Winter": False}


def test_in_walk_in_mode_the_limit_counts_per_tournament(door, anon_client, settings):
    settings.REGISTRATION_RATE = "2/min"
    url = f"/api/v1/tournaments/{door.pk}/registrations/"
    codes = [anon_client.post(url, {"name": f"Gast {n}", "at_door": True}, format="json",
                              REMOTE_ADDR=f"10.1.1.{n}").status_code for n in range(3)]
    assert codes == [201, 201, 429]


# ----------------------------------------------------------------- the director's side


@pytest.fixture
def desk(door, client, director):
    client.force_login(director)
    return client


def test_the_desk_checks_in_by_name_and_counts(door, desk, club):
    PlayerFactory(club=club, name="Karl Heinz Brandt")
    expected = Participant.objects.create(tournament=door, player=PlayerFactory(
        club=club, name="Rita Ost"), start_number=1, checked_in=False)
    page = desk.get(f"/console/t/{door.pk}/door/", HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert '<option value="Karl Heinz Brandt">' in html  # a member suggested
    assert 'id="door-expected">1<' in html and 'id="door-missing">1<' in html
    url = f"/console/t/{door.pk}/door/check-in/"
    desk.post(url, {"name": "rita ost"})
    expected.refresh_from_db()
    assert expected.checked_in
    desk.post(url, {"name": "Karl Heinz Brandt"})
    desk.post(url, {"name": "Karl  Heinz Brandt"})  # twice: no second participant
    added = Participant.objects.get(tournament=door, player__name="Karl Heinz Brandt")
    assert added.checked_in and added.player.club_id == club.pk
    html = desk.get(f"/console/t/{door.pk}/door/").content.decode()
    assert 'id="door-checked">2<' in html and 'id="door-missing">0<' in html


def test_the_desk_checks_in_a_missing_player_with_one_tap(door, desk, club):
    missing = Participant.objects.create(tournament=door, player=PlayerFactory(club=club),
                                         start_number=1, checked_in=False)
    desk.post(f"/console/t/{door.pk}/door/check-in/", {"participant": str(missing.pk)})
    missing.refresh_from_db()
    assert missing.checked_in


def test_a_blank_name_at_the_desk_is_named_and_stores_nothing(door, desk):
    resp = desk.post(f"/console/t/{door.pk}/door/check-in/", {"name": "  "}, follow=True,
                     HTTP_ACCEPT_LANGUAGE="de")
    assert "Name: Der Name darf nicht leer sein." in resp.content.decode()
    assert not Participant.objects.filter(tournament=door).exists()


@pytest.mark.parametrize("size", ["a4", "a3"])
def test_the_poster_prints_the_door_address_as_a_qr_code(door, desk, client, size):
    html = desk.get(f"/console/t/{door.pk}/door-poster/?size={size}").content.decode()
    assert "<svg" in html and f"/p/{door.slug}/door/" in html and f"poster-{size}" in html


def test_only_the_directors_see_the_desk_and_the_poster(door, client, outsider):
    client.force_login(outsider)
    assert client.get(f"/console/t/{door.pk}/door/").status_code == 403
    assert client.get(f"/console/t/{door.pk}/door-poster/").status_code == 403
