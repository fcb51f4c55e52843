"""nginx in front of the app, as docker compose runs it (``deploy/nginx``, started here by
``config.serve.proxy_files``/``proxy_args`` with Debian's nginx), before two of the
image's gunicorn servers of one synchronous worker each: web and entry.

From outside, through the proxy:

- the tables' entry (``/api/v1/tables/``) is answered by its own pool while web's only
  worker is stopped, and everything else goes to web;
- a client that sends its body slowly holds nginx, not a worker;
- the app's limits are reached before the proxy's: a long header line, a long request
  line and a large body under ``/api/`` get the app's JSON;
- a phone that gave up while its poll waited for web's worker is shed (499, no view);
- a pool that is down: the API answers a JSON 503 in the client's language, a page a
  short page in German and English.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system.conftest import wait_for
from tests.system.servers import SECRET, Server, base_env, nginx_needed, proxied, run
from tests.system.test_client_gone import answer


@pytest.fixture(scope="module")
def pools(tmp_path_factory):
    """(proxy, web, entry): the two servers on one SQLite database, nginx before."""
    nginx_needed()
    tmp = tmp_path_factory.mktemp("proxy")
    env = base_env(SECRET_KEY=SECRET, DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
                   DATABASE_URL=f"sqlite:///{tmp / 'server.sqlite3'}", LOG_FORMAT="text",
                   TRUSTED_PROXY="true", NUM_PROXIES="1", STATIC_ROOT=str(tmp / "static"))
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    servers = {}
    try:
        # the proxy, reached as a TLS proxy in front of it would (X-Forwarded-Proto)
        proxy = proxied(env, tmp, servers, https=True)
        yield proxy, servers["web"], servers["entry"]
    finally:
        for server in servers.values():
            server.stop()
    for server in servers.values():
        assert "Traceback" not in server.log.read_text()


def worker_of(server: Server) -> int:
    """The pid of the server's one worker (a child of gunicorn's master)."""
    out = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True,
                         text=True).stdout.split()
    assert len(out) == 1, out
    return int(out[0])


ESTABLISHED, FIN_WAIT = {"01"}, {"04", "05"}  # the kernel's TCP states (FIN_WAIT1/2)


def connections_to(port: int, states: set[str]) -> bool:
    """Whether a connection on the loopback to ``port`` (from nginx) is in one of
    ``states`` (Linux's /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[2].split(":")[1], 16) == port and fields[3] in states:
            return True
    return False


def logged(server: Server, line: str) -> bool:
    """Whether the server's log has ``line`` (its own line per request is the app's,
    ``config.request_log``: method, path, status, time)."""
    return line in server.log.read_text()


def test_the_tables_entry_has_its_own_pool(pools):
    proxy, web, entry = pools
    stopped = worker_of(web)
    os.kill(stopped, signal.SIGSTOP)  # web's only worker answers nothing now
    try:
        started = time.monotonic()
        status, headers, body = proxy.request(
            "GET", "/api/v1/tables/1/deals/", headers={"Authorization": "Table nicht-gueltig"})
        # the app's own JSON answer (no such table token), from the entry pool
        assert status == 401, body
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["detail"].startswith("Ungültiger Tisch-Token"), body
        assert time.monotonic() - started < 5
        wait_for(lambda: logged(entry, 'GET /api/v1/tables/1/deals/ 401 '), 10,
                 "the entry pool's log line")
    finally:
        os.kill(stopped, signal.SIGCONT)
    assert not logged(web, "/api/v1/tables/")
    # everything else is web's
    assert proxy.request("GET", "/api/v1/tournaments/")[0] == 200
    wait_for(lambda: logged(web, 'GET /api/v1/tournaments/ 200 '), 10,
             "web's log line")
    assert not logged(entry, "/api/v1/tournaments/")


def test_a_slow_body_holds_the_proxy_not_a_worker(pools):
    proxy, _web, _entry = pools
    slow = socket.create_connection(("127.0.0.1", proxy.port))
    try:
        # a deal sent to the anonymous scorer from a phone on a weak Wi-Fi (the scorer reads
        # the body before it answers): the headers and half the body …
        body = json.dumps({"deals": [{"declarer": 1}]}).encode()
        slow.sendall(b"POST /api/v1/games/skat/score/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"X-Forwarded-Proto: https\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        time.sleep(0.5)
        # … while web's one worker answers the other phones at once (without the proxy,
        # or with nginx handing the body on as it comes, the worker would wait for the
        # rest of that body, up to gunicorn's 30 s)
        for _ in range(3):
            started = time.monotonic()
            assert proxy.request("GET", "/api/v1/tournaments/")[0] == 200
            assert time.monotonic() - started < 5
        slow.sendall(body[10:])
        assert answer(slow).startswith(b"HTTP/1.1 400")
    finally:
        slow.close()


@pytest.mark.parametrize(("path", "headers", "body", "status", "code"), [
    # a header line of 10,000 bytes: over the app's 8,192, under the proxy's 16 kB
    ("/api/v1/tournaments/", {"X-Long": "x" * 10_000}, b"", 431, None),
    # a request line of 5,000 bytes: over the app's 4,096
    ("/api/v1/tournaments/?q=" + "x" * 5_000, {}, b"", 414, None),
    # a body of 3 MB: over the app's MAX_BODY_BYTES (2.5 MiB), under the proxy's 16 MB
    ("/api/v1/clubs/", {"Content-Type": "application/json"}, b" " * 3_000_000, 413,
     "too_large"),
])
def test_the_apps_limits_come_before_the_proxys(pools, path, headers, body, status, code):
    proxy, _web, _entry = pools
    method = "POST" if body else "GET"
    got, answer_headers, content = proxy.request(method, path, body or None, headers)
    assert got == status, content[:300]
    assert answer_headers["content-type"] == "application/json"
    detail = json.loads(content)
    assert detail["detail"]
    if code:
        assert detail["code"] == code


def test_a_poll_whose_phone_gave_up_behind_the_proxy_runs_no_view(pools):
    proxy, web, _entry = pools
    stopped = worker_of(web)
    os.kill(stopped, signal.SIGSTOP)
    try:
        phone = socket.create_connection(("127.0.0.1", proxy.port))
        phone.sendall(b"GET /api/v1/tournaments/?limit=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"X-Forwarded-Proto: https\r\n\r\n")
        # nginx has handed it on: it waits for web's worker
        wait_for(lambda: connections_to(web.port, ESTABLISHED), 10, "nginx's connection")
        phone.close()  # the phone gives up, and nginx closes its connection to web
        wait_for(lambda: connections_to(web.port, FIN_WAIT), 10, "nginx's close")
    finally:
        os.kill(stopped, signal.SIGCONT)
    wait_for(lambda: logged(web, 'GET /api/v1/tournaments/ 499 '), 10,
             "the shed poll's log line")
    assert "client gone before GET /api/v1/tournaments/ was answered" in web.log.read_text()


def test_a_pool_that_is_down_is_a_503_people_can_read(pools):
    """Last in this module: it stops web."""
    proxy, web, entry = pools
    web.stop()
    status, headers, body = proxy.request("GET", "/api/v1/tournaments/")
    assert status == 503 and headers["retry-after"] == "5"
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "detail": "Der Server ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch "
                  "einmal.", "code": "unavailable"}
    status, headers, body = proxy.request(
        "GET", "/api/v1/tournaments/", headers={"Accept-Language": "en-GB,en;q=0.9,de;q=0.5"})
    assert status == 503
    assert json.loads(body)["detail"] == ("The server cannot be reached at the moment. "
                                          "Please try again shortly.")
    status, headers, body = proxy.request("GET", "/p/irgendwas/")
    assert status == 503 and headers["content-type"] == "text/html; charset=utf-8"
    page = body.decode()
    assert "Der Server ist gerade nicht erreichbar" in page
    assert "The server cannot be reached" in page
    # the tables' entry still answers: its pool is up
    assert proxy.request("GET", "/api/v1/tables/1/deals/",
                         headers={"Authorization": "Table nicht-gueltig"})[0] == 401
    entry.stop()
    status, headers, body = proxy.request("POST", "/api/v1/tables/1/deals/", b"{}",
                                          {"Content-Type": "application/json"})
    assert status == 503 and json.loads(body)["code"] == "unavailable"
