"""A deal POST against the framework's floor (issue 26, item 1).

Usage (from the repository root, PostgreSQL and Redis running)::

    .venv/bin/python -m bench.bench_entry [--requests 200] [--profile]
        [--clients 20 --seconds 10]

Not collected by pytest. Django is configured from the environment with the defaults of
``bench.common.DJANGO_DEFAULTS`` (the database name must contain "bench"; its
tournaments and players are TRUNCATEd on every run).

Build: one published Skat tournament (Kontra/Re, Ramsch, series of 48 deals at a table of
4), one round drawn at random into tables of 4, every table's entry token, and a staff
user with an API token.

Modes:

- default: gunicorn (``config.wsgi``, 1 worker) and one client on one keep-alive
  connection: ``--requests`` deal POSTs (``POST /api/v1/tables/{id}/deals/``,
  ``Authorization: Table <token>``, a fresh ``Idempotency-Key`` each; valid random deals
  of ``bench_skat_engine``'s generator, numbered 1..48 per table) interleaved with as
  many player POSTs (``POST /api/v1/players/`` with the staff token: a plain
  authenticated create through the same stack, the baseline); p50/p95 of each and the
  ratio (goal: deal p50 at most 1.5x the player POST's).
- ``--profile``: the deal POST in process (Django's test client against the bench
  database) under cProfile: the top functions, and the queries of one deal POST, of a
  replayed POST and of a correction PUT (``CaptureQueriesContext``).
- ``--clients 20 --seconds 10``: 20 tablets, each on its own table (and the next table
  when its sheet is full), posting as fast as they can against gunicorn with 3 workers:
  deals/s, p50 and p95. Then the board: the standings must show every deal entered; the
  time from the last POST until they do is printed (a Celery worker is started for it
  unless ``--no-worker``).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import http.client
import json
import logging
import random
import subprocess
import sys
import threading
import time
import uuid

from bench.bench_skat_engine import random_deal
from bench.common import (
    ROOT,
    Together,
    gunicorn,
    load_average,
    machine,
    median,
    ms,
    ratio,
    setup_django,
    stop,
    top_functions,
)

SEED = 20261126
RULES = {"kontra_re": True, "ramsch": True}
TABLE_SIZE = 4
NAME = "Bench-Eingabe"


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


# --------------------------------------------------------------------------- build


def build(tables: int) -> dict:
    """The tournament with ``tables`` tables of one drawn round; returns the tournament
    id, the tables as (id, token) and the staff token."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from clubs.models import Player
    from tournaments.models import Participant, Table
    from tournaments.recompute.tasks import STANDINGS
    from tournaments.services.entries import tournament_create
    from tournaments.services.rounds import round_draw

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_tournament, clubs_player RESTART IDENTITY CASCADE")
    user, _ = get_user_model().objects.get_or_create(
        username="bench-entry", defaults={"is_staff": True, "is_superuser": True})
    token, _ = Token.objects.get_or_create(user=user)
    tournament = tournament_create(name=NAME, game="skat", rules=RULES,
                                   date=datetime.date(2026, 11, 26), director=user,
                                   published=True)
    players = Player.objects.bulk_create(Player(name=f"Spieler {i}")
                                         for i in range(1, tables * TABLE_SIZE + 1))
    Participant.objects.bulk_create(
        Participant(tournament=tournament, player=p, start_number=i, checked_in=True)
        for i, p in enumerate(players, start=1))
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=SEED)
    found = list(Table.objects.filter(round=rnd).order_by("number")
                 .values_list("pk", "entry_token"))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    STANDINGS.forget(tournament.pk)  # an earlier run's mark (same id) would hold a publish
    return {"tournament": tournament.pk, "tables": found, "staff": token.key}


def series(rng: random.Random) -> list[dict]:
    """One table's 48 deals as the API takes them (the record plus its number)."""
    from games.engines import get_engine

    engine = get_engine("skat")
    rules = engine.options(RULES)
    length = engine.sheet_length(TABLE_SIZE, rules)
    return [{**random_deal(rng, number, rules), "number": number}
            for number in range(1, length + 1)]


