"""Tournaments, registration and draws through the API."""

import pytest

from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def register(client, tournament, count, club=None):
    for _ in range(count):
        player = PlayerFactory(club=club)
        resp = client.post(f"/api/v1/tournaments/{tournament.pk}/participants/",
                           {"player": player.pk}, format="json")
        assert resp.status_code == 201, resp.content


def test_director_creates_a_tournament_and_registers_players(director_client, club):
    resp = director_client.post("/api/v1/tournaments/", {"name": "Herbstpokal", "game": "skat",
                                                         "club": club.pk, "date": "2026-11-21"},
                                format="json")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["slug"] == "herbstpokal" and body["game"] == "skat"
    tournament = Tournament.objects.get(pk=body["id"])
    player = PlayerFactory(club=club)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/participants/",
                                {"player": player.pk}, format="json")
    assert resp.status_code == 201
    assert resp.json() == {"id": resp.json()["id"], "player": player.pk, "name": player.name,
                           "club_name": club.name, "start_number": 1, "checked_in": True,
                           "withdrawn": False, "paid": False, "status": "registered",
                           "categories": []}
    again = director_client.post(f"/api/v1/tournaments/{tournament.pk}/participants/",
                                 {"player": player.pk}, format="json")
    assert again.status_code == 400 and "player" in again.json()


def test_tournament_with_invalid_rules_is_400_and_not_stored(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "X", "game": "skat",
                                                         "rules": {"kontra_re": "ja"}},
                                format="json")
    assert resp.status_code == 400
    assert "kontra_re" in resp.json()["rules"]
    assert not Tournament.objects.filter(name="X").exists()


def test_unknown_game_is_400(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "X", "game": "poker"},
                                format="json")
    assert resp.status_code == 400 and "game" in resp.json()


def test_anonymous_sees_only_published_tournaments(anon_client, club):
    TournamentFactory(club=club, published=True, name="Offen")
    hidden = TournamentFactory(club=club, published=False, name="Geheim")
    names = [t["name"] for t in anon_client.get("/api/v1/tournaments/").json()["results"]]
    assert names == ["Offen"]
    assert anon_client.get(f"/api/v1/tournaments/{hidden.pk}/").status_code == 404


def test_thirteen_skat_players_make_one_four_table_and_three_three_tables(director_client,
                                                                         tournament, director):
    register(director_client, tournament, 13)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "random", "seed": 42}, format="json")
    assert resp.status_code == 201, resp.content
    tables = resp.json()["tables"]
    assert sorted(len(t["seats"]) for t in tables) == [3, 3, 3, 4]
    seated = [s["participant"] for t in tables for s in t["seats"]]
    assert sorted(seated) == sorted(tournament.participants.values_list("pk", flat=True))
    assert all(len(t["entry_token"]) >= 22 for t in tables)
    assert len({t["entry_token"] for t in tables}) == 4


def test_same_seed_gives_the_same_draw(director_client, club, director):
    draws = []
    for _ in range(2):
        tournament = TournamentFactory(club=club)
        tournament.directors.add(director)
        for n in range(13):
            ParticipantFactory(tournament=tournament, start_number=n + 1)
        resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                    {"method": "random", "seed": 99}, format="json")
        draws.append([[s["start_number"] for s in t["seats"]] for t in resp.json()["tables"]])
    assert draws[0] == draws[1]


def test_seed_is_stored_with_the_round(director_client, tournament, director):
    register(director_client, tournament, 6)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "balanced"}, format="json")
    assert resp.status_code == 201
    assert Round.objects.get().seed == resp.json()["seed"]


def test_five_skat_players_cannot_be_seated(director_client, tournament, director):
    register(director_client, tournament, 5)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 400
    assert "players" in resp.json()
    assert not Round.objects.exists()


def test_unknown_method_is_400(director_client, tournament, director):
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                {"method": "alphabetical"}, format="json")
    assert resp.status_code == 400 and "method" in resp.json()


def test_next_round_waits_for_the_previous_one(director_client, short_skat, drawn):
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 409


def test_rounds_are_public_without_tokens(anon_client, short_skat, drawn):
    resp = anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/rounds/")
    assert resp.status_code == 200
    assert "entry_token" not in resp.content.decode()
    assert len(resp.json()[0]["tables"]) == 2


