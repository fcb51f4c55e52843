"""Stored standings: the recompute service, the outbox's stale flag, ETag/304, rounds."""

import pytest

from tournaments.models import StandingsOutbox, StandingsPage, StandingsState
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}  # +24


def standings(client, tournament, **params):
    return client.get(f"/api/v1/tournaments/{tournament.pk}/standings/", params)


def enter(client, table, deals):
    for number, deal in enumerate(deals, start=1):
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **deal},
                           format="json")
        assert resp.status_code == 201, resp.content


def test_changes_are_stale_until_recomputed(anon_client, director_client, short_skat, table):
    enter(director_client, table, [WIN])
    before = standings(anon_client, short_skat).json()
    assert before["stale"] is True
    standings_recompute(tournament_id=short_skat.pk)
    after = standings(anon_client, short_skat).json()
    assert after["stale"] is False and after["computed_at"]
    first = after["results"][0]
    seat1 = table["seats"][0]
    assert (first["rank"], first["participant"], first["name"]) == (1, seat1["participant"],
                                                                  seat1["name"])
    assert (first["score"], first["won"], first["game_points"]) == (24 + 50, 1, 24)
    assert first["rounds"] == [{"round": 1, "score": 74}]
    assert not StandingsOutbox.objects.exists()


def test_skat_ties_share_a_rank(anon_client, director_client, short_skat, table, other_table):
    enter(director_client, table, [{"passed": True}])
    standings_recompute(tournament_id=short_skat.pk)
    results = standings(anon_client, short_skat).json()["results"]
    assert len(results) == 7
    assert {r["rank"] for r in results} == {1}


def test_etag_gives_304_until_something_changes(anon_client, director_client, short_skat,
                                                table):
    standings_recompute(tournament_id=short_skat.pk)
    first = standings(anon_client, short_skat)
    etag = first["ETag"]
    again = anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/standings/",
                            HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    enter(director_client, table, [WIN])
    changed = anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/standings/",
                              HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["stale"] is True
    assert changed["ETag"] != etag


def test_per_round_standings(anon_client, director_client, short_skat, table):
    enter(director_client, table, [WIN])
    standings_recompute(tournament_id=short_skat.pk)
    round1 = standings(anon_client, short_skat, round=1).json()
    assert round1["round"] == 1 and round1["results"][0]["score"] == 74
    assert standings(anon_client, short_skat, round=2).json()["results"] == []
    assert standings(anon_client, short_skat, round="x").status_code == 400


def test_recompute_is_idempotent(director_client, short_skat, table):
    enter(director_client, table, [WIN])
    standings_recompute(tournament_id=short_skat.pk)
    pages = StandingsPage.objects.order_by("round_number", "page")
    stored = list(pages.values_list("round_number", "page", "rows"))
    standings_recompute(tournament_id=short_skat.pk)
    assert list(pages.values_list("round_number", "page", "rows")) == stored
    assert StandingsState.objects.get().recomputes == 2


def test_unpublished_tournament_standings_are_hidden(anon_client, director_client, short_skat):
    short_skat.published = False
    short_skat.save()
    assert standings(anon_client, short_skat).status_code == 404
    assert standings(director_client, short_skat).status_code == 200


def test_without_a_broker_the_recompute_runs_right_after_commit(
        director_client, short_skat, table, in_process_tasks,
        django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        enter(director_client, table, [WIN])
    state = StandingsState.objects.get(tournament=short_skat)
    assert state.recomputes == 1
    assert not StandingsOutbox.objects.exists()