def deal_request(table: tuple[int, str], body: dict) -> tuple[str, str, bytes, dict]:
    return ("POST", f"/api/v1/tables/{table[0]}/deals/", json.dumps(body).encode(),
            {"Authorization": f"Table {table[1]}", "Idempotency-Key": uuid.uuid4().hex,
             "Content-Type": "application/json"})


def player_request(staff: str) -> tuple[str, str, bytes, dict]:
    return ("POST", "/api/v1/players/",
            json.dumps({"name": f"Gast {uuid.uuid4().hex[:10]}"}).encode(),
            {"Authorization": f"Token {staff}", "Content-Type": "application/json"})


def send(conn: http.client.HTTPConnection, request) -> tuple[int, float]:
    method, path, body, headers = request
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - start


# --------------------------------------------------------------------------- one client


def one_client(built: dict, requests: int) -> dict:
    rng = random.Random(SEED)
    deals = [(table, body) for table in built["tables"] for body in series(rng)]
    if len(deals) < requests + 10:
        raise SystemExit("too few tables for --requests")
    deal_times, player_times = [], []
    with gunicorn(workers=1) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for index, (table, body) in enumerate(deals[:requests + 10]):
            status, seconds = send(conn, deal_request(table, body))
            if status != 201:
                raise SystemExit(f"deal POST answered {status}")
            p_status, p_seconds = send(conn, player_request(built["staff"]))
            if p_status != 201:
                raise SystemExit(f"player POST answered {p_status}")
            if index >= 10:  # the first ten warm the worker up
                deal_times.append(seconds)
                player_times.append(p_seconds)
        conn.close()
    return {"deal": deal_times, "player": player_times}


# --------------------------------------------------------------------------- many tablets


