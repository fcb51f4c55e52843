"""Real processes for system tests: a private Redis, the web app under gunicorn and a
Celery worker with beat, all against the test database.

They need a database other processes can reach (PostgreSQL) and the redis-server
program, so they run in CI's PostgreSQL + Redis pass. Each test gets its own Redis on a
free port, so stopping it disturbs nothing else.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

needs_services = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql"
    or shutil.which("redis-server") is None,
    reason="needs PostgreSQL and redis-server (CI's second pass)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accept_queue(port: int) -> int:
    """How many connections wait in the accept queue of the server listening on ``port``
    (127.0.0.1): for a listening socket the kernel's ``rx_queue`` in /proc/net/tcp."""
    local = f"0100007F:{port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local and fields[3] == "0A":  # LISTEN
            return int(fields[4].split(":")[1], 16)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port}")


def wait_for(predicate, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Redis:
    def __init__(self, tmp: Path):
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.ping, 10, "redis to start")

    def ping(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def client(self):
        import redis

        return redis.Redis(port=self.port, socket_connect_timeout=1)


def service_env(redis: Redis, **extra: str) -> dict[str, str]:
    db = connection.settings_dict
    url = (f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({
        "DATABASE_URL": url, "REDIS_URL": redis.url, "DEBUG": "false",
        "SECRET_KEY": "system-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
        "STATIC_COLLECTED": "false", "STANDINGS_SWEEP_SECONDS": "2",
        "DB_CONN_MAX_AGE": "0", **extra,
    })
    return env


class Process:
    """A child process in its own process group, so a kill takes its children too."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path):
        self.args, self.env, self.log = args, env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, cwd=ROOT, env=self.env,
                                     stdout=self.log.open("ab"), stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def kill(self, sig=signal.SIGKILL) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(20)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Web(Process):
    def __init__(self, env, log):
        self.port = free_port()
        super().__init__([str(BIN / "gunicorn"), "config.wsgi", "--bind",
                          f"127.0.0.1:{self.port}", "--workers", "1", "--threads", "8"], env, log)

    def start(self) -> None:
        super().start()
        wait_for(lambda: self.request("GET", "/healthz")[0] in (200, 503), 30, "gunicorn")

    def request(self, method: str, path: str, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data,
                                     method=method, headers={"Content-Type": "application/json",
                                                             **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                raw = resp.read()
                return resp.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw) if raw else None
            except ValueError:
                return err.code, raw.decode(errors="replace")
        except (urllib.error.URLError, ConnectionError):
            return 0, None


def celery_worker(env, log) -> Process:
    return Process([str(BIN / "celery"), "-A", "config", "worker", "-B", "--loglevel=INFO",
                    "--concurrency=2", "--schedule", str(log.with_suffix(".beat")),
                    "--without-gossip", "--without-mingle"], env, log)


@pytest.fixture
def redis_server(tmp_path):
    server = Redis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def processes():
    started: list[Process] = []
    yield started
    for proc in started:
        proc.kill()


@pytest.fixture
def database_url(tmp_path):
    """A database of its own for the served app, of the kind this run tests against."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        yield f"sqlite:///{tmp_path / 'production.sqlite3'}"
        return
    import psycopg

    name = f"stichliste_smoke_{secrets.token_hex(4)}"
    admin = dict(host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"],
                 dbname="postgres", autocommit=True)
    with psycopg.connect(**admin) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{name}"
    with psycopg.connect(**admin) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
