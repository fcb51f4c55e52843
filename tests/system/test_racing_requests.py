"""A double-tapped form, from outside: twenty identical creates at once through the image's
gunicorn with 3 synchronous worker processes and with 3 of 4 threads each (``WEB_THREADS``:
twelve requests at once), on PostgreSQL.

Whatever two requests race for — a slug made from a name, a member number, a player's entry
in a tournament — every answer is a created object or a 400/409 that names the field, never
a 500, and exactly as many rows exist as answers said "created".
"""

from __future__ import annotations

import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.conf import settings

from tests.system.conftest import free_port
from tests.system.servers import SECRET, Server, base_env, run

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="races between worker processes are PostgreSQL's (CI's second pass)")

RACERS = 20


def race(server: Server, method: str, path: str, body: dict, auth: str) -> list[tuple]:
    """``RACERS`` identical requests released together; their (status, body) answers."""
    start = threading.Barrier(RACERS)

    def one(_):
        start.wait(30)
        return server.api(method, path, body, auth=auth)

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        return list(pool.map(one, range(RACERS)))


def count(database_url: str, sql: str, *params) -> int:
    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as conn:
        return conn.execute(sql, params).fetchone()[0]


def assert_no_server_error(answers, field: str) -> int:
    """Every answer 201, or a JSON 400/409 naming ``field``; returns how many were 201."""
    statuses = sorted(status for status, _body in answers)
    assert set(statuses) <= {201, 400, 409}, statuses
    for status, body in answers:
        if status != 201:
            assert isinstance(body, dict) and body.get("errors"), body
            assert field in {error.get("field") for error in body["errors"]}, body
    return statuses.count(201)


@pytest.mark.django_db
@pytest.mark.parametrize(("workers", "threads"), [(3, 1), (3, 4)])
def test_twenty_identical_creates_at_once_never_answer_500(tmp_path, database_url,
                                                           redis_server, workers, threads):
    # several processes, as production runs them: with Redis (config.serve runs one
    # process without it)
    env = base_env(SECRET_KEY=SECRET, DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
                   TRUSTED_PROXY="true", STATIC_COLLECTED="false", DATABASE_URL=database_url,
                   DB_CONN_MAX_AGE="0", LOG_FORMAT="text", LOG_LEVEL="WARNING",
                   REDIS_URL=redis_server.url)
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    password = re.search(r"password “([^”]+)”",
                         run([sys.executable, "manage.py", "demo", "--admin", "racer"],
                             env)).group(1)
    port = free_port()
    server = Server([sys.executable, "-m", "config.serve"],
                    {**env, "HOST": "127.0.0.1", "PORT": str(port), "WEB_WORKERS": str(workers),
                     "WEB_THREADS": str(threads)},
                    port, tmp_path / "web.log", https=True)
    try:
        status, body = server.api("POST", "/api/v1/auth/token/",
                                  {"username": "racer", "password": password})
        assert status == 200, body
        staff = f"Token {body['token']}"
        club = server.api("GET", "/api/v1/clubs/", auth=staff)[1]["results"][0]["id"]
        tournament = server.api("GET", "/api/v1/tournaments/", auth=staff)[1]["results"][0]["id"]
        members = [p["id"] for p in server.api("GET", "/api/v1/players/", auth=staff)[1]["results"]]

        answers = race(server, "POST", "/api/v1/tournaments/",
                       {"name": "Preisskat am Rosenmontag", "game": "skat", "club": club}, staff)
        created = assert_no_server_error(answers, "name")
        assert created == count(database_url, "SELECT count(*) FROM tournaments_tournament "
                                "WHERE name = %s", "Preisskat am Rosenmontag") >= 1

        answers = race(server, "POST", f"/api/v1/clubs/{club}/evenings/",
                       {"date": "2026-12-03", "player_ids": members[:8]}, staff)
        created = assert_no_server_error(answers, "date")
        assert created == count(database_url, "SELECT count(*) FROM tournaments_tournament "
                                "WHERE club_evening AND date = %s", "2026-12-03") >= 1

        answers = race(server, "POST", "/api/v1/players/",
                       {"name": "Ingrid Braun", "club": club, "member_number": "4711"}, staff)
        created = assert_no_server_error(answers, "member_number")
        assert created == count(database_url, "SELECT count(*) FROM clubs_player "
                                "WHERE member_number = %s", "4711") == 1
        player = next(body["id"] for status, body in answers if status == 201)

        answers = race(server, "POST", f"/api/v1/tournaments/{tournament}/participants/",
                       {"player": player}, staff)
        created = assert_no_server_error(answers, "player")
        assert created == count(database_url, "SELECT count(*) FROM tournaments_participant "
                                "WHERE player_id = %s", player) == 1

        answers = race(server, "POST", "/api/v1/clubs/",
                       {"name": "Skatfreunde Rosenheim", "city": "Rosenheim"}, staff)
        created = assert_no_server_error(answers, "name")
        assert created == count(database_url, "SELECT count(*) FROM clubs_club "
                                "WHERE name = %s", "Skatfreunde Rosenheim") >= 1
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "web.log").read_text()
