"""Total input handling (issue 14, item 1): lone surrogates, huge numbers, strict query
parameters and bounded integers are a 400 naming the field, never a 500; nothing is
stored; one answer names every offending field."""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tournaments.models import Deal, IdempotencyKey, Table

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}


@pytest.fixture(autouse=True)
def no_exception_propagation(anon_client, table_client, director_client):
    """Let the handler answer as in production (a 500 is a failure to see, not raise)."""
    for client in (anon_client, table_client, director_client):
        client.raise_request_exception = False


def raw_post(client, path, text, **extra):
    return client.post(path, text, content_type="application/json", **extra)


def test_deal_with_a_lone_surrogate_is_400_and_stores_nothing(table_client, table):
    text = '{"number":1,"declarer":"\\ud800","game":"clubs","matadors":1,"won":true}'
    for headers in ({}, {"HTTP_IDEMPOTENCY_KEY": "k1"}):
        resp = raw_post(table_client, f"/api/v1/tables/{table['id']}/deals/", text, **headers)
        assert resp.status_code == 400, resp.content
        assert "declarer" in resp.json()["detail"]
    assert not Deal.objects.exists() and not IdempotencyKey.objects.exists()


@pytest.mark.parametrize("key", ["k\x00", "\x1b[0m", "a\nb", "\x7f"])
def test_an_idempotency_key_with_a_control_character_is_400_and_stores_nothing(
        table_client, table, key):
    """HTTP allows none in a header's value, nor PostgreSQL a NUL in a text: a key that
    holds one is refused naming the header, in the reader's language, before any
    look-up; a tab is allowed."""
    resp = raw_post(table_client, f"/api/v1/tables/{table['id']}/deals/",
                    json.dumps({"number": 1, **CLUBS_WON}), HTTP_IDEMPOTENCY_KEY=key,
                    HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400, resp.content
    assert resp.json()["Idempotency-Key"] == [
        "The Idempotency-Key contains a control character."]
    assert not Deal.objects.exists() and not IdempotencyKey.objects.exists()
    german = raw_post(table_client, f"/api/v1/tables/{table['id']}/deals/",
                      json.dumps({"number": 1, **CLUBS_WON}), HTTP_IDEMPOTENCY_KEY=key)
    assert german.json()["Idempotency-Key"] == [
        "Der Idempotency-Key enthält ein Steuerzeichen."]
    tab = raw_post(table_client, f"/api/v1/tables/{table['id']}/deals/",
                   json.dumps({"number": 1, **CLUBS_WON}), HTTP_IDEMPOTENCY_KEY="a\tb")
    assert tab.status_code == 201, tab.content


def test_scorer_with_a_surrogate_key_is_400(anon_client):
    resp = raw_post(anon_client, "/api/v1/games/skat/score/",
                    '{"players":4,"deals":[],"\\ud800":1}', HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert "surrogate" in resp.json()["detail"]


def test_a_proper_surrogate_pair_is_an_ordinary_character(anon_client):
    # "\ud83c\udca1" is one character (🂡): fine as JSON, refused only as an unknown field
    resp = raw_post(anon_client, "/api/v1/games/skat/score/",
                    '{"players":3,"deals":[],"\\ud83c\\udca1":1}')
    assert resp.status_code == 400
    assert "\U0001f0a1" in resp.json()


@pytest.mark.parametrize("text", [
    '{"players": NaN}', '{"players": Infinity}', '{"players": 1e999}',
    '{"players": ' + "9" * 5000 + "}", "[" * 100_000 + "]" * 100_000, '{"players": 3',
    '\xff\xfe',
])
def test_json_that_python_would_choke_on_is_400(anon_client, text):
    resp = raw_post(anon_client, "/api/v1/games/skat/score/", text)
    assert resp.status_code == 400
    assert resp.json()["detail"]


def test_a_body_in_another_charset_is_checked_as_any_other(anon_client):
    resp = anon_client.post("/api/v1/games/skat/score/", '{"players": 1e400}'.encode("utf-16"),
                            content_type="application/json; charset=utf-16",
                            HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert resp.json()["detail"] == "The number 1e400 is too large."


def test_deep_nesting_is_refused(anon_client):
    text = '{"players": 3, "rules": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}"
    resp = raw_post(anon_client, "/api/v1/games/skat/score/", text, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert "nested" in resp.json()["detail"]


def test_parse_errors_speak_german(anon_client):
    resp = raw_post(anon_client, "/api/v1/games/skat/score/", "{bad",
                    HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert resp.json()["detail"].startswith("Der Inhalt ist kein gültiges JSON")


def summary_url(table):
    return f"/api/v1/tables/{table['id']}/summary/"


def test_summary_with_a_huge_integer_names_the_field(director_client, table):
    seats = [{"game_points": 0, "won": 0, "lost": 0} for _ in range(3)]
    seats[1]["game_points"] = 2147483647
    seats[2]["won"] = 2**70
    resp = director_client.put(summary_url(table), {"seats": seats}, format="json")
    assert resp.status_code == 400, resp.content
    fields = {e["field"] for e in resp.json()["errors"]}
    assert fields == {"seats.1.game_points", "seats.2.won"}
    assert Table.objects.get(pk=table["id"]).summary is None


def test_summary_with_the_wrong_seat_count_still_names_each_bad_seat(director_client, table):
    seats = [{"game_points": "x", "won": 0, "lost": 0}, {"game_points": 0, "won": -1, "lost": 0}]
    resp = director_client.put(summary_url(table), {"seats": seats}, format="json",
                               HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    fields = {e["field"] for e in resp.json()["errors"]}
    assert fields == {"seats", "seats.0.game_points", "seats.1.won"}


def test_deal_preview_names_every_bad_field(director_client, other_table):
    # deal 3 at the 4-table: seat 3 deals and sits out; 99 matadors do not exist
    resp = director_client.post(f"/api/v1/tables/{other_table['id']}/preview/",
                                {"number": 3, "declarer": 3, "game": "clubs", "matadors": 99,
                                 "won": True}, format="json")
    assert resp.status_code == 400
    fields = {e["field"] for e in resp.json()["errors"]}
    assert {"declarer", "matadors"} <= fields


@pytest.mark.parametrize("query", ["%C2%B2", "%D9%A3", "-1", "0", "1.0", "1e3", "99999",
                                   "3%0A", " 3"])
def test_standings_round_takes_ascii_digits_only(anon_client, short_skat, query):
    resp = anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/standings/?round={query}")
    assert resp.status_code == 400, (query, resp.content)
    body = resp.json()
    assert set(body) == {"round", "errors", "detail"}
    assert [e["field"] for e in body["errors"]] == ["round"]


def test_standings_round_in_range_is_read(anon_client, short_skat):
    resp = anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/standings/?round=3")
    assert resp.status_code == 200
    assert resp.json()["round"] == 3


@pytest.mark.parametrize("query,field", [("limit=%D9%A3", "limit"), ("limit=0", "limit"),
                                         ("limit=100000", "limit"), ("offset=-5", "offset"),
                                         ("offset=" + "9" * 30, "offset")])
def test_page_parameters_are_strict(anon_client, club, query, field):
    resp = anon_client.get(f"/api/v1/clubs/?{query}")
    assert resp.status_code == 400
    body = resp.json()
    assert set(body) == {field, "errors", "detail"}
    assert [e["field"] for e in body["errors"]] == [field]


def test_page_parameters_in_range_are_read(anon_client, club):
    resp = anon_client.get("/api/v1/clubs/?limit=1&offset=0")
    assert resp.status_code == 200
    assert len(resp.json()["results"]) == 1


def test_round_seed_beyond_its_bound_is_400(director_client, short_skat):
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random", "seed": 2**64}, format="json")
    assert resp.status_code == 400 and "seed" in resp.json()


def test_swap_with_huge_participant_ids_is_400_not_500(director_client, short_skat, drawn):
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/swap/",
                                {"a": 2**70, "b": 1}, format="json")
    assert resp.status_code == 400 and "a" in resp.json()


def test_huge_deal_number_is_400(table_client, table):
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 2**80, **CLUBS_WON}, format="json")
    assert resp.status_code == 400 and "number" in resp.json()


def test_announced_body_over_the_limit_is_413_json(anon_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"players": 3, "deals": [], "rules": {"x": "y" * 2000}})
    resp = raw_post(anon_client, "/api/v1/games/skat/score/", body, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 413
    assert resp["Content-Type"] == "application/json"
    assert "1000 bytes" in resp.json()["detail"]


def test_scorer_body_over_its_own_limit_is_413(anon_client, settings):
    settings.SCORER_MAX_BODY_BYTES = 500
    body = json.dumps({"players": 3, "deals": [{"passed": True}] * 100})
    resp = raw_post(anon_client, "/api/v1/games/skat/score/", body)
    assert resp.status_code == 413
    assert resp.json()["detail"]
    small = raw_post(anon_client, "/api/v1/games/skat/score/", '{"players": 3, "deals": []}')
    assert small.status_code == 200


def test_a_body_over_the_limit_with_credentials_is_413_json(director_client, tournament,
                                                            settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 5000
    body = json.dumps({"name": "x", **{f"k{n:05d}": 1 for n in range(1000)}})
    resp = raw_post(director_client, f"/api/v1/tournaments/{tournament.pk}/participants/",
                    body, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 413 and resp["Content-Type"] == "application/json"
    assert "5000 bytes" in resp.json()["detail"]


@pytest.mark.parametrize("token", ["a\x00b", "t" * 65])
def test_a_token_no_row_could_hold_opens_nothing_and_is_never_a_500(table, token):
    """PostgreSQL holds no text with a NUL and refuses to compare one; a token longer
    than any stored is none either. The player's and the table's pages are 404, the API's
    personal token 404 and its table token 401, as for any unknown token."""
    pages = Client(raise_request_exception=False)
    shown = quote(token)
    for path in (*(f"/me/{shown}/{part}" for part in (
            "", "live/", "card/", "ranks/", "changes/", "sheet/", "history/", "cancel/")),
            f"/t/{shown}/", f"/t/{shown}/sheet/"):
        assert pages.get(path).status_code == 404, path
    api = APIClient(raise_request_exception=False)
    assert api.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Player {token}").status_code == 404
    resp = raw_post(api, f"/api/v1/tables/{table['id']}/deals/",
                    json.dumps({"number": 1, **CLUBS_WON}),
                    HTTP_AUTHORIZATION=f"Table {token}", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 401, resp.content
    assert resp.json()["detail"] == "Invalid table token."
    assert api.get(f"/api/v1/tables/{table['id']}/",
                   HTTP_AUTHORIZATION=f"Table {token}").status_code == 401
    assert not Deal.objects.exists()
