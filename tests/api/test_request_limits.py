"""A request line over 4,096 bytes is a JSON 414 and a header line over 8,192 bytes a JSON
431 under /api/ (``api.middleware``); gunicorn (``gunicorn.conf.py``) lets both through
to Django, so the client sees JSON there too. Elsewhere the pages answer as they like."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.middleware import MAX_HEADER_LINE, MAX_REQUEST_LINE
from config.serve import production_args
from tests.system.conftest import free_port
from tests.system.servers import Server, base_env

GAMES = "/api/v1/games/"


def _query_for(line_bytes: int, method: str = "GET") -> str:
    """A path under /api/ whose request line is ``line_bytes`` long."""
    fixed = len(f"{method} {GAMES}?q= HTTP/1.1")
    return f"{GAMES}?q=" + "a" * (line_bytes - fixed)


def test_a_request_line_over_the_limit_is_json_414():
    client = Client()
    resp = client.get(_query_for(MAX_REQUEST_LINE + 1), HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 414
    assert resp["Content-Type"] == "application/json"
    assert resp.json()["code"] == "uri_too_long" and "4096" in resp.json()["detail"]
    assert client.get(_query_for(MAX_REQUEST_LINE)).status_code == 200


def test_a_header_over_the_limit_is_json_431_in_the_requests_language():
    client = Client()
    name_and_colon = len("X-Big: ")
    resp = client.get(GAMES, HTTP_X_BIG="b" * (MAX_HEADER_LINE - name_and_colon + 1),
                      HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 431
    assert resp.json()["code"] == "header_too_large"
    assert resp["Content-Language"] == "de"
    assert resp.json()["detail"] == "Eine Kopfzeile der Anfrage ist länger als 8192 Bytes."
    at_limit = client.get(GAMES, HTTP_X_BIG="b" * (MAX_HEADER_LINE - name_and_colon))
    assert at_limit.status_code == 200


@pytest.mark.django_db
def test_pages_outside_the_api_are_left_alone():
    resp = Client().get("/healthz", HTTP_X_BIG="b" * 10_000)
    assert resp.status_code not in (414, 431)


# ------------------------------------------------------------------ through real gunicorn


@pytest.fixture
def gunicorn(tmp_path):
    """The app under gunicorn started as production starts it (``config.serve``, which
    names gunicorn.conf.py); no database is touched by the answers below, so SQLite in a
    temporary folder will do."""
    port = free_port()
    env = base_env(DEBUG="false", SECRET_KEY="limits-test-" + "k" * 50,
                   ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false",
                   STATIC_COLLECTED="false", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    server = Server(production_args(bind=f"127.0.0.1:{port}", workers=1), env, port,
                    tmp_path / "gunicorn.log", https=False)
    yield server
    server.stop()


def _get(server: Server, path: str, headers: dict | None = None):
    status, answer, body = server.request("GET", path, headers=headers)
    return status, answer.get("Content-Type", ""), body


def test_gunicorn_lets_long_lines_and_headers_through_to_the_json_answers(gunicorn):
    status, kind, body = _get(gunicorn, _query_for(5000))
    assert (status, kind) == (414, "application/json"), body[:200]
    assert json.loads(body)["code"] == "uri_too_long"

    status, kind, body = _get(gunicorn, GAMES, {"X-Big": "b" * 10_240})
    assert (status, kind) == (431, "application/json"), body[:200]
    assert json.loads(body)["code"] == "header_too_large"


def test_beyond_gunicorns_hard_limits_its_own_answer_appears(gunicorn):
    status, _kind, _body = _get(gunicorn, _query_for(9000))
    assert status == 414  # gunicorn's own page: documented in docs/operations.md
    status, _kind, _body = _get(gunicorn, GAMES, {"X-Big": "b" * 20_000})
    assert status == 431
