"""A club's members as a director handles them: a list to search, rename and export; a
merge picked by name with a summary and an explicit confirmation; an import that flags
names already in the club and asks."""

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from clublife.models import SeasonOutbox
from clubs.models import Player
from tests.clublife.helpers import day, play_evening
from tests.factories import PlayerFactory
from tournaments.models import Participant, StandingsOutbox

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def outsider_browser(outsider):
    client = Client()
    client.force_login(outsider)
    return client


def test_member_list_searches_renames_with_history_and_exports(browser, club, director):
    karin = PlayerFactory(club=club, name="Karin Schwarz", member_number="12")
    PlayerFactory(club=club, name="Otto Weiß", member_number="13")
    url = f"/clubs/{club.slug}/member-list/"
    page = browser.get(url + "?q=schwarz").content.decode()
    assert "Karin Schwarz" in page and "Otto Weiß" not in page
    assert "Otto Weiß" in browser.get(url + "?q=13").content.decode()
    resp = browser.post(url, {"player": karin.pk, "name": "  Karin   Schwarz-Roth "})
    assert resp.status_code == 302
    karin.refresh_from_db()
    assert karin.name == "Karin Schwarz-Roth"
    entry = LogEntry.objects.get(object_id=str(karin.pk))
    assert "Karin Schwarz → Karin Schwarz-Roth" in entry.change_message
    bad = browser.post(url, {"player": karin.pk, "name": "   "})
    assert bad.status_code == 400 and "Geben Sie einen Namen ein." in bad.content.decode()
    karin.refresh_from_db()
    assert karin.name == "Karin Schwarz-Roth"
    csv = browser.get(f"/clubs/{club.slug}/member-list.csv")
    text = csv.content.decode("utf-8-sig")
    assert csv["Content-Type"].startswith("text/csv")
    assert text.splitlines()[0] == "Name;Mitgliedsnummer;Turniere"
    assert "Karin Schwarz-Roth;12;0" in text


def test_member_list_is_for_the_clubs_admins(outsider_browser, club):
    assert outsider_browser.get(f"/clubs/{club.slug}/member-list/").status_code in (403, 404)
    assert outsider_browser.get(f"/clubs/{club.slug}/member-list.csv").status_code in (403, 404)


def test_merge_by_name_shows_what_moves_and_needs_a_confirmation(browser, club, director):
    hans = PlayerFactory(club=club, name="Hans Müller", member_number="17")
    others = [PlayerFactory(club=club) for _ in range(2)]
    play_evening(club, director, day(2), {others[0]: 50, others[1]: 50}, {"Hans M.": 60})
    guest = Player.objects.get(name="Hans M.")
    url = f"/clubs/players/{hans.pk}/merge/"
    found = browser.get(url + "?q=hans m").content.decode()
    assert f'data-player="{guest.pk}"' in found and f"?remove={guest.pk}" in found
    summary = browser.get(url + f"?remove={guest.pk}").content.decode()
    assert "1 Turnier mit seinen Ergebnissen" in summary
    assert "Hans M. in Hans Müller zusammenführen" in summary
    refused = browser.post(url, {"remove": guest.pk})          # no confirmation
    assert refused.status_code == 400
    assert Player.objects.filter(pk=guest.pk).exists()
    done = browser.post(url, {"remove": guest.pk, "confirm": "on"})
    assert done.status_code == 302
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert Participant.objects.filter(player=hans).count() == 1


@pytest.mark.parametrize("pasted", ["Karin Schwarz", "karin  schwarz", "Schwarz, Karin;",
                                    "Karin Schwarz;44"])
def test_import_flags_a_name_already_in_the_club_and_asks(browser, club, pasted):
    karin = PlayerFactory(club=club, name="Karin Schwarz",
                          member_number="" if pasted.endswith("44") else "12")
    url = f"/clubs/{club.slug}/members/"
    preview = browser.post(url, {"csv": f"{pasted}\nOtto Weiß;13"}).content.decode()
    assert "Karin Schwarz" in preview and "existiert" in preview
    assert 'name="line-1" value="new"' in preview
    browser.post(url, {"csv": f"{pasted}\nOtto Weiß;13", "confirm": "1", "line-1": "same"})
    assert Player.objects.filter(club=club).count() == 2         # Karin not doubled
    karin.refresh_from_db()
    if pasted.endswith("44"):
        assert karin.member_number == "44"                        # the same person, numbered


def test_import_makes_a_new_member_when_asked(browser, club):
    PlayerFactory(club=club, name="Karin Schwarz", member_number="12")
    url = f"/clubs/{club.slug}/members/"
    browser.post(url, {"csv": "Karin Schwarz", "confirm": "1", "line-1": "new"})
    assert Player.objects.filter(club=club, name="Karin Schwarz").count() == 2


def test_import_shows_a_name_pasted_twice(browser, club):
    url = f"/clubs/{club.slug}/members/"
    page = browser.post(url, {"csv": "Otto Weiß\nAnna Roth\notto weiß"}).content.decode()
    assert "otto weiß erscheint zweimal in der Liste (Zeile 1)." in page
    browser.post(url, {"csv": "Otto Weiß\nAnna Roth\notto weiß", "confirm": "1"})
    assert not Player.objects.filter(club=club).exists()          # nothing while a line is bad


def test_a_rename_through_the_api_is_the_same_service(director_client, club, director):
    """One renaming service: the API keeps the old name in the history and has the
    standings and the season that show it redone, as the member list does."""
    players = [PlayerFactory(club=club, name=n) for n in ("Anna", "Bernd", "Carla")]
    evening = play_evening(club, director, day(1), dict(zip(players, (100, 60, 50),
                                                            strict=True)))
    StandingsOutbox.objects.all().delete()
    resp = director_client.patch(f"/api/v1/players/{players[0].pk}/",
                                 {"name": "  Anna   Berg "}, format="json")
    assert resp.status_code == 200 and resp.json()["name"] == "Anna Berg"
    entry = LogEntry.objects.get(object_id=str(players[0].pk))
    assert "Anna → Anna Berg" in entry.change_message
    assert StandingsOutbox.objects.filter(tournament=evening).exists()
    assert SeasonOutbox.objects.filter(season__club=club).exists()
