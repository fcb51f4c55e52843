"""Pages cost the same number of queries at 2 tables as at 24, and a player's board page
the same at 1 round as at 5: no page runs a query per table, seat, deal or round."""

import pytest

from tests.scale import cost_while_growing, costs, queries_of, skat_tournament, two_sizes
from tournaments.models import Participant, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_browser(client, director):
    client.force_login(director)
    return client


TOURNAMENT_PAGES = {
    "console tournament": ("staff_browser", lambda t: f"/console/t/{t.pk}/"),
    "table cards": ("staff_browser", lambda t: f"/console/t/{t.pk}/rounds/2/cards/"),
    "paper sheets": ("staff_browser", lambda t: f"/console/t/{t.pk}/rounds/2/paper/"),
    "player cards": ("staff_browser", lambda t: f"/console/t/{t.pk}/player-cards/"),
    "public board": ("client", lambda t: f"/p/{t.slug}/"),
    "board of round 1": ("client", lambda t: f"/p/{t.slug}/?round=1"),
    "board standings part": ("client", lambda t: f"/p/{t.slug}/standings/"),
}


@pytest.mark.parametrize("page", TOURNAMENT_PAGES)
def test_tournament_pages_cost_the_same_at_2_and_24_tables(request, club, director, page):
    client_name, url_of = TOURNAMENT_PAGES[page]
    client = request.getfixturevalue(client_name)
    worlds = two_sizes(club=club, director=director, rounds=2, deals=2)
    assert len(costs(client, url_of, worlds)) == 1


def test_console_home_costs_the_same_with_more_and_larger_tournaments(staff_browser, club,
                                                                       director):
    skat_tournament(club=club, director=director, tables=2)
    assert len(cost_while_growing(staff_browser, "/console/", lambda: skat_tournament(
        club=club, director=director, tables=24, rounds=2))) == 1


def _player_url(tournament) -> str:
    participant = Participant.objects.filter(tournament=tournament).order_by("pk").first()
    return f"/p/{tournament.slug}/player/{participant.pk}/"


def test_players_board_page_costs_the_same_at_1_and_5_rounds(client, club, director):
    one = skat_tournament(club=club, director=director, tables=2, rounds=1, deals=2)
    five = skat_tournament(club=club, director=director, tables=2, rounds=5, deals=2)
    html = client.get(_player_url(five)).content.decode()
    assert html.count('class="list paper-list"') == 5  # one sheet per round
    assert len(costs(client, _player_url, (one, five))) == 1


def test_players_board_page_costs_the_same_at_2_and_24_tables(client, club, director):
    worlds = two_sizes(club=club, director=director, rounds=2)
    assert len(costs(client, _player_url, worlds)) == 1


def test_sheet_pages_cost_the_same_at_2_and_24_tables(client, staff_browser, club, director):
    counts = []
    for tournament in two_sizes(club=club, director=director, deals=3):
        table = Table.objects.filter(round__tournament=tournament).order_by("number").last()
        counts.append((queries_of(client, f"/t/{table.entry_token}/"),
                       queries_of(client, f"/t/{table.entry_token}/sheet/"),
                       queries_of(staff_browser, f"/console/table/{table.pk}/"),
                       queries_of(staff_browser, f"/console/table/{table.pk}/sheet/")))
    assert counts[0] == counts[1]
