"""Three anonymous 2.4 MB bodies at once against the image's gunicorn (three synchronous
workers, as production runs it) and three with a staff token to endpoints that take a
few KB: each is answered at once with a small JSON 413, and ``/healthz`` goes on
answering within a second meanwhile (issue 52: the three bodies, 20,000 keys or more
each, held all three workers past gunicorn's timeout and ``/healthz`` for 40 s). The
issue's bound of one second is what a load balancer's health check waits."""

from __future__ import annotations

import http.client
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from config.serve import production_args
from tests.system.conftest import free_port, wait_for
from tests.system.servers import SECRET, Server, base_env, run

# serial: it times /healthz against the 1 s the issue allows, so the other xdist workers'
# tests must not share the two cores with the server under attack
pytestmark = pytest.mark.serial

BODY_BYTES = 2_400_000
HEALTH_SECONDS = 1.0

SETUP = """
from rest_framework.authtoken.models import Token
from tests.factories import StaffFactory, TournamentFactory
from signup.services.registrations import registration_configure
event = TournamentFactory(published=True)
registration_configure(tournament_id=event.pk, open=True, check_in=False)
staff = StaffFactory(username="attacker")
event.directors.add(staff)
print("SETUP", Token.objects.create(user=staff).key, event.pk)
"""


def many_keys(size: int, **known) -> bytes:
    """An object of ``known`` and as many unknown keys as fit in ``size`` bytes."""
    head = json.dumps(known)[:-1]
    count = (size - len(head) - 2) // 13  # ,"k0000000":1
    return (head + "".join(f',"k{n:07d}":1' for n in range(count)) + "}").encode()


def post(port: int, path: str, body: bytes, token: str = "") -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json",
               "Accept-Language": "de"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request("POST", path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read(), resp.getheader("Content-Type", "")
    finally:
        conn.close()


def health(port: int) -> int:
    """/healthz's status, or 0 when it took longer than HEALTH_SECONDS."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HEALTH_SECONDS)
    try:
        conn.request("GET", "/healthz", headers={"Host": f"127.0.0.1:{port}"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except OSError:
        return 0
    finally:
        conn.close()


def test_three_anonymous_big_bodies_leave_healthz_answering(tmp_path):
    env = base_env(SECRET_KEY=SECRET, DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
                   DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_FORMAT="text",
                   SECURE_SSL_REDIRECT="false", STATIC_COLLECTED="false",
                   REGISTRATION_RATE="1000/min")
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    token, event = run([sys.executable, "manage.py", "shell", "-c", SETUP], env).split()[-2:]
    port = free_port()
    server = Server(production_args(bind=f"127.0.0.1:{port}", workers=3), env, port,
                    tmp_path / "gunicorn.log", https=False)
    attacks = [
        (f"/api/v1/tournaments/{event}/registrations/", many_keys(BODY_BYTES, name="Gast")),
        ("/api/v1/auth/token/", many_keys(BODY_BYTES, username="x", password="y")),
        ("/api/v1/games/skat/score/", many_keys(BODY_BYTES, players=3, deals=[])),
        # with credentials: bounded per endpoint too (64 KB here)
        ("/api/v1/clubs/", many_keys(BODY_BYTES, name="Neu"), token),
        (f"/api/v1/tournaments/{event}/participants/", many_keys(BODY_BYTES, player=1),
         token),
        (f"/api/v1/tournaments/{event}/rounds/", many_keys(BODY_BYTES, method="random"),
         token),
    ]
    assert all(BODY_BYTES - 20 < len(attack[1]) < BODY_BYTES for attack in attacks)
    done, polls = threading.Event(), []
    try:
        wait_for(lambda: health(port) == 200, 30, "the three workers")

        def poll():
            while not done.is_set() or len(polls) < 5:
                polls.append(health(port))

        with ThreadPoolExecutor(max_workers=len(attacks) + 1) as pool:
            poller = pool.submit(poll)
            answers = list(pool.map(lambda attack: post(port, *attack), attacks))
            done.set()
            poller.result()
    finally:
        server.stop()
    for status, body, kind in answers:
        assert status == 413 and kind == "application/json", (status, body[:300])
        assert len(body) < 500 and json.loads(body)["detail"].startswith("Der Inhalt ist")
    assert polls and set(polls) == {200}, polls
    assert "WORKER TIMEOUT" not in (tmp_path / "gunicorn.log").read_text()
