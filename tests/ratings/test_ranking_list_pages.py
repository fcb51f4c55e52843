"""A ranking list's pages: the public page, its print, its CSV and the club page's link."""

import csv
import datetime
import io

import pytest
from django.test import Client

from ratings.ranking_lists.services import ranking_list_create
from tests.ratings.list_helpers import played, players


@pytest.fixture
def ranking(club):
    a, b, c = players(club, 3)
    b.publication = "initial"
    b.name = "Berta Brenner"
    b.save()
    played(club, [a, b, c], [30, 20, 10], date=datetime.date(2026, 2, 1))
    played(club, [a, b], [5, 50], date=datetime.date(2026, 3, 1))
    return ranking_list_create(club=club, name="Rangliste 2026", game="skat",
                               first=datetime.date(2026, 1, 1),
                               last=datetime.date(2026, 12, 31), best_n=1)


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_page_and_its_print_show_the_list_as_the_players_chose(ranking, club, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for url in (f"/rankings/{ranking.pk}/", f"/rankings/{ranking.pk}/print/"):
        resp = client.get(url)
        assert resp.status_code == 200
        html = resp.content.decode()
        assert "Rangliste 2026" in html
        assert "Berta B." in html and "Berta Brenner" not in html
        assert ("Punkte" if language == "de" else "Points") in html
    club_page = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert f"/rankings/{ranking.pk}/" in club_page


def test_the_csv_has_one_line_per_player_and_a_column_per_tournament(ranking):
    resp = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/rankings/{ranking.pk}/list.csv")
    assert resp.status_code == 200
    rows = list(csv.reader(io.StringIO(resp.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:5] == ["Rank", "Name", "Points", "Events", "Counted"]
    assert len(rows) == 4 and len(rows[0]) == 7
    # best 1: a placed 1st of 3 (3 points); b 2nd of 3 (2) and 1st of 2 (2): one of
    # them counted, the other marked
    assert rows[1][2] == "3"
    assert rows[2][1] == "Berta B." and rows[2][2] == "2"
    assert sorted(rows[2][5:]) == ["1. / 2", "2. / 2 *"]  # the better place counts


def test_an_unknown_list_is_404(db):
    assert Client().get("/rankings/999999/").status_code == 404


def test_the_page_costs_the_same_queries_for_more_tournaments(
        ranking, club, django_assert_max_num_queries):
    client = Client()
    with django_assert_max_num_queries(12):
        client.get(f"/rankings/{ranking.pk}/")
    for month in range(4, 10):
        played(club, players(club, 4, prefix=f"M{month}"), [4, 3, 2, 1],
               date=datetime.date(2026, month, 1))
    with django_assert_max_num_queries(12):
        assert client.get(f"/rankings/{ranking.pk}/").status_code == 200
