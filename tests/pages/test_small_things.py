"""The smaller findings of issue 53 (item 10) on the pages: German dates on the player
page, the landing page names Doppelkopf, a favicon, no "show this page at the door"
once checked in, the Armut only where the house rule plays it, a name too long refused
with a message rather than cut."""

import datetime
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from signup.services.registrations import registration_configure, registration_submit
from tests.pages.test_paper_grid import setup
from tests.ratings.list_helpers import played, players
from tournaments.services import deals_record, participant_update
from tournaments.services.actors import Actor

pytestmark = pytest.mark.django_db


def german(url: str) -> str:
    return Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode()


def test_the_player_page_writes_dates_as_german_does(club):
    anna = players(club, 1, prefix="Anna")
    played(club, anna, [900], date=datetime.date(2026, 12, 20))
    html = german(f"/clubs/players/{anna[0].pk}/")
    assert "20.12.2026" in html and "2026-12-20" not in html


def test_the_landing_page_names_doppelkopf_and_every_page_has_a_favicon():
    html = german("/")
    assert "Skat, Schafkopf, Doppelkopf, Baptistenskat, Basler und La Bâtarde" in html
    assert 'rel="icon" href="/static/favicon.svg"' in html
    assert finders.find("favicon.svg")


def test_the_door_note_goes_once_checked_in(tournament, django_capture_on_commit_callbacks):
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=True)
    me = registration_submit(tournament_id=tournament.pk, name="Anna Berger")
    door = "Bitte zeigen Sie diese Seite am Einlass vor."
    assert door in german(f"/me/{me.personal_token}/")
    with django_capture_on_commit_callbacks(execute=True):  # the page's copy goes
        participant_update(participant=me, checked_in=True)  # at the door
    html = german(f"/me/{me.personal_token}/")
    assert door not in html and "Sie sind eingecheckt." in html


@pytest.mark.parametrize("armut", [False, True])
def test_the_armut_is_offered_only_under_its_house_rule(club, armut):
    client, table = setup(club, "doppelkopf", 4, rules={"armut": armut})
    html = client.get(f"/t/{table.entry_token}/").content.decode()
    assert ('value="armut"' in html) is armut
    assert 'value="normal"' in html


def test_a_name_too_long_is_refused_not_cut(tournament, director):
    desk = Client(HTTP_ACCEPT_LANGUAGE="de")
    desk.force_login(director)
    page = desk.get(f"/console/t/{tournament.pk}/").content.decode()
    assert 'maxlength="120"' not in page  # a browser would cut a pasted name silently
    resp = desk.post(f"/console/t/{tournament.pk}/register/", {"name": "A" * 250})
    assert resp.status_code == 400
    assert "höchstens 120 Zeichen" in resp.content.decode()
    assert not tournament.participants.exists()


def test_the_seeger_fabian_sheet_says_which_total_is_which(club):
    client, table = setup(club, "skat", 3, rules={"series_deals_3": 3})
    deals_record(table_id=table.pk, records=[{"declarer": 1, "game": "grand", "matadors": 4,
                                              "won": True}], actor=Actor(by_table=True))
    html = german(f"/t/{table.entry_token}/sheet/")
    top = re.search(r'<tr class="totals-top"[^>]*><th colspan="3">(.*?)</th>', html).group(1)
    full, short = top.split('<span class="label-short">')
    assert re.sub(r"<[^>]+>", "", full) == "Wertung (Seeger-Fabian)"
    assert re.sub(r"<[^>]+>", "", short) == "Wertung"  # a narrow phone's: the note explains
    assert "Unter jedem Spiel: die laufenden Spielpunkte." in html
