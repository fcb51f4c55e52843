"""The fast standings paths: rows written by COPY (or bulk_create), the answer spliced from
cached rendered bytes, byte for byte what DRF's renderer made of it before."""

import json

import pytest
from rest_framework.renderers import JSONRenderer

from tournaments.models import StandingsPage, StandingsState
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.selectors import named_standings, standings_rows

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}  # +24


def url(tournament, query=""):
    return f"/api/v1/tournaments/{tournament.pk}/standings/{query}"


def enter(client, table, deals):
    for number, deal in enumerate(deals, start=1):
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **deal},
                           format="json")
        assert resp.status_code == 201, resp.content


def test_each_list_is_stored_once_in_pages(director_client, short_skat, table):
    enter(director_client, table, [WIN])
    standings_recompute(tournament_id=short_skat.pk)
    standings_recompute(tournament_id=short_skat.pk)  # replaces, never duplicates
    pages = StandingsPage.objects.filter(tournament=short_skat)
    assert set(pages.values_list("round_number", flat=True)) == {0, 1}
    assert pages.count() == len(set(pages.values_list("round_number", "page")))
    overall = standings_rows(short_skat)
    first = overall[0]
    assert first["won"] == 1 and first["game_points"] == 24 and first["rank"] == 1
    assert first["rounds"] == [{"round": 1, "score": 74}]
    assert [row["rank"] for row in overall] == sorted(row["rank"] for row in overall)
    by_round = {row["participant"]: row for row in standings_rows(short_skat, 1)}
    assert by_round[first["participant"]]["rounds"] == [{"round": 1, "score": 74}]


@pytest.mark.parametrize("query,number", [("", 0), ("?round=1", 1), ("?round=2", 2)])
def test_body_is_what_drf_rendered(anon_client, director_client, short_skat, table, query,
                                   number):
    enter(director_client, table, [WIN])
    standings_recompute(tournament_id=short_skat.pk)
    enter(director_client, table, [])  # nothing new: not stale
    state = StandingsState.objects.get(tournament=short_skat)
    expected = JSONRenderer().render({
        "computed_at": state.computed_at, "stale": False, "round": number or None,
        "results": named_standings(short_skat, number)})
    for _ in range(2):  # cold and cached
        resp = anon_client.get(url(short_skat, query))
        assert resp.status_code == 200
        assert resp["Content-Type"] == "application/json"
        assert resp.content == expected
        assert json.loads(resp.content)["round"] == (number or None)


def test_cached_results_follow_a_recompute(anon_client, director_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    before = anon_client.get(url(short_skat)).json()
    assert before["stale"] is False and before["results"][0]["score"] == 0
    enter(director_client, table, [WIN])
    stale = anon_client.get(url(short_skat)).json()
    assert stale["stale"] is True and stale["results"] == before["results"]
    standings_recompute(tournament_id=short_skat.pk)
    after = anon_client.get(url(short_skat)).json()
    assert after["stale"] is False and after["results"][0]["score"] == 74


def test_errors_keep_their_shape(anon_client, short_skat):
    assert anon_client.get(url(short_skat, "?round=0")).status_code == 400
    assert anon_client.get(url(short_skat, "?round=x")).status_code == 400
    assert anon_client.get("/api/v1/tournaments/999999/standings/").status_code == 404
    resp = anon_client.get(url(short_skat))
    again = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=f'"x", {resp["ETag"]}')
    assert again.status_code == 304 and again["ETag"] == resp["ETag"] and not again.content