def test_outsider_cannot_draw(outsider_client, short_skat):
    resp = outsider_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 403


def test_withdrawn_and_absent_players_are_not_seated(director_client, short_skat, director):
    first, second = short_skat.participants.order_by("start_number")[:2]
    url = f"/api/v1/tournaments/{short_skat.pk}/participants/"
    assert director_client.patch(f"{url}{first.pk}/", {"withdrawn": True},
                                 format="json").status_code == 200
    assert director_client.patch(f"{url}{second.pk}/", {"checked_in": False},
                                 format="json").status_code == 200
    # 5 remain: cannot be seated; a late registration makes it 6 = two 3-tables.
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 400
    register(director_client, short_skat, 1)
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random"}, format="json")
    assert resp.status_code == 201
    seated = {s["participant"] for t in resp.json()["tables"] for s in t["seats"]}
    assert first.pk not in seated and second.pk not in seated and len(seated) == 6


def test_swap_two_players_before_any_deal(director_client, short_skat, drawn, table,
                                          other_table, table_client):
    a, b = table["seats"][0]["participant"], other_table["seats"][1]["participant"]
    url = f"/api/v1/tournaments/{short_skat.pk}/rounds/1/swap/"
    resp = director_client.post(url, {"a": a, "b": b}, format="json")
    assert resp.status_code == 200, resp.content
    tables = {t["id"]: t for t in resp.json()["tables"]}
    assert tables[table["id"]]["seats"][0]["participant"] == b
    assert tables[other_table["id"]]["seats"][1]["participant"] == a
    table_client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True},
                      format="json")
    assert director_client.post(url, {"a": a, "b": b}, format="json").status_code == 409


def test_swap_of_an_unseated_participant_is_400(director_client, short_skat, drawn):
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/swap/",
                                {"a": 999999, "b": drawn["tables"][0]["seats"][0]["participant"]},
                                format="json")
    assert resp.status_code == 400 and "a" in resp.json()


def finish_round(director_client, rnd):
    """Enter every table of a drawn Skat round as an empty summary and submit it."""
    for table in rnd["tables"]:
        seats = [{"game_points": 0, "won": 0, "lost": 0}] * len(table["seats"])
        assert director_client.put(f"/api/v1/tables/{table['id']}/summary/", {"seats": seats},
                                   format="json").status_code == 200
        assert director_client.post(f"/api/v1/tables/{table['id']}/submit/").status_code == 200


@pytest.mark.parametrize("players", [13, 40])
def test_balanced_rounds_repeat_no_pair_of_table_mates(director_client, tournament, director,
                                                       players):
    register(director_client, tournament, players)
    met = set()
    for number in range(1, 4):
        resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                    {"method": "balanced", "seed": number}, format="json")
        assert resp.status_code == 201, resp.content
        rnd = resp.json()
        for table in rnd["tables"]:
            ids = [s["participant"] for s in table["seats"]]
            pairs = {frozenset((a, b)) for a in ids for b in ids if a < b}
            assert not pairs & met, f"round {number} repeats {pairs & met}"
            met |= pairs
        finish_round(director_client, rnd)


def test_ranking_round_seats_the_leaders_together(director_client, short_skat, drawn):
    scores = {}
    for table in drawn["tables"]:
        seats = [{"game_points": 7 * (i + 1) * table["number"], "won": 1, "lost": 0}
                 for i in range(len(table["seats"]))]
        assert director_client.put(f"/api/v1/tables/{table['id']}/summary/", {"seats": seats},
                                   format="json").status_code == 200
        assert director_client.post(f"/api/v1/tables/{table['id']}/submit/").status_code == 200
        table_json = director_client.get(f"/api/v1/tables/{table['id']}/").json()
        scores.update({t["participant"]: t["score"] for t in table_json["totals"]})
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "ranking", "seed": 1}, format="json")
    assert resp.status_code == 201
    first = next(t for t in resp.json()["tables"] if t["number"] == 1)
    leaders = sorted(scores, key=scores.get, reverse=True)[:len(first["seats"])]
    assert {s["participant"] for s in first["seats"]} == set(leaders)
