"""API reads cost the same number of queries at 2 tables as at 24 (and at 1 round as at
5, 1 club evening as at 5): no list runs a query per row, table, seat or round."""

import pytest

from tests.scale import (
    club_evenings,
    cost_from_1_to_5_evenings,
    cost_while_growing,
    costs,
    queries_of,
    skat_tournament,
    two_sizes,
)
from tournaments.models import Participant, Table

pytestmark = pytest.mark.django_db

TOURNAMENT_READS = {
    "rounds list": lambda t: f"/api/v1/tournaments/{t.pk}/rounds/",
    "round detail": lambda t: f"/api/v1/tournaments/{t.pk}/rounds/1/",
    "tournament": lambda t: f"/api/v1/tournaments/{t.pk}/",
    "participants": lambda t: f"/api/v1/tournaments/{t.pk}/participants/",
    "standings": lambda t: f"/api/v1/tournaments/{t.pk}/standings/",
    "standings of round 1": lambda t: f"/api/v1/tournaments/{t.pk}/standings/?round=1",
    "standings CSV": lambda t: f"/api/v1/tournaments/{t.pk}/standings/csv/",
    "table money": lambda t: f"/api/v1/tournaments/{t.pk}/table-money/",
}


@pytest.mark.parametrize("read", TOURNAMENT_READS)
def test_tournament_reads_cost_the_same_at_2_and_24_tables(director_client, club, director,
                                                           read):
    worlds = two_sizes(club=club, director=director, rounds=2)
    assert len(costs(director_client, TOURNAMENT_READS[read], worlds)) == 1


def test_rounds_list_costs_the_same_at_1_and_5_rounds(anon_client, club, director):
    one = skat_tournament(club=club, director=director, tables=2, rounds=1)
    five = skat_tournament(club=club, director=director, tables=2, rounds=5)
    url = "/api/v1/tournaments/{}/rounds/"
    assert len(anon_client.get(url.format(five.pk)).json()) == 5
    assert len(costs(anon_client, lambda t: url.format(t.pk), (one, five))) == 1


TABLE_READS = {
    "table": lambda t: f"/api/v1/tables/{t.pk}/",
    "deals": lambda t: f"/api/v1/tables/{t.pk}/deals/",
    "history": lambda t: f"/api/v1/tables/{t.pk}/history/",
}


@pytest.mark.parametrize("read", TABLE_READS)
def test_table_reads_cost_the_same_at_2_and_24_tables(director_client, club, director, read):
    counts = []
    for tables, deals in ((2, 1), (24, 4)):
        tournament = skat_tournament(club=club, director=director, tables=tables, deals=deals)
        table = Table.objects.filter(round__tournament=tournament).order_by("number").last()
        counts.append(queries_of(director_client, TABLE_READS[read](table)))
    assert counts[0] == counts[1]


GLOBAL_LISTS = {
    "tournaments (anonymous)": ("anon_client", "/api/v1/tournaments/"),
    "tournaments (staff)": ("director_client", "/api/v1/tournaments/"),
    "players": ("director_client", "/api/v1/players/"),
    "clubs": ("anon_client", "/api/v1/clubs/"),
}


@pytest.mark.parametrize("read", GLOBAL_LISTS)
def test_lists_cost_the_same_with_more_and_larger_tournaments(request, club, director, read):
    client_name, url = GLOBAL_LISTS[read]
    client = request.getfixturevalue(client_name)
    skat_tournament(club=club, director=director, tables=2)

    def grow():
        for _n in range(3):
            skat_tournament(club=club, director=director, tables=8)

    assert len(cost_while_growing(client, url, grow)) == 1


CLUB_READS = {
    "evenings": lambda c, year: f"/api/v1/clubs/{c.pk}/evenings/",
    "season": lambda c, year: f"/api/v1/clubs/{c.pk}/seasons/{year}/",
    "season table money": lambda c, year: f"/api/v1/clubs/{c.pk}/seasons/{year}/table-money/",
    "season table money CSV":
        lambda c, year: f"/api/v1/clubs/{c.pk}/seasons/{year}/table-money/csv/?by=player",
}


@pytest.mark.parametrize("read", CLUB_READS)
def test_club_reads_cost_the_same_at_1_and_5_evenings(director_client, club, director, read):
    from tests.clublife.helpers import day

    url = CLUB_READS[read](club, day(0).year)
    assert len(cost_from_1_to_5_evenings(director_client, lambda _members: url, club=club,
                                         director=director)) == 1


def test_player_profile_costs_the_same_at_1_and_5_evenings(director_client, anon_client, club,
                                                           director):
    members = club_evenings(club=club, director=director, evenings=1, players=8)
    url = f"/api/v1/players/{members[0].pk}/profile/"
    before = (queries_of(director_client, url), queries_of(anon_client, url))
    club_evenings(club=club, director=director, evenings=4, players=8, start=1)
    assert Participant.objects.filter(player=members[0]).count() == 5
    assert (queries_of(director_client, url), queries_of(anon_client, url)) == before
