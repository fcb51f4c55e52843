"""The games list and the stateless scorer over HTTP (api.md: /games/, /games/{game}/score/)."""

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GAMES = ["skat", "schafkopf", "baptistenskat", "basler", "labatarde", "doppelkopf"]


@pytest.fixture
def client():
    return Client()


def post(client, game, body, lang="de"):
    return client.post(f"/api/v1/games/{game}/score/", data=json.dumps(body),
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)


def test_games_list_names_every_game_with_table_sizes_and_option_defaults(client):
    resp = client.get("/api/v1/games/")
    assert resp.status_code == 200
    games = {g["key"]: g for g in resp.json()["results"]}
    assert set(games) == set(GAMES)
    assert games["skat"]["table_sizes"] == [3, 4]
    assert games["skat"]["preferred_table_size"] == 4
    assert games["skat"]["options"]["kontra_re"]["default"] is False
    assert games["skat"]["options"]["series_deals_4"]["default"] == 48
    assert games["labatarde"]["standing_order"] == "asc"
    assert games["basler"]["table_sizes"] == [4]
    assert games["schafkopf"]["options"]["tariff"]["default"] == "tournament"
    assert games["baptistenskat"]["options"]["rounds"]["default"] == 10


def test_game_detail_and_unknown_game(client):
    assert client.get("/api/v1/games/skat/").json()["key"] == "skat"
    assert client.get("/api/v1/games/tarock/").status_code == 404
    assert post(client, "tarock", {"players": 3, "deals": []}).status_code == 404


def test_scorer_scores_a_skat_sheet_with_seeger_fabian_totals(client):
    deals = [
        {"declarer": 1, "game": "clubs", "matadors": 1, "won": True, "declarer_points": 61},
        {"declarer": 2, "game": "diamonds", "matadors": -2, "won": False},
        {"passed": True},
    ]
    resp = post(client, "skat", {"players": 3, "deals": deals})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert [d["scores"] for d in body["deals"]] == [[24, 0, 0], [0, -54, 0], [0, 0, 0]]
    totals = {t["seat"]: t for t in body["totals"]}
    assert totals[1]["score"] == 24 + 50 + 40
    assert totals[2]["score"] == -54 - 50
    assert totals[3]["score"] == 40
    assert totals[1]["won"] == 1 and totals[2]["lost"] == 1
    assert body["complete"] is False


def test_scorer_refuses_a_bad_deal_naming_deal_and_field_in_german(client):
    deals = [{"declarer": 1, "game": "clubs", "matadors": 1, "won": True},
             {"declarer": 1, "game": "clubs", "matadors": 12, "won": True}]
    resp = post(client, "skat", {"players": 3, "deals": deals})
    assert resp.status_code == 400
    body = resp.json()
    assert "matadors" in body["deals"]["1"]
    error = body["errors"][0]
    assert (error["deal"], error["number"], error["field"]) == (1, 2, "matadors")
    english = post(client, "skat", {"players": 3, "deals": deals}, lang="en").json()
    assert english["errors"][0]["message"] != error["message"]


def test_scorer_refuses_unknown_rules_naming_the_option(client):
    resp = post(client, "skat", {"players": 3, "rules": {"bockrunden": True}, "deals": []})
    assert resp.status_code == 400
    assert "bockrunden" in resp.json()["rules"]


@pytest.mark.parametrize("body,field", [
    ([], "non_field_errors"),
    ({"deals": []}, "players"),
    ({"players": 3, "deals": [], "extra": 1}, "extra"),
    ({"players": 7, "deals": []}, "players"),
    ({"players": 3, "deals": {}}, "deals"),
])
def test_scorer_refuses_malformed_bodies_naming_the_field(client, body, field):
    resp = post(client, "skat", body)
    assert resp.status_code == 400
    assert field in resp.json()


def test_scorer_scores_a_skat_summary(client):
    summary = [{"game_points": 300, "won": 5, "lost": 1}, {"game_points": 0, "won": 0, "lost": 0},
               {"game_points": -48, "won": 0, "lost": 1}]
    resp = post(client, "skat", {"players": 3, "summary": summary})
    assert resp.status_code == 200, resp.content
    totals = {t["seat"]: t["score"] for t in resp.json()["totals"]}
    assert totals == {1: 300 + 250 - 50 + 40, 2: 80, 3: -48 - 50 + 40}


def test_scorer_refuses_a_summary_for_a_game_without_one(client):
    resp = post(client, "basler", {"players": 4, "summary": []})
    assert resp.status_code == 400
    assert "summary" in resp.json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
deal_like = st.dictionaries(
    st.sampled_from(["declarer", "game", "matadors", "won", "hand", "passed", "bids",
                     "tricks", "cards", "trump", "points", "partner", "schwarz", "melds",
                     "card_points", "last_trick", "mechoune", "choune", "laufende"]),
    json_values, max_size=6)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"players": st.integers(-1, 9) | json_values,
                           "deals": st.lists(deal_like | json_values, max_size=4)},
                          optional={"rules": json_values | st.dictionaries(
                              st.text(max_size=10), json_values, max_size=3)}),
)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_scorer_answers_200_or_400_never_500(game, body):
    resp = post(Client(), game, body)
    assert resp.status_code in (200, 400), resp.content


@pytest.mark.parametrize("raw", [b"", b"{", b"nul", b'{"players": 1e999}', b'{"a": Infinity}',
                                 b"[" * 50000, b"\xff\xfe", b'"just a string"'])
def test_scorer_answers_400_to_broken_json(client, raw):
    resp = client.post("/api/v1/games/skat/score/", data=raw, content_type="application/json")
    assert resp.status_code == 400
