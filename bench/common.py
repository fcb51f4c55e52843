"""What more than one benchmark needs: timing, medians and ratios against a baseline,
the machine's load (figures of a shared machine mean little without it), and the bench
database (a PostgreSQL database of its own, created and migrated on demand).

Terms: a *baseline* is the simplest way to do the same work, timed in the same run; a
*ratio* is measured time over baseline time, so runs on a busy or a quiet machine stay
comparable.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import io
import os
import platform
import pstats
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent  # the repository root


# --------------------------------------------------------------------------- options

# the options whose values are fractions; every other counted option is a whole number
_FRACTION_OPTIONS = frozenset({"seconds", "minutes", "poll", "phone_tables"})
_OPTION_HELP = {"deals": "deals per table and series"}


def bench_parser(doc: str, **defaults: float) -> argparse.ArgumentParser:
    """A bench's argument parser, described by the first paragraph of its ``doc``, with an
    option for each keyword at that default (``http_rounds=3``: ``--http-rounds``); the
    bench adds its other options."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    for name, default in defaults.items():
        parser.add_argument("--" + name.replace("_", "-"), default=default,
                            type=float if name in _FRACTION_OPTIONS else int,
                            help=_OPTION_HELP.get(name))
    return parser


# --------------------------------------------------------------------------- timing


def timed(function: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``function(*args, **kwargs)`` and the seconds it took (``perf_counter``)."""
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def median(values: Iterable[float]) -> float:
    return statistics.median(values)


def ratio(measured: float, baseline: float) -> float:
    """How many times the baseline ``measured`` took (infinite for a zero baseline)."""
    return measured / baseline if baseline else float("inf")


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms"


# --------------------------------------------------------------------------- machine


def load_average() -> float:
    """The 1-minute load average (0.0 where the platform has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def machine() -> str:
    """One line on where the figures come from: cores, load, Python."""
    try:
        loads = "/".join(f"{value:.1f}" for value in os.getloadavg())
    except (AttributeError, OSError):
        loads = "unknown"
    return (f"{os.cpu_count()} cores, load average {loads} (1/5/15 min), "
            f"Python {platform.python_version()} on {platform.system()}")


# --------------------------------------------------------------------------- database

# Every setting of a Django bench comes from the environment; these are the defaults
# (a variable already set wins).
DJANGO_DEFAULTS = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/stichliste_bench",
    "REDIS_URL": "redis://127.0.0.1:6379/14",
    "SECRET_KEY": "bench-not-a-secret-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789",
    "DEBUG": "false",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "false",
    "STATIC_COLLECTED": "false",
}


def use_bench_environment() -> None:
    """Fill in ``DJANGO_DEFAULTS`` for every variable not set; call before Django loads."""
    for name, value in DJANGO_DEFAULTS.items():
        os.environ.setdefault(name, value)


def database_url_parts(url: str) -> dict[str, Any]:
    """The connection parts of a PostgreSQL ``DATABASE_URL`` whose database name
    contains "bench" (benches empty their tables, so they refuse any other database)."""
    parsed = urlparse(url)
    if parsed.scheme not in ("postgres", "postgresql"):
        sys.exit(f"DATABASE_URL={url!r}: the bench needs PostgreSQL")
    name = unquote(parsed.path.lstrip("/"))
    if "bench" not in name:
        sys.exit(f"DATABASE_URL names the database {name!r}; the bench empties its "
                 "tables, so the name must contain 'bench'")
    return {"host": parsed.hostname, "port": parsed.port or 5432,
            "user": unquote(parsed.username or ""), "password": unquote(parsed.password or ""),
            "dbname": name}


def ensure_database(*, recreate: bool = False) -> None:
    """Create the bench database when missing (dropped first with ``recreate``)."""
    import psycopg
    from psycopg import sql

    parts = database_url_parts(os.environ["DATABASE_URL"])
    name = parts.pop("dbname")
    with psycopg.connect(dbname="postgres", autocommit=True, **parts) as conn:
        if recreate:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                         .format(sql.Identifier(name)))
        elif conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                          (name,)).fetchone():
            return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"created database {name}")


