"""Club pages cost the same number of queries at 1 club evening as at 5 (with more
players and more season rows): no page runs a query per evening, row or player."""

import pytest

from tests.clublife.helpers import day
from tests.scale import club_evenings, cost_from_1_to_5_evenings, queries_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CLUB_PAGES = {
    "club list": lambda c, year: "/clubs/",
    "club with its evenings": lambda c, year: f"/clubs/{c.slug}/",
    "season ranking": lambda c, year: f"/clubs/{c.slug}/seasons/{year}/",
    "season table money": lambda c, year: f"/clubs/{c.slug}/seasons/{year}/table-money/",
    "season table money CSV":
        lambda c, year: f"/clubs/{c.slug}/seasons/{year}/table-money/totals.csv",
}


@pytest.fixture
def admin_browser(client, director):
    client.force_login(director)
    return client


@pytest.mark.parametrize("page", CLUB_PAGES)
def test_club_pages_cost_the_same_at_1_and_5_evenings(admin_browser, club, director, page):
    url = CLUB_PAGES[page](club, day(0).year)
    assert len(cost_from_1_to_5_evenings(admin_browser, lambda _members: url, club=club,
                                         director=director)) == 1


def test_player_page_costs_the_same_at_1_and_5_evenings(client, admin_browser, club, director):
    assert len(cost_from_1_to_5_evenings(
        admin_browser, lambda members: f"/clubs/players/{members[0].pk}/", club=club,
        director=director, players=8)) == 1


def test_evening_table_money_costs_the_same_at_2_and_6_tables(admin_browser, club, director):
    counts = []
    for players, start in ((8, 0), (24, 1)):
        club_evenings(club=club, director=director, evenings=1, players=players, start=start)
        evening = Tournament.objects.filter(club=club).order_by("-pk").first()
        counts.append(queries_of(admin_browser, f"/clubs/tournaments/{evening.pk}/table-money/"))
    assert counts[0] == counts[1]
