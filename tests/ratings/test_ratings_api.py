"""``GET /api/v1/ratings/`` and ``GET /api/v1/players/{id}/ratings/`` as api.md writes them."""

import pytest

from ratings.services import ratings_recompute
from tests.conftest import token_client
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tests.ratings.helpers import day, play_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(boss, club):
    """Three published events of six players of ``club``: player 0 wins everything, the
    others' scores fall with their index; then an unpublished event with a newcomer."""
    players = [PlayerFactory(club=club) for _n in range(6)]
    for n in range(3):
        play_event(boss, players, date=day(n), club=club, seed=n,
                   scores={p.pk: 200 - 20 * i for i, p in enumerate(players)})
    hidden = PlayerFactory(club=club)
    play_event(boss, [players[0], players[1], hidden], date=day(5), club=club,
               published=False, scores={players[0].pk: 150, players[1].pk: 90, hidden.pk: 80})
    ratings_recompute(game="skat")
    return players, hidden


def test_the_leaderboard_as_api_md_writes_it(anon_client, world):
    players, hidden = world
    resp = anon_client.get("/api/v1/ratings/?game=skat&min_sheets=3")
    assert resp.status_code == 200, resp.content
    results = resp.json()["results"]
    assert set(results[0]) >= {"rank", "player", "name", "rating", "mu", "sigma", "sheets"}
    assert results[0]["player"] == players[0].pk and results[0]["rank"] == 1
    ratings = [r["rating"] for r in results]
    assert ratings == sorted(ratings, reverse=True)
    assert hidden.pk not in {r["player"] for r in results}  # only unpublished results
    assert all(r["sheets"] >= 3 for r in results)
    # the default minimum is 10 sheets: nobody has played that many
    assert anon_client.get("/api/v1/ratings/?game=skat").json()["results"] == []


def test_the_leaderboard_carries_an_etag_and_answers_304(anon_client, world):
    resp = anon_client.get("/api/v1/ratings/?game=skat&min_sheets=1")
    etag = resp["ETag"]
    again = anon_client.get("/api/v1/ratings/?game=skat&min_sheets=1", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_a_club_board_lists_who_played_a_sheet_of_that_club(anon_client, world, boss):
    players, _hidden = world
    other = ClubFactory()
    play_event(boss, [players[0], *[PlayerFactory(club=other) for _n in range(2)]],
               date=day(7), club=other)
    ratings_recompute(game="skat")
    resp = anon_client.get(f"/api/v1/ratings/?game=skat&club={other.pk}&min_sheets=0")
    listed = {r["player"] for r in resp.json()["results"]}
    assert len(listed) == 3 and players[0].pk in listed and players[1].pk not in listed


@pytest.mark.parametrize("query, field", [
    ("game=poker", "game"), ("", "game"), ("game=skat&min_sheets=-1", "min_sheets"),
    ("game=skat&min_sheets=x", "min_sheets"), ("game=skat&club=999999", "club"),
    ("game=skat&club=0", "club"), ("game=skat&min_sheets=100001", "min_sheets"),
])
def test_bad_parameters_are_a_400_naming_them(anon_client, db, query, field):
    resp = anon_client.get(f"/api/v1/ratings/?{query}", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert field in resp.json()


def test_both_bad_fields_are_named_at_once(anon_client, db):
    resp = anon_client.get("/api/v1/ratings/?game=poker&min_sheets=-3")
    assert resp.status_code == 400 and {"game", "min_sheets"} <= set(resp.json())


def test_a_players_ratings_and_history(anon_client, world):
    players, _hidden = world
    resp = anon_client.get(f"/api/v1/players/{players[0].pk}/ratings/")
    assert resp.status_code == 200, resp.content
    [skat] = resp.json()
    assert skat["game"] == "skat" and skat["sheets"] == 4  # three published, one not
    history = skat["history"]
    assert [h["date"] for h in history] == [str(day(n)) for n in range(3)]
    assert set(history[0]) >= {"date", "tournament", "rating"}
    ratings = [h["rating"] for h in history]
    assert ratings == sorted(ratings) and ratings[0] > 1000  # he won every table


def test_a_player_rated_only_in_unpublished_events_is_404_but_to_his_clubs_staff(
        anon_client, outsider_client, world, club):
    _players, hidden = world
    url = f"/api/v1/players/{hidden.pk}/ratings/"
    assert anon_client.get(url).status_code == 404
    assert outsider_client.get(url).status_code == 404
    admin = StaffFactory()
    club.admins.add(admin)
    resp = token_client(admin).get(url)
    assert resp.status_code == 200 and resp.json()[0]["sheets"] == 1
    assert anon_client.get("/api/v1/players/999999/ratings/").status_code == 404


def test_the_leaderboards_queries_do_not_grow_with_players(anon_client, boss, club,
                                                           django_assert_max_num_queries):
    players = [PlayerFactory(club=club) for _n in range(8)]
    play_event(boss, players[:4], date=day(0), club=club)
    ratings_recompute(game="skat")
    with django_assert_max_num_queries(4) as few:
        anon_client.get(f"/api/v1/ratings/?game=skat&club={club.pk}&min_sheets=0")
    play_event(boss, players, date=day(1), club=club, rounds=2)
    ratings_recompute(game="skat")
    with django_assert_max_num_queries(len(few.captured_queries)):
        resp = anon_client.get(f"/api/v1/ratings/?game=skat&club={club.pk}&min_sheets=0")
    assert len(resp.json()["results"]) == 8
    with django_assert_max_num_queries(4):
        anon_client.get(f"/api/v1/players/{players[0].pk}/ratings/")


def test_a_player_of_published_events_without_a_rated_sheet_has_an_empty_list(
        anon_client, boss, club):
    players = [PlayerFactory(club=club) for _n in range(3)]
    play_event(boss, players, date=day(0), club=club, entered=False)  # nothing submitted
    ratings_recompute(game="skat")
    resp = anon_client.get(f"/api/v1/players/{players[0].pk}/ratings/")
    assert resp.status_code == 200 and resp.json() == []


def test_a_merge_moves_the_duplicates_results_and_rerates(boss, club):
    from clublife.services.players import player_merge
    from ratings.models import Rating
    from tests.ratings.helpers import stored

    players = [PlayerFactory(club=club) for _n in range(6)]
    duplicate = PlayerFactory(club=club, name=players[0].name)
    play_event(boss, players, date=day(0), club=club, seed=1)
    play_event(boss, [duplicate, *players[1:]], date=day(1), club=club, seed=2)
    ratings_recompute(game="skat")
    player_merge(keep=players[0], remove=duplicate, by=boss)
    ratings_recompute(game="skat")
    assert Rating.objects.get(player=players[0]).sheets == 2
    incremental = stored()
    ratings_recompute(game="skat", full=True)
    assert stored() == incremental