def setup_django() -> None:
    """Bench environment, database, ``django.setup()`` and migrations; a database whose
    migrations no longer apply (e.g. one renamed since the last run) is made afresh —
    it holds nothing but a bench's own rows."""
    use_bench_environment()
    ensure_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    if settings.DEBUG:
        print("warning: DEBUG is on; figures are not representative", file=sys.stderr)
    try:
        call_command("migrate", verbosity=0, interactive=False)
    except Exception as exc:  # noqa: BLE001 - whatever failed, start afresh
        print(f"migrate failed ({exc.__class__.__name__}: {exc}); recreating the database")
        from django.db import connections

        connections.close_all()
        ensure_database(recreate=True)
        call_command("migrate", verbosity=0, interactive=False)


# --------------------------------------------------------------------------- profiles


def top_functions(profiler: cProfile.Profile, count: int = 12) -> str:
    """The ``count`` functions of a profile that took the most time of their own."""
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(count)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(lines[start:start + count + 1])


# --------------------------------------------------------------------------- HTTP


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def check_answers(port: int, scenarios: dict[str, tuple]) -> None:
    """Stop the bench unless each scenario ``name: (path, headers, status, …)`` is answered
    with its status."""
    for name, (path, headers, expect, *_more) in scenarios.items():
        got = fetch(port, path, headers)[0]
        if got != expect:
            raise SystemExit(f"{name}: answered {got}, expected {expect}")


def load_client(choice: str) -> str:
    """The load generator of a ``--client`` choice: ``auto`` is wrk where it is installed,
    else Python threads."""
    if choice == "auto":
        return "wrk" if shutil.which("wrk") else "python"
    return choice


def wait_ready(port: int, path: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited:\n{log.read_text()[-3000:]}")
        try:
            if fetch(port, path)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer within 60 s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def gunicorn(*, workers: int, threads: int = 1, ready_path: str = "/api/v1/",
             env: dict[str, str] | None = None, cwd: Path = ROOT) -> Iterator[int]:
    """``config.wsgi`` served by gunicorn on a free port of 127.0.0.1 (the repository's
    ``gunicorn.conf.py``, as the image serves it); yields the port once ``ready_path``
    answers 200, and stops the server afterwards. ``cwd``: the tree whose code it serves
    (another checkout's, for "before" figures; put it on ``PYTHONPATH`` in ``env``)."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
               "--threads", str(threads), "--bind", f"127.0.0.1:{port}"]
    with tempfile.TemporaryDirectory(prefix="bench-gunicorn-") as tmp:
        log = Path(tmp) / "gunicorn.log"
        with open(log, "wb") as log_file:
            proc = subprocess.Popen(command, cwd=cwd, env={**os.environ, **(env or {})},
                                    stdout=log_file, stderr=subprocess.STDOUT)
        try:
            wait_ready(port, ready_path, proc, log)
            yield port
        finally:
            stop(proc)


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Stop a server the bench started: SIGTERM, then SIGKILL after ``timeout``."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# Load on 127.0.0.1: wrk (``apt-get install wrk``) or Python threads as the clients.


class Together:
    """Client threads that start at once and share one deadline: each calls ``start()``
    (after its own set-up) and gets the deadline; ``run`` starts ``target(i)`` for each
    client, sets the deadline ``seconds`` ahead, lets them go and waits for them all."""

    def __init__(self, clients: int):
        self.clients = clients
        self.barrier = threading.Barrier(clients + 1)
        self.deadline = 0.0

    def start(self) -> float:
        self.barrier.wait()
        return self.deadline

    def run(self, target: Callable[[int], None], seconds: float) -> None:
        threads = [threading.Thread(target=target, args=(i,), daemon=True)
                   for i in range(self.clients)]
        for thread in threads:
            thread.start()
        self.deadline = time.perf_counter() + 0.05 + seconds
        self.barrier.wait()
        for thread in threads:
            thread.join()


def python_load(port: int, path: str, headers: dict, clients: int, seconds: float,
                expect: int) -> dict:
    """``clients`` threads, each with one keep-alive connection, for ``seconds``."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    together = Together(clients)

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.connect()
        finally:
            deadline = together.start()  # never leave the others waiting
        out = latencies[i]
        while True:
            t0 = time.perf_counter()
            if t0 >= deadline:
                break
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == expect
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            t1 = time.perf_counter()
            if t1 > deadline:
                break  # only requests completed within the window count
            if ok:
                out.append(t1 - t0)
            else:
                errors[i] += 1
        conn.close()

    together.run(worker, seconds)
    samples = sorted(x for part in latencies for x in part)
    if not samples:
        return {"requests": 0, "rps": 0.0, "p50": float("nan"), "p95": float("nan"),
                "errors": sum(errors)}
    return {"requests": len(samples), "rps": len(samples) / seconds,
            "p50": samples[len(samples) // 2],
            "p95": samples[min(len(samples) - 1, int(len(samples) * 0.95))],
            "errors": sum(errors)}


WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRKRESULT %d %d %f %f %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95),
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


def wrk_load(port: int, path: str, headers: dict, clients: int, seconds: float,
             expect: int, script: Path) -> dict:
    """wrk (2 threads, ``clients`` keep-alive connections); statuses checked beforehand."""
    command = ["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds:g}s", "--timeout", "30s",
               "-s", str(script)]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    command.append(f"http://127.0.0.1:{port}{path}")
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("WRKRESULT"))
    requests, duration_us, p50, p95, errors = line.split()[1:]
    return {"requests": int(requests), "rps": int(requests) / (int(duration_us) / 1e6),
            "p50": float(p50) / 1e6, "p95": float(p95) / 1e6, "errors": int(errors)}


