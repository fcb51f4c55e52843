"""The tournament's planned rounds (api.md ``rounds_planned``) and the table sizes a draw
may seat under the game's rules (games.md §3: one Baptistenskat partie for every table)."""

import itertools

import pytest

from games.engines import get_engine
from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tournaments.models import Table, Tournament
from tournaments.services import round_draw

pytestmark = pytest.mark.django_db


def field(tournament, count):
    for n in range(count):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(), start_number=n + 1,
                           checked_in=True)


def draw_rounds(tournament, count, seed=1):
    """``count`` balanced rounds, each played out (submitted) before the next."""
    rounds = []
    for number in range(count):
        rnd = round_draw(tournament_id=tournament.pk, method="balanced", seed=seed + number)
        rounds.append([list(t.seats.values_list("participant_id", flat=True))
                       for t in rnd.tables.all()])
        Table.objects.filter(round=rnd).update(submitted=True)
    return rounds


def repeats(rounds):
    seen, count = set(), 0
    for tables in rounds:
        pairs = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
        count += len(pairs & seen)
        seen |= pairs
    return count


# --------------------------------------------------------------------------- rounds_planned


def test_rounds_planned_is_stored_and_shown(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "Liga", "game": "basler",
                                                         "rounds_planned": 5}, format="json")
    assert resp.status_code == 201, resp.content
    assert resp.json()["rounds_planned"] == 5
    assert Tournament.objects.get(pk=resp.json()["id"]).rounds_planned == 5


def test_without_rounds_planned_the_game_default_is_shown(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "Pokal", "game": "skat"},
                                format="json")
    assert resp.status_code == 201
    assert resp.json()["rounds_planned"] == get_engine("skat").rounds_planned == 3
    assert Tournament.objects.get(pk=resp.json()["id"]).rounds_planned is None


@pytest.mark.parametrize("value", [0, 31, -1, 10**20, 1e30, "x", True, [3]])
def test_rounds_planned_out_of_bounds_is_a_400_naming_the_field(director_client, value):
    resp = director_client.post("/api/v1/tournaments/", {"name": "Schief", "game": "skat",
                                                         "rounds_planned": value},
                                format="json")
    assert resp.status_code == 400
    assert "rounds_planned" in resp.json()
    assert not Tournament.objects.filter(name="Schief").exists()


def test_rounds_planned_can_be_changed(director_client, tournament):
    resp = director_client.patch(f"/api/v1/tournaments/{tournament.pk}/",
                                 {"rounds_planned": 4}, format="json")
    assert resp.status_code == 200, resp.content
    tournament.refresh_from_db()
    assert tournament.rounds_planned == 4


# --------------------------------------------------------------------------- planned draws


def test_sixteen_basler_players_meet_everyone_once_in_five_planned_rounds(director):
    tournament = TournamentFactory(game="basler", rounds_planned=5)
    field(tournament, 16)
    assert repeats(draw_rounds(tournament, 5)) == 0


def test_nine_players_in_threes_meet_everyone_once_in_four_planned_rounds():
    # Baptistenskat with 16 deals a partie: only 3-tables
    tournament = TournamentFactory(game="baptistenskat", rules={"rounds": 16},
                                   rounds_planned=4)
    field(tournament, 9)
    rounds = draw_rounds(tournament, 4)
    assert all(len(t) == 3 for tables in rounds for t in tables)
    assert repeats(rounds) == 0


# --------------------------------------------------------------------------- Baptistenskat


@pytest.mark.parametrize("rounds, sizes, preferred", [
    (7, (3, 4, 5, 6), 4), (10, (3, 4, 5), 4), (11, (3, 4), 4), (15, (3, 4), 4),
    (16, (3,), 3), (23, (3,), 3),
])
def test_baptistenskat_seats_only_tables_whose_deck_allows_the_partie(rounds, sizes, preferred):
    engine = get_engine("baptistenskat")
    allowed = engine.seating_sizes(engine.options({"rounds": rounds}))
    assert (allowed.sizes, allowed.preferred) == (sizes, preferred)
    for size in allowed.sizes:  # players × cards of the last deal ≤ 79
        assert size * (size + rounds) <= 79


def test_a_baptistenskat_field_that_cannot_be_seated_is_refused_with_the_reason(
        director_client, director, club):
    tournament = TournamentFactory(game="baptistenskat", rules={"rounds": 12}, club=club)
    tournament.directors.add(director)
    field(tournament, 5)  # one 5-table would run out of cards in deal 11
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "random"}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    messages = resp.json()["players"]
    assert any("80 Karten" in m for m in messages), messages
    assert not tournament.rounds.exists()


def test_a_baptistenskat_round_of_ten_deals_seats_five_at_one_table(director_client, director,
                                                                    club):
    tournament = TournamentFactory(game="baptistenskat", club=club)
    tournament.directors.add(director)
    field(tournament, 5)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 201, resp.content
    assert [len(t["seats"]) for t in resp.json()["tables"]] == [5]


def test_the_scorer_refuses_a_baptistenskat_sheet_longer_than_its_deck_allows(anon_client):
    deals = [{"cards": 6 + r, "trump": "red", "bids": [0] * 5 + [6 + r],
              "tricks": [0] * 5 + [6 + r]} for r in range(1, 9)]
    resp = anon_client.post("/api/v1/games/baptistenskat/score/",
                            {"players": 6, "deals": deals}, format="json")
    assert resp.status_code == 400
    assert "deals" in resp.json()
    ok = anon_client.post("/api/v1/games/baptistenskat/score/",
                          {"players": 6, "deals": deals[:7]}, format="json")
    assert ok.status_code == 200, ok.content
