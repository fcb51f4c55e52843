"""Categories and the club ranking on the public pages: the print list and the CSV
take ``?category=``, the board and the print show the club ranking."""

import csv
import io

import pytest
from django.test import Client

from tests.factories import ClubFactory
from tests.ratings.list_helpers import played, players
from tournaments.models import Participant, Tournament


@pytest.fixture
def event(club):
    other = ClubFactory(name="Bonner Buben")
    people = players(club, 3) + players(other, 2, prefix="Bonner")
    tournament, participants = played(club, people, [900, 800, 700, 750, 100])
    Tournament.objects.filter(pk=tournament.pk).update(categories=["Damen", "Jugend"],
                                                       club_ranking_k=2)
    for p in (participants[1], participants[3]):
        Participant.objects.filter(pk=p.pk).update(categories=["Damen"])
    tournament.refresh_from_db()
    return tournament, participants


def test_the_print_list_of_a_category_ranks_its_members_alone(event):
    tournament, participants = event
    html = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        f"/p/{tournament.slug}/print/", {"category": "Damen"}).content.decode()
    assert "· Damen" in html
    assert "Spieler 2" in html and "Bonner 1" in html
    assert "Spieler 1" not in html and "Spieler 3" not in html
    board = Client().get(f"/p/{tournament.slug}/").content.decode()
    assert "print/?category=Damen" in board and "print/?category=Jugend" in board
    whole = Client().get(f"/p/{tournament.slug}/print/").content.decode()
    assert "?category=Damen" in whole and "Spieler 1" in whole
    # a label the tournament does not have: the whole list (a page reads leniently)
    other = Client().get(f"/p/{tournament.slug}/print/", {"category": "Herren"})
    assert other.status_code == 200 and "Spieler 1" in other.content.decode()


def test_the_csv_of_a_category(event):
    tournament, participants = event
    for url in (f"/clubs/tournaments/{tournament.pk}/standings.csv",
                f"/api/v1/tournaments/{tournament.pk}/standings/csv/?format=csv"):
        resp = Client(HTTP_ACCEPT_LANGUAGE="en").get(url + ("&" if "?" in url else "?")
                                                      + "category=Damen")
        assert resp.status_code == 200, resp.content
        rows = list(csv.reader(io.StringIO(resp.content.decode("utf-8-sig")), delimiter=";"))
        assert [(r[0], r[2]) for r in rows[1:]] == [("1", "Spieler 2"), ("2", "Bonner 1")]
    bad = Client().get(f"/api/v1/tournaments/{tournament.pk}/standings/csv/",
                       {"category": "Herren"})
    assert bad.status_code == 400 and "category" in bad.json()


@pytest.mark.parametrize("language, title", [("de", "Vereinswertung"), ("en", "Club ranking")])
def test_board_and_print_show_the_club_ranking(event, language, title):
    tournament, _participants = event
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for url in (f"/p/{tournament.slug}/", f"/p/{tournament.slug}/print/"):
        html = client.get(url).content.decode()
        assert title in html
        assert "Bonner Buben" in html


def test_no_club_ranking_without_k(event):
    tournament, _participants = event
    Tournament.objects.filter(pk=tournament.pk).update(club_ranking_k=None)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{tournament.slug}/").content.decode()
    assert "Club ranking" not in html


@pytest.fixture
def staff_browser(director):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(director)
    return client


def test_the_console_defines_categories_and_ticks_them(staff_browser, event, director):
    tournament, participants = event
    tournament.directors.add(director)
    page = staff_browser.get(f"/console/t/{tournament.pk}/categories/")
    assert page.status_code == 200 and "Kategorien" in page.content.decode()
    resp = staff_browser.post(f"/console/t/{tournament.pk}/categories/save/", {
        "categories": "Damen\nSenioren\n", "club_ranking_k": "3",
        "one_prize_per_player": "on"})
    assert resp.status_code == 302
    tournament.refresh_from_db()
    assert tournament.categories == ["Damen", "Senioren"]
    assert tournament.club_ranking_k == 3 and tournament.one_prize_per_player
    resp = staff_browser.post(f"/console/t/{tournament.pk}/categories/tick/", {
        f"c{participants[0].pk}": ["Senioren", "Damen"], f"c{participants[1].pk}": []})
    assert resp.status_code == 302
    assert Participant.objects.get(pk=participants[0].pk).categories == ["Damen", "Senioren"]
    assert Participant.objects.get(pk=participants[1].pk).categories == []
    for body, word in (({"categories": "Damen\nDamen", "club_ranking_k": "2"}, "doppelt"),
                       ({"categories": "Damen", "club_ranking_k": "11"}, "10")):
        bad = staff_browser.post(f"/console/t/{tournament.pk}/categories/save/", body)
        assert bad.status_code == 400
        html = bad.content.decode()
        assert word in html and "field-error" in html
    tournament.refresh_from_db()
    assert tournament.club_ranking_k == 3


def test_the_categories_page_is_the_directors(event, outsider):
    tournament, _participants = event
    client = Client()
    client.force_login(outsider)
    assert client.get(f"/console/t/{tournament.pk}/categories/").status_code in (403, 404)