# --------------------------------------------------------------------------- the field

# The names of the bench's players (random first and last names from these).
FIRST = ("Anna", "Bernd", "Claudia", "Dieter", "Elke", "Frank", "Gisela", "Hans", "Ilse",
         "Jürgen", "Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate",
         "Stefan", "Traudel", "Uwe", "Vera", "Werner", "Yvonne", "Zoë")
LAST = ("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
        "Schulz", "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf",
        "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann",
        "Hartmann", "Lange", "Schmitt", "Werner", "Krause", "Meier", "Lehmann")
SKAT_RULES = {"kontra_re": True, "ramsch": True}  # + series_deals_4 of the bench
CHAMPIONSHIP = "Bench-Meisterschaft"
DIRECTOR = "bench-director"


def skat_championship(*, players: int, deals: int, seed: int, day=None):
    """An empty bench database's published Skat championship (Seeger-Fabian, Kontra/Re,
    Ramsch, series of ``deals`` at a table of 4) with ``players`` checked-in
    participants (each with its personal token, made with the participant), directed
    by the staff user ``DIRECTOR``, played on ``day`` (default 2024-06-17; players'
    tokens open their pages only for some days after it). TRUNCATEs the bench
    database's tournaments and players first. Returns the tournament and the
    ``random.Random(seed)`` that named the players (the standings bench draws its deals
    from it next)."""
    import datetime
    import random

    from django.contrib.auth import get_user_model
    from django.db import connection

    from clubs.models import Player
    from tournaments.models import Participant
    from tournaments.services.entries import tournament_create

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_tournament, clubs_player RESTART IDENTITY CASCADE")
    user, _created = get_user_model().objects.get_or_create(
        username=DIRECTOR, defaults={"is_staff": True})
    tournament = tournament_create(name=CHAMPIONSHIP, game="skat",
                                   rules={**SKAT_RULES, "series_deals_4": deals},
                                   date=day or datetime.date(2024, 6, 17), director=user,
                                   published=True)
    rng = random.Random(seed)
    made = Player.objects.bulk_create(
        Player(name=f"{rng.choice(FIRST)} {rng.choice(LAST)}") for _ in range(players))
    Participant.objects.bulk_create(
        Participant(tournament=tournament, player=p, start_number=i, checked_in=True)
        for i, p in enumerate(made, start=1))
    return tournament, rng