def many_clients(built: dict, clients: int, seconds: float) -> dict:
    rng = random.Random(SEED)
    tables = list(built["tables"])
    sheets = [series(rng) for _ in range(len(tables))]
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    state: dict = {"next": 0}
    together = Together(clients)

    def next_table() -> int | None:
        with lock:
            index = state["next"]
            state["next"] += 1
        return index if index < len(tables) else None

    def tablet(port: int, i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        deadline = together.start()
        index = next_table()
        position = 0
        while index is not None and time.perf_counter() < deadline:
            request = deal_request(tables[index], sheets[index][position])
            try:
                status, took = send(conn, request)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                errors[i] += 1
                continue
            if time.perf_counter() > deadline:
                break
            if status != 201:
                errors[i] += 1
                continue
            latencies[i].append(took)
            position += 1
            if position == len(sheets[index]):
                index, position = next_table(), 0
        conn.close()

    with gunicorn(workers=3) as port:
        together.run(functools.partial(tablet, port), seconds)
        ended = time.perf_counter()
        samples = [x for part in latencies for x in part]
        if state["next"] > len(tables):
            print("warning: the tables ran out before the time did", file=sys.stderr)
        board = board_delay(port, built["tournament"], ended)
    return {"deals": len(samples), "rate": len(samples) / seconds,
            "p50": percentile(samples, 0.5) if samples else float("nan"),
            "p95": percentile(samples, 0.95) if samples else float("nan"),
            "errors": sum(errors), "board": board}


def board_delay(port: int, tournament_id: int, ended: float,
                limit: float = 60.0) -> float | None:
    """Seconds from the end of the load until the public standings hold every deal
    entered: not ``stale`` (no change waits in the outbox) and computed after the last
    POST answered; None when they do not within ``limit``."""
    import datetime

    since = datetime.datetime.now(datetime.UTC) - datetime.timedelta(
        seconds=time.perf_counter() - ended)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        while time.perf_counter() - ended < limit:
            conn.request("GET", f"/api/v1/tournaments/{tournament_id}/standings/")
            response = conn.getresponse()
            body = json.loads(response.read())
            if (response.status == 200 and not body["stale"] and body["computed_at"]
                    and datetime.datetime.fromisoformat(body["computed_at"]) >= since):
                return time.perf_counter() - ended
            time.sleep(0.05)
        return None
    finally:
        conn.close()


# --------------------------------------------------------------------------- profile


def profile(built: dict, count: int = 40) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext


    rng = random.Random(SEED + 1)
    table = built["tables"][-1]
    bodies = series(rng)
    client = Client(HTTP_HOST="127.0.0.1")
    headers = {"HTTP_AUTHORIZATION": f"Table {table[1]}"}

    def post(body, key=None):
        return client.post(f"/api/v1/tables/{table[0]}/deals/", data=json.dumps(body),
                           content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY=key or uuid.uuid4().hex, **headers)

    for body in bodies[:3]:  # warm up: imports, caches, the first connection
        assert post(body).status_code == 201
    key = uuid.uuid4().hex
    with CaptureQueriesContext(connection) as first:
        answer = post(bodies[3], key)
    assert answer.status_code == 201, answer.content
    with CaptureQueriesContext(connection) as replay:
        again = post(bodies[3], key)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    etag = answer["ETag"]
    with CaptureQueriesContext(connection) as correct:
        put = client.put(f"/api/v1/tables/{table[0]}/deals/4/", data=json.dumps(
            {k: v for k, v in bodies[3].items() if k != "number"}),
            content_type="application/json", HTTP_IF_MATCH=etag, **headers)
    assert put.status_code == 200, put.content
    for label, captured in (("deal POST", first), ("replayed POST", replay),
                            ("correction PUT", correct)):
        print(f"\nqueries of one {label}: {len(captured.captured_queries)}")
        for query in captured.captured_queries:  # statements sent together, each
            for statement in query["sql"].split(";\n"):
                print(f"    {statement[:160]}")
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for body in bodies[4:4 + count]:
        post(body)
    profiler.disable()
    took = time.perf_counter() - start
    print(f"\nprofile of {count} deal POSTs in process: {ms(took / count)} per POST "
          "(under cProfile)")
    print(top_functions(profiler, 25))


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--clients", type=int, default=0,
                        help="tablets posting at once (0: the one-client comparison)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--no-worker", action="store_true",
                        help="with --clients: start no Celery worker for the board")
    args = parser.parse_args()

    setup_django()
    logging.getLogger("stichliste.request").setLevel(logging.WARNING)  # one line a request
    if args.profile:
        built = build(tables=2)
        print(f"machine: {machine()}")
        profile(built)
        return
    if args.clients:
        built = build(tables=args.clients * 10)
        worker = None
        if not args.no_worker:
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
                 "--loglevel", "warning", "--without-gossip", "--without-mingle"],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            load = load_average()
            result = many_clients(built, args.clients, args.seconds)
        finally:
            if worker is not None:
                stop(worker, timeout=30)
        print(f"machine: {machine()} (1-min load {load:.1f} at the start)")
        board = result["board"]
        print(f"{args.clients} tablets, {args.seconds:g} s, 3 gunicorn workers: "
              f"{result['deals']} deals, {result['rate']:.1f} deals/s, p50 "
              f"{ms(result['p50'])}, p95 {ms(result['p95'])}, errors {result['errors']}; "
              "board shows every deal "
              + ("never (within 60 s)" if board is None else f"{board:.2f} s after the load"))
        return
    built = build(tables=args.requests // 48 + 2)
    load = load_average()
    result = one_client(built, args.requests)
    deal, player = median(result["deal"]), median(result["player"])
    print(f"machine: {machine()} (1-min load {load:.1f} at the start)")
    print(f"one client, {args.requests} of each, gunicorn 1 worker, keep-alive")
    print(f"    player POST (baseline)  p50 {ms(player):>9}  p95 "
          f"{ms(percentile(result['player'], 0.95)):>9}")
    print(f"    deal POST               p50 {ms(deal):>9}  p95 "
          f"{ms(percentile(result['deal'], 0.95)):>9}")
    print(f"    ratio deal/player p50 {ratio(deal, player):.2f}x  (goal <= 1.5x: "
          f"{'met' if ratio(deal, player) <= 1.5 else 'MISSED'})")


if __name__ == "__main__":
    main()
