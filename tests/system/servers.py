"""Servers started as production starts them, and a browser-like client of them, for the
system tests: the image's build step and command (``tests/system/test_production.py``) and
requests racing through several gunicorn workers (``test_racing_requests.py``)."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

from config.serve import NCHAN_MODULE, nginx_path, production_args, proxy_args, proxy_files
from tests.system.conftest import ROOT, free_port, wait_for

SECRET = "production-smoke-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"


def base_env(**extra: str) -> dict[str, str]:
    """The machine's environment without what the test run sets for itself (pytest-env
    turns STATIC_COLLECTED and the TLS redirect off; a production start has neither)."""
    drop = {"STATIC_COLLECTED", "SECURE_SSL_REDIRECT", "SECRET_KEY", "DEBUG", "REDIS_URL",
            "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST") and k not in drop}
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Server:
    """A server process and a browser-like client of it: cookies (the Secure ones too,
    since the proxy in front speaks HTTPS), CSRF on forms, a Host the app accepts."""

    def __init__(self, args: list[str], env: dict[str, str], port: int, log: Path, *,
                 https: bool):
        self.port, self.https, self.log = port, https, log
        self.cookies: dict[str, str] = {}
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log.open("ab"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(lambda: self.alive() and self.get("/healthz")[0] == 200, 60, "the server")

    def alive(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server stopped:\n{self.log.read_text()}")
        return True

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            self.proc.wait(30)

    @property
    def origin(self) -> str:
        return f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None):
        sent = {"Host": f"127.0.0.1:{self.port}", "Accept-Language": "de",
                **({"X-Forwarded-Proto": "https"} if self.https else {}), **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=sent)
            resp = conn.getresponse()
            data = resp.read()
        except OSError:
            return 0, {}, b""
        finally:
            conn.close()
        for raw in resp.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(raw).items():
                self.cookies[name] = morsel.value
        return resp.status, resp.headers, data

    def get(self, path: str, **headers: str):
        return self.request("GET", path, headers=headers)

    def api(self, method: str, path: str, body=None, auth: str | None = None):
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if auth:
            headers["Authorization"] = auth
        status, _headers, data = self.request(
            method, path, json.dumps(body).encode() if body is not None else None, headers)
        return status, json.loads(data) if data else None

    def log_in(self, username: str, password: str) -> None:
        status, _h, page = self.get("/accounts/login/")
        assert status == 200, page[:500]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"username": username, "password": password,
                                       "csrfmiddlewaretoken": token.decode()}).encode()
        status, headers, page = self.request(
            "POST", "/accounts/login/", form,
            {"Content-Type": "application/x-www-form-urlencoded",
             "Referer": f"{self.origin}/accounts/login/", "Origin": self.origin})
        assert status == 302, f"login answered {status}: {page[:800]!r}"
        assert "sessionid" in self.cookies


def one_sync_worker(tmp_path: Path) -> tuple[Server, int, Path]:
    """The image's gunicorn (``production_args``) with one synchronous worker on plain
    HTTP behind a trusted proxy's ``X-Forwarded-Proto``, on a fresh SQLite database:
    the server, its port and its log."""
    env = base_env(SECRET_KEY=SECRET, DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
                   DATABASE_URL=f"sqlite:///{tmp_path / 'server.sqlite3'}",
                   LOG_FORMAT="text", TRUSTED_PROXY="true", STATIC_ROOT=str(tmp_path / "static"))
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    port = free_port()
    log = tmp_path / "gunicorn.log"
    return Server(production_args(bind=f"127.0.0.1:{port}", workers=1), env, port, log,
                  https=False), port, log


def nginx_needed() -> None:
    """Skip without nginx (fail on CI, which must run the proxy's tests)."""
    import pytest

    reason = None
    if nginx_path() is None:
        reason = "nginx is not installed (apt-get install nginx libnginx-mod-nchan)"
    elif not Path(NCHAN_MODULE).is_file():
        reason = "nginx's pub/sub module is not installed (apt-get install libnginx-mod-nchan)"
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason}: CI must run this test")
        pytest.skip(reason)


def proxied(env: dict[str, str], tmp: Path, servers: dict[str, Server], *, https: bool,
            each: int = 1) -> Server:
    """The image's three pools (web, entry and board: gunicorn, one worker each) put in
    ``servers``, and nginx before them as docker compose runs it, the app publishing to
    its push port (``PUSH_URL``): returned. ``each``: servers of each pool (the second
    ones named ``web2``, ``entry2`` and ``board2``), as compose runs them scaled."""
    push = free_port()
    env = {**env, "PUSH_URL": f"http://127.0.0.1:{push}"}
    pools: dict[str, list[str]] = {"web": [], "entry": [], "board": []}
    for name in pools:
        for number in range(1, each + 1):
            port, named = free_port(), name + (str(number) if number > 1 else "")
            servers[named] = Server(production_args(bind=f"127.0.0.1:{port}", workers=1),
                                    env, port, tmp / f"{named}.log", https=False)
            pools[name].append(f"127.0.0.1:{port}")
    port = free_port()
    main = proxy_files(tmp / "nginx", port=port, web=pools["web"], entry=pools["entry"],
                       board=pools["board"], push=push)
    servers["proxy"] = Server(proxy_args(main), env, port, tmp / "nginx.log", https=https)
    return servers["proxy"]
