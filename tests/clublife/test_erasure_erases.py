"""Erasure that erases, and who sees a person's data (issue 52): the erasure deletes the
registrations' e-mail addresses and cancels the person's mails not yet sent; the export
holds the addresses; the directors of a self-registered guest's tournaments may export
and erase the guest; a name published as "number" or "initial" is shown in full only to
the player's club admins and the directors of his tournaments; a seated player cannot
leave a round being played from his phone."""

import pytest
from django.core import mail

from signup.mails import mails_sweep
from signup.models import Mail
from signup.services.registrations import registration_configure
from tests.conftest import player_client, token_client
from tests.factories import ParticipantFactory, PlayerFactory, StaffFactory, TournamentFactory
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mails_in_process(in_process_tasks):
    """The mail tasks run in process (also in CI's Redis pass)."""


@pytest.fixture
def open_event(tournament, director):
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=False)
    return tournament


def sign_up(client, tournament, **body) -> Participant:
    resp = client.post(f"/api/v1/tournaments/{tournament.pk}/registrations/", body,
                       format="json")
    assert resp.status_code == 201, resp.content
    return Participant.objects.get(tournament=tournament, player__name=body["name"])


def test_erasure_deletes_the_address_everywhere_and_cancels_the_queued_mails(
        open_event, anon_client, director_client, django_capture_on_commit_callbacks):
    # the confirmation is queued, its send left for later (the broker was down)
    with django_capture_on_commit_callbacks(execute=False):
        guest = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    assert Mail.objects.get().status == "pending"
    resp = director_client.post(f"/api/v1/players/{guest.player_id}/erase/")
    assert resp.status_code == 200, resp.content
    rows = director_client.get(f"/api/v1/tournaments/{open_event.pk}/registrations/").json()
    assert "anna@example.org" not in str(rows)
    assert Participant.objects.get(pk=guest.pk).email == ""
    assert list(Mail.objects.values_list("status", "to")) == [("cancelled", "")]
    assert mails_sweep() == 0
    assert mail.outbox == []


def test_the_export_holds_the_registrations_e_mail_and_mails(
        open_event, anon_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        guest = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    admin = token_client(StaffFactory(username="root", is_superuser=True))
    data = admin.get(f"/api/v1/players/{guest.player_id}/export/").json()
    [participation] = data["participations"]
    assert participation["registration"]["email"] == "anna@example.org"
    assert [(m["kind"], m["to"], m["status"]) for m in data["mails"]] == [
        ("registered", "anna@example.org", "sent")]


def test_a_guest_s_data_is_for_the_directors_of_the_tournaments_they_signed_up_for(
        open_event, anon_client, director_client, outsider_client, client, director):
    guest = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    assert guest.player.club is None
    other = StaffFactory(username="other-director")
    TournamentFactory(club=None).directors.add(other)
    for caller, expected in [(director_client, 200), (outsider_client, 403),
                             (token_client(other), 403)]:
        assert caller.get(f"/api/v1/players/{guest.player_id}/export/").status_code == expected
    client.force_login(director)
    page = client.get(f"/clubs/players/{guest.player_id}/")
    assert f"/clubs/players/{guest.player_id}/erase/" in page.content.decode()
    assert client.get(f"/clubs/players/{guest.player_id}/data.json").status_code == 200
    assert token_client(other).post(
        f"/api/v1/players/{guest.player_id}/erase/").status_code == 403
    assert director_client.post(f"/api/v1/players/{guest.player_id}/erase/").status_code == 200


@pytest.mark.parametrize("publication, shown", [("number", "Spieler/in"),
                                                  ("initial", "Berta K.")])
def test_a_withheld_name_is_full_only_for_club_admins_and_directors(
        publication, shown, tournament, club, director_client, outsider_client, client,
        outsider):
    player = PlayerFactory(name="Berta Kunz", club=club, publication=publication)
    ParticipantFactory(tournament=tournament, player=player)
    stranger = PlayerFactory(name="Carl Lenz", club=None, publication=publication)
    for caller in (director_client,):  # the club's admin, the tournament's director
        assert caller.get(f"/api/v1/players/{player.pk}/").json()["name"] == "Berta Kunz"
    one = outsider_client.get(f"/api/v1/players/{player.pk}/",
                              HTTP_ACCEPT_LANGUAGE="de").json()["name"]
    assert "Kunz" not in one and one.startswith(shown)
    listed = outsider_client.get("/api/v1/players/", {"page_size": 100}).json()
    names = [p["name"] for p in listed.get("results", listed)]
    assert not any("Kunz" in n or "Lenz" in n for n in names)
    listed = director_client.get("/api/v1/players/", {"page_size": 100}).json()
    names = [p["name"] for p in listed.get("results", listed)]
    assert "Berta Kunz" in names and "Carl Lenz" not in names  # not in his tournaments
    assert stranger.pk
    client.force_login(outsider)
    page = client.get(f"/clubs/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Kunz" not in page.content.decode()


def test_a_seated_player_cannot_leave_a_round_being_played(
        open_event, anon_client, director_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        guests = [sign_up(anon_client, open_event, name=name)
                  for name in ("Anna Berger", "Bernd Ott", "Carla Ruf")]
        resp = director_client.post(f"/api/v1/tournaments/{open_event.pk}/rounds/",
                                    {"method": "random", "seed": 1}, format="json")
    assert resp.status_code == 201, resp.content
    resp = player_client(guests[0]).delete("/api/v1/me/registration/",
                                           HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 409
    assert "Turnierleitung" in resp.json()["detail"]
    guest = Participant.objects.get(pk=guests[0].pk)
    assert (guest.status, guest.withdrawn) == ("registered", False)


def test_the_merge_search_finds_no_withheld_name(club, client, tournament, director):
    hidden = PlayerFactory(name="Berta Kunz", club=club, publication="number")
    ParticipantFactory(tournament=tournament, player=hidden)
    creator = StaffFactory(username="creator")
    own = PlayerFactory(name="Berta Kunz-Alt", club=None, created_by=creator)
    client.force_login(creator)
    page = client.get(f"/clubs/players/{own.pk}/merge/", {"q": "Kunz"}).content.decode()
    assert f'data-player="{hidden.pk}"' not in page and "<td>Berta Kunz</td>" not in page
    assert f'data-player="{own.pk}"' not in page  # never itself
    client.force_login(director)  # the club's admin and her tournament's director
    mine = PlayerFactory(name="Berta K.", club=club)
    page = client.get(f"/clubs/players/{mine.pk}/merge/", {"q": "Kunz"}).content.decode()
    assert f'data-player="{hidden.pk}"' in page
