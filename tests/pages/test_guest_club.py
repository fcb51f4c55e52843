"""A guest's typed club at sign-up (issue 53, item 1): kept on the participant as
``club_name``, shown in the console's lists, the print, the CSV, the API and the archive;
the guest becomes no member of the host club (nor of any club)."""

import csv
import io

import pytest
from django.test import Client

from archive.export import tournament_export
from clubs.models import Player
from signup.services.registrations import registration_configure
from tests.factories import ClubFactory
from tests.ratings.list_helpers import played, players
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(tournament):
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=False)
    return tournament


def sign_up_on_the_form(tournament, *, club, club_name, name="Gerd Gast"):
    resp = Client(HTTP_ACCEPT_LANGUAGE="de").post(
        f"/p/{tournament.slug}/register/",
        {"name": name, "club": club, "club_name": club_name, "email": "",
         "publication": "full", "website": ""})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    return Participant.objects.select_related("player__club").get(
        tournament=tournament, player__name=name)


@pytest.mark.parametrize("chosen", ["", "host"])
def test_a_typed_club_is_kept_and_makes_no_member(open_event, chosen):
    host = open_event.club
    guest = sign_up_on_the_form(open_event, club=host.pk if chosen else "",
                                club_name="  SC Kreuz Ass   Nachbarstadt ")
    assert guest.player.club is None
    assert guest.club_name == "SC Kreuz Ass Nachbarstadt"
    assert guest.club_label == "SC Kreuz Ass Nachbarstadt"
    assert not Player.objects.filter(club=host, name="Gerd Gast").exists()


def test_a_typed_known_club_is_that_club(open_event):
    other = ClubFactory(name="Skatfreunde Nord")
    member = sign_up_on_the_form(open_event, club="", club_name="skatfreunde nord")
    assert member.player.club == other and member.club_id == other.pk
    assert member.club_name == ""


def test_the_typed_club_shows_in_lists_print_csv_api_and_archive(club, director):
    tournament, people = played(club, [*players(club, 1, prefix="Anna"),
                                       *players(None, 1, prefix="Gerd")], [900, 800])
    Participant.objects.filter(pk=people[1].pk).update(club_name="SV Nachbarort")
    tournament.directors.add(director)
    html = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/p/{tournament.slug}/print/"
                                                 ).content.decode()
    assert "SV Nachbarort" in html
    desk = Client(HTTP_ACCEPT_LANGUAGE="de")
    desk.force_login(director)
    assert "SV Nachbarort" in desk.get(f"/console/t/{tournament.pk}/").content.decode()
    resp = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        f"/api/v1/tournaments/{tournament.pk}/standings/csv/?format=csv")
    rows = list(csv.reader(io.StringIO(resp.content.decode("utf-8-sig")), delimiter=";"))
    assert [r[3] for r in rows[1:]] == [club.name, "SV Nachbarort"]
    api = Client().get(f"/api/v1/tournaments/{tournament.pk}/participants/").json()
    assert [p["club_name"] for p in api] == [club.name, "SV Nachbarort"]
    archive = tournament_export(tournament=tournament)
    assert [p["club_name"] for p in archive["participants"]] == ["", "SV Nachbarort"]
