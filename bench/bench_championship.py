"""A championship day through the HTTP API: 750 tables enter their deals while 2,000
phones poll the board and their own pages (issue 26).

Usage (from the repository root, PostgreSQL and Redis running)::

    .venv/bin/python -m bench.bench_championship [--players 300] [--deals 48]
        [--minutes 1] [--phones 200] [--poll 5] [--servers 1|2] [--web-workers 5]
        [--web-threads 1] [--proxy] [--entry-workers 2] [--board-workers 1]
        [--web-nice 10] [--workers 2]
        [--generators 2] [--phone-tables 0.2] [--reuse] [--logs DIR]
        [--json PATH]

The full day is ``--players 3000 --minutes 10 --phones 2000``. Not collected by pytest;
it configures Django from the environment as every bench (``bench.common``), so set
``DATABASE_URL`` to a database whose name contains "bench" and ``REDIS_URL`` (cache and
Celery broker) to a Redis database of its own.

**Build.** ``bench.common.skat_championship`` (the standings bench's field: a published
Skat tournament, ``--players`` checked-in participants, each with its personal token),
round 1 drawn by the real ``round_draw`` (random), every sheet empty.

**Servers.** ``--servers`` gunicorn instances (``config.serve.production_args``, the way
the image starts it: ``config.wsgi``, ``gunicorn.conf.py``, ``--web-workers`` worker
processes, synchronous or with ``--web-threads`` threads each as ``WEB_THREADS`` gives
them) on their own ports, and ``--workers`` Celery workers (``celery -A config
worker --concurrency 1``, as docker compose starts the worker), all sharing one
PostgreSQL database and one Redis. No beat: every deal's POST publishes its recompute;
the sweep is the safety net after an outage. With ``--proxy`` a server is what docker
compose runs, web (``--web-workers``), the tables' entry (``--entry-workers``) and the
board (``--board-workers``: the public answers the proxy keeps), and one nginx
(``deploy/nginx``, Debian's) is in front of every server, as compose runs it scaled: the
clients reach nginx (keep-alive then), the pages go round the servers, a table's deals go
to one server's entry (split by table); the web and board pools run ``--web-nice`` lower
than the rest (``WEB_NICE``; compose gives the entry's container eight times their
``cpu_shares``), so the deals get the processor first.

**Load** (``--generators`` processes, each an asyncio loop with raw HTTP/1.1 over
``asyncio.open_connection``; keep-alive where the server keeps the connection, which
gunicorn's sync workers never do, and, as a browser does, the request sent again on a new
connection where the server had closed the kept one idle):

- every table posts its deals 1…``--deals`` in order (valid random deals of
  ``bench_skat_engine``, numbered and dealt as at a table of 4) to
  ``POST /api/v1/tables/{id}/deals/`` with ``Authorization: Table <entry token>``, or, for
  ``--phone-tables`` of the tables, from a seated player's phone with ``Authorization:
  Player <personal token>``; each after a random think time (``post_schedule``), so a
  table's series spreads over the run and the whole field posts players/4 × deals in
  ``--minutes``. A timeout, a lost connection or a 5xx is retried with the same
  ``Idempotency-Key``, as the tablet's offline queue does;
- ``--phones`` phones poll every ``--poll`` s, alternately the board's standings fragment
  (``/p/<slug>/standings/``) and their own live page (``/me/<token>/live/``) followed
  by its standing (``/p/<slug>/ranks/<page>/``), each with the ``If-None-Match`` of its
  last answer (as ``static/js/me.js`` does);
- baselines in the same run: ``--phones``/20 pollers of the public API standings
  (``/api/v1/tournaments/{id}/standings/``, same pace, same If-None-Match), and one staff
  client per server creating a player (``POST /api/v1/players/``, ``Authorization: Token``)
  once a second: a plain authenticated POST;
- a watcher per server polls the API standings 5 times a second (with the ETag of its
  last answer, ``tournaments.freshness``); each 200 names the computation it serves
  (``computed_at``) and whether changes were pending (``stale``).

**Board delay** (``shown_delays``). A deal's time is the moment its 201 reached the
client (after the commit). It is *shown* when the watcher first receives a computation
whose ``computed_at`` is later than that ("first"). That computation may have read the
outbox a few hundred ms before it stamped ``computed_at`` and so, rarely, miss the deal;
the next computation after it cannot (recomputes of one tournament are serialised by the
state row's lock, and the next one starts after the first committed): "sure" is the
moment the watcher first receives that next computation — an upper bound. With two
servers the deals posted to server A are timed on server B's watcher; behind one proxy
each watcher asks its server's board pool directly, where the proxy sends the API's
standings (the proxy would send it to either: these delays leave out its lifetime of at
most 2 s), and the entry pools' logs tell which server took a table's deals.

**Lost or doubled** (``account``): after the run, the deals in the database per table
against those the clients got a 201 for. **CPU per deal**: the CPU seconds
(``/proc/<pid>/stat``) over the run of the gunicorn and Celery process trees, the
PostgreSQL backends connected to the bench database (sampled every second: a backend
that ends between samples loses its last second) and the Redis server (shared with
other users of the machine), divided by the deals posted. The generators report their
own CPU and their event loops' lag, to show they were not the bottleneck.

**The servers' answers** (``server_answers``): each server's own log line per request
(``config.request_log``), counted by kind and status after the run; a 499 there is a
read whose client had already gone when a worker took it up (``config/client_gone.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import datetime
import functools
import gzip
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

from bench.common import (
    ROOT,
    bench_parser,
    fetch,
    free_port,
    load_average,
    machine,
    setup_django,
    skat_championship,
    stop,
    wait_ready,
)

SEED = 20261126
TABLE_SIZE = 4
WATCH_EVERY = 0.2  # s between the watcher's polls of the API standings
BASELINE_POST_EVERY = 1.0  # s between the staff client's player creations
RETRY_PAUSE = 0.5  # s before a failed POST is sent again
TAIL = 45  # s the watcher goes on after the run: the standings catch up
GIVE_UP_AFTER = 60  # s after the run's end a table stops posting (and retrying)
OPENING = 60  # s: the opening, in which every phone opens its page, reported apart too
PUSHED_PART_EVERY = 60  # s: a pushed phone's live part and card this often, ± ¼ (me.js)
SPREAD = 5  # s a pushed phone waits at most after a message of the whole tournament
TABLE_SPREAD = 1  # s … after a message of its table


# --------------------------------------------------------------------------- pure parts


def post_schedule(tables: int, deals: int, seconds: float,
                  rng: random.Random) -> list[list[float]]:
    """For each table, when (s after the start) it posts deals 1…``deals``: think times
    drawn from 0.5–1.5 × the mean, scaled so that the table's last deal falls in the last
    tenth of the run. The field posts ``tables × deals`` deals over ``seconds`` at an even
    overall pace, each table at its own."""
    plan = []
    for _ in range(tables):
        gaps = [rng.uniform(0.5, 1.5) for _ in range(deals)]
        scale = seconds * rng.uniform(0.9, 1.0) / sum(gaps)
        at, offsets = 0.0, []
        for gap in gaps:
            at += gap * scale
            offsets.append(at)
        plan.append(offsets)
    return plan


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def account(acked: dict[int, set[int]], stored: dict[int, list[int]]) -> dict[str, int]:
    """Deals the clients got a 201 for (``acked``: table → numbers) against the deals in
    the database (``stored``: table → numbers, one per row): ``lost`` were answered 201
    but are not stored, ``doubled`` are stored more than once, ``unanswered`` are stored
    though no 201 reached the client (the client gave up)."""
    lost = sum(len(numbers - set(stored.get(table, ()))) for table, numbers in acked.items())
    doubled = sum(len(numbers) - len(set(numbers)) for numbers in stored.values())
    unanswered = sum(len(set(numbers) - acked.get(table, set()))
                     for table, numbers in stored.items())
    return {"acked": sum(map(len, acked.values())),
            "stored": sum(map(len, stored.values())),
            "lost": lost, "doubled": doubled, "unanswered": unanswered}


def shown_delays(acks: list[float],
                 seen: list[tuple[float, float]]) -> tuple[list[float], list[float], int, int]:
    """How long after each deal's 201 (``acks``: client times) the board showed it.

    ``seen``: the watcher's answers as (time received, ``computed_at``). For each deal the
    first computation stamped after its 201 ("first") and the computation after that one
    ("sure"), each at the moment the watcher first received it. Returns both lists of
    delays, the number of deals no computation served after them covered (not shown) and
    the number without a later computation (no "sure" figure: the run's last deals)."""
    first_seen: dict[float, float] = {}
    for received, computed in seen:
        if computed not in first_seen or received < first_seen[computed]:
            first_seen[computed] = received
    computations = sorted(first_seen)
    first, sure, missing, unsure = [], [], 0, 0
    for ack in acks:
        i = bisect.bisect_right(computations, ack)
        if i >= len(computations):
            missing += 1
            continue
        first.append(first_seen[computations[i]] - ack)
        if i + 1 < len(computations):
            sure.append(first_seen[computations[i + 1]] - ack)
        else:
            unsure += 1
    return first, sure, missing, unsure


def phone_delays(acks: list[tuple], pushed: list[tuple]) -> dict:
    """s from a deal's 201 until a phone at its table holds its card fetched for
    the first message on the table's channels that came after the deal's POST was sent
    (its commit, whose publish sends the message, lies in between; 0 when the phone had
    it before the tablet had its 201), and the deals no phone showed."""
    fetched: dict[int, list[tuple[float, float]]] = {}
    for table, message_at, answered_at in pushed:
        fetched.setdefault(table, []).append((message_at, answered_at))
    delays, missing = [], 0
    for table, _number, at, seconds, *_rest in acks:
        if table not in fetched:
            continue
        found = [answered for message, answered in fetched[table] if message >= at - seconds]
        if found:
            delays.append(max(0.0, min(found) - at))
        else:
            missing += 1
    return {"n": len(delays), "missing": missing,
            **{q: percentile(delays, q) for q in (50, 95, 100)}}


def body_version(data: bytes) -> tuple[float | None, bool]:
    """The ``computed_at`` (epoch seconds; None: never computed) a standings answer
    names, and whether changes were pending (``stale``) when it was served."""
    try:
        body = json.loads(data)
        computed = body["computed_at"]
        return (datetime.datetime.fromisoformat(computed.replace("Z", "+00:00")).timestamp()
                if computed else None), bool(body["stale"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, True


# --------------------------------------------------------------------------- HTTP client


class Closed(Exception):
    """The server closed the connection before a whole answer."""


class Connection:
    """One HTTP/1.1 connection to 127.0.0.1:``port``, reopened when the server closed it."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.received = 0  # bytes of every answer read: status line, headers, body
        self.heads = 0  # … of those, the status lines' and headers'
        self.last_body, self.last_headers = b"", {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"", timeout: float = 30) -> tuple[int, dict, bytes]:
        try:
            return await asyncio.wait_for(self._request(method, path, headers, body), timeout)
        except BaseException:
            self.close()
            raise

    async def _request(self, method, path, headers, body):
        reused = self.writer is not None
        if not reused:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method in ("POST", "PUT"):
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        reader = self.reader
        try:
            status_line = await reader.readline()
        except ConnectionResetError:
            status_line = b""
        if not status_line:
            if reused:  # the server closed it idle (keepalive_timeout): a browser asks again
                self.close()
                return await self._request(method, path, headers, body)
            raise Closed
        status = int(status_line.split()[1])
        self.received += len(status_line)
        self.heads += len(status_line)
        answer: dict[str, str] = {}
        while True:
            line = await reader.readline()
            if not line:
                raise Closed
            self.received += len(line)
            self.heads += len(line)
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        if status in (204, 304) or method == "HEAD":
            data = b""
        elif "content-length" in answer:
            data = await reader.readexactly(int(answer["content-length"]))
        elif answer.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await reader.readline()
                    break
                parts.append(await reader.readexactly(size))
                await reader.readline()
            data = b"".join(parts)
        else:
            data = await reader.read()
            answer["connection"] = "close"
        self.received += len(data)
        self.last_body, self.last_headers = data, answer
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, data


# --------------------------------------------------------------------------- generator

# what a request may end in besides an answer: the tablet retries, a phone polls again
NETWORK_ERRORS = (OSError, TimeoutError, asyncio.IncompleteReadError, Closed, ValueError,
                  IndexError)


async def _sleep_until(moment: float) -> None:
    delay = moment - time.time()
    if delay > 0:
        await asyncio.sleep(delay)


async def _table(job: dict, table: dict, out: dict) -> None:
    conn = Connection(table["port"])
    path = f"/api/v1/tables/{table['id']}/deals/"
    stop_retrying = job["start"] + job["seconds"] + GIVE_UP_AFTER
    for number, (offset, body) in enumerate(zip(table["offsets"], table["bodies"],
                                                strict=True), start=1):
        await _sleep_until(job["start"] + offset)
        if time.time() > stop_retrying:  # the tablet gives up: its deals stay unposted
            out["unposted"] += len(table["offsets"]) - number + 1
            return
        headers = {"Authorization": table["auth"], "Content-Type": "application/json",
                   "Idempotency-Key": f"{job['run']}-{table['id']}-{number}"}
        sent = time.perf_counter()
        while True:
            try:
                status, _headers, data = await conn.request("POST", path, headers, body)
            except NETWORK_ERRORS:
                status, data = 0, b""
            if status == 201 or not (status == 0 or status >= 500) \
                    or time.time() > stop_retrying:
                break
            out["retries"][str(status)] += 1
            await asyncio.sleep(RETRY_PAUSE)
        seconds = time.perf_counter() - sent
        if status == 201:
            out["acks"].append((table["id"], number, time.time(), seconds, table["kind"],
                                table["server"]))
        else:
            out["failed"].append((table["id"], number, status, data[:300].decode(
                "utf-8", "replace")))


async def _get(conn: Connection, etags: dict[str, str], kind: str, path: str,
               out: dict) -> None:
    # as a phone's browser asks: gzip accepted (the proxy compresses)
    headers = {"Accept-Encoding": "gzip"}
    if path in etags:
        headers["If-None-Match"] = etags[path]
    sent, read, heads, at = time.perf_counter(), conn.received, conn.heads, time.time()
    try:
        status, answer, _data = await conn.request("GET", path, headers)
    except NETWORK_ERRORS:
        status, answer = 0, {}
    out["polls"].append((kind, status, time.perf_counter() - sent, conn.received - read,
                         conn.heads - heads, at))
    if "etag" in answer:
        etags[path] = answer["etag"]


async def _poller(job: dict, phone: dict, out: dict) -> None:
    conn = Connection(phone["port"])
    etags: dict[str, str] = {}
    every = job["poll"]
    at = job["start"] + phone["phase"]
    end = job["start"] + job["seconds"]
    turn = 0
    while at < end:
        await _sleep_until(at)
        kind, path = phone["paths"][turn % len(phone["paths"])]
        turn += 1
        await _get(conn, etags, kind, path, out)
        if kind in phone["then"]:  # what the page asks next on the same tick
            await _get(conn, etags, *phone["then"][kind], out)
        if turn == 1:
            out["opened"].append(time.time())
        at += every
        while at < time.time():  # a poll that overran its tick skips it, as a timer would
            at += every


async def _pushed(job: dict, phone: dict, out: dict) -> None:
    """A phone behind the proxy's push, as ``static/js/me.js`` there: its live part
    first (the channels it names, its table's card), then an EventSource on them (raw,
    on a connection of its own, reconnecting with its Last-Event-ID; on each connection
    the live part and the card again); on a message of its table the card at the
    message's version, on any other the live part (each one at a time, once more for a
    message during it), both once a minute, give or take a quarter; its ticks poll the
    board and the standing (``paths``)."""
    conn, etags = Connection(phone["port"]), {}
    me = phone["me"]
    end = job["start"] + job["seconds"]
    await _sleep_until(job["start"] + phone["phase"])
    await _get(conn, etags, "me", me, out)
    out["opened"].append(time.time())
    body = conn.last_body
    if conn.last_headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    html = body.decode("utf-8", "replace")
    found = re.search(r'data-push="([^"]+)"', html)
    if found is None:
        out["push_missing"] += 1
        return await _poller(job, {**phone, **phone["polled"]}, out)
    card = re.search(r'data-card-url="([^"]+)" data-card-scope="([^"]+)"', html)
    card_url, card_scope = card.groups() if card else ("", "")

    def next_due() -> float:  # as me.js: once a minute, give or take a quarter
        return time.time() + PUSHED_PART_EVERY * random.uniform(0.75, 1.25)

    fetching = {kind: {"busy": False, "again": False, "seen": ""} for kind in ("me", "card")}
    due = next_due()  # the next fetch of the live part and the card, from the first
    conns = {kind: Connection(phone["port"]) for kind in ("me", "card")}

    async def fetch(kind: str, message_at: float | None, wait: float = 0,
                    version: str | None = None) -> None:
        nonlocal due
        await asyncio.sleep(wait)
        state = fetching[kind]
        if message_at is not None:  # the latest message the next fetch answers
            state["message"], state["version"], state["seen"] = message_at, version, version
        elif version is not None:  # (re)connected: the card as it is now
            state["version"] = version
        else:  # once a minute: the latest version a message named
            state["version"] = state["seen"]
        if state["busy"]:
            state["again"] = True
            return
        state["busy"] = True
        try:
            while True:
                state["again"] = False
                answers = state.pop("message", None)
                if kind == "me":
                    due = next_due()
                    await _get(conns[kind], etags, "me", me, out)
                elif card_url:
                    asked = state.pop("version", "")
                    await _get(conns[kind], etags, "card",
                               f"{card_url}?v={asked}" if asked else card_url, out)
                    if answers is not None:
                        out["pushed"].append((phone["table"], answers, time.time()))
                if not state["again"]:
                    break
        finally:
            state["busy"] = False

    async def listen() -> None:
        last_id = ""
        while time.time() < end:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", phone["port"])
                head = [f"GET {found.group(1)} HTTP/1.1", f"Host: 127.0.0.1:{phone['port']}",
                        "Accept: text/event-stream"] + ([f"Last-Event-ID: {last_id}"]
                                                        if last_id else [])
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
                status = await reader.readline()  # the stream's status line
                if not status:
                    raise Closed
                out["stream_bytes"] += len(status)
                # as me.js on each (re)connection: what a lost connection missed
                asyncio.ensure_future(fetch("me", None))
                asyncio.ensure_future(fetch("card", None, version=""))
                data = None
                while time.time() < end:
                    line = await asyncio.wait_for(reader.readline(), end - time.time())
                    if not line:
                        raise Closed
                    out["stream_bytes"] += len(line)
                    if line.startswith(b"id:"):
                        last_id = line[3:].strip().decode("latin-1")
                    elif line.startswith(b"data:"):
                        data = line[5:].strip()
                    elif line in (b"\n", b"\r\n") and data is not None:
                        out["messages"] += 1
                        scope, _, version = data.decode("latin-1").partition(" ")
                        # spread over TABLE_SPREAD s (a table's) or SPREAD s (the whole
                        # tournament's), as me.js does
                        wait = random.uniform(0, TABLE_SPREAD if re.match(r"t[ab]", scope)
                                              else SPREAD)
                        data = None
                        asyncio.ensure_future(
                            fetch("card", time.time(), wait, version) if scope == card_scope
                            else fetch("me", time.time(), wait))
            except NETWORK_ERRORS:
                out["reconnects"] += 1
                await asyncio.sleep(1)
            finally:
                if writer is not None:
                    writer.close()

    listener = asyncio.ensure_future(listen())
    at, turn = time.time() + job["poll"], 0
    while at < end:
        await _sleep_until(at)
        kind, path = phone["paths"][turn % len(phone["paths"])]
        turn += 1
        await _get(conn, etags, kind, path, out)
        if time.time() >= due:
            await fetch("me", None)
            await fetch("card", None)
        at += job["poll"]
        while at < time.time():
            at += job["poll"]
    listener.cancel()


async def _watcher(job: dict, watch: dict, out: dict) -> None:
    conn = Connection(watch["port"])
    etag = ""
    at = job["start"]
    end = job["start"] + job["seconds"] + job["tail"]
    while at < end:
        await _sleep_until(at)
        try:
            status, answer, data = await conn.request(
                "GET", watch["path"], {"If-None-Match": etag} if etag else {})
        except NETWORK_ERRORS:
            status, answer = 0, {}
        if status == 200:
            etag = answer.get("etag", "")
            computed, stale = body_version(data)
            if computed is not None:
                out["seen"].append((watch["server"], time.time(), computed, stale))
        at += WATCH_EVERY


async def _baseline_poster(job: dict, poster: dict, out: dict) -> None:
    conn = Connection(poster["port"])
    at = job["start"] + random.random()
    end = job["start"] + job["seconds"]
    number = 0
    while at < end:
        await _sleep_until(at)
        number += 1
        body = json.dumps({"name": f"Basis {poster['server']}-{number}"}).encode()
        sent = time.perf_counter()
        try:
            status, _answer, _data = await conn.request(
                "POST", "/api/v1/players/", {"Authorization": poster["auth"],
                                             "Content-Type": "application/json"}, body)
        except NETWORK_ERRORS:
            status = 0
        out["baseline_posts"].append((status, time.perf_counter() - sent))
        at += BASELINE_POST_EVERY


async def _lag(job: dict, out: dict) -> None:
    """How late the event loop wakes a 50-ms sleep: the generator's own saturation."""
    end = job["start"] + job["seconds"]
    await _sleep_until(job["start"])
    while time.time() < end:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        out["lag"].append(time.perf_counter() - before - 0.05)


async def _generate(job: dict) -> dict:
    out = {"acks": [], "failed": [], "retries": Counter(), "polls": [], "seen": [],
           "baseline_posts": [], "lag": [], "unposted": 0, "pushed": [], "messages": 0,
           "reconnects": 0, "stream_bytes": 0, "push_missing": 0, "opened": []}
    tasks = [_table(job, t, out) for t in job["tables"]]
    tasks += [(_pushed if "me" in p else _poller)(job, p, out) for p in job["phones"]]
    tasks += [_watcher(job, w, out) for w in job["watch"]]
    tasks += [_baseline_poster(job, p, out) for p in job["posters"]]
    tasks.append(_lag(job, out))
    running = [asyncio.ensure_future(task) for task in tasks]
    # a hard end: what is still waiting for an answer then is left (and counted unposted)
    _done, pending = await asyncio.wait(
        running, timeout=job["start"] + job["seconds"] + GIVE_UP_AFTER + 40 - time.time())
    for task in pending:
        task.cancel()
    out["cancelled"] = len(pending)
    return out


def generator(job: dict) -> dict:
    """One load generator process: its share of tables, phones, watchers and posters."""
    from bench.bench_skat_engine import random_deal

    for table in job["tables"]:  # the deals, made before the start
        rng = random.Random(SEED + table["id"])
        table["bodies"] = [json.dumps({**random_deal(rng, n, job["rules"]), "number": n})
                           .encode() for n in range(1, len(table["offsets"]) + 1)]
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per client
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    cpu_before, wall_before = os.times(), time.time()
    out = asyncio.run(_generate(job))
    cpu_after = os.times()
    out["cpu"] = (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system)
    out["wall"] = time.time() - wall_before
    out["retries"] = dict(out["retries"])
    return out


# --------------------------------------------------------------------------- processes


def _tick_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _tree(root: int) -> list[int]:
    """``root`` and every process below it (from /proc's parent ids)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    ppid = int(stat.read().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += parents.get(pid, [])
    return found


def _redis_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm", encoding="ascii") as comm:
                    if comm.read().strip() == "redis-server":
                        pids.append(int(entry))
            except OSError:
                continue
    return pids


class CpuMeter:
    """CPU seconds per component over a run: samples every second, per process the last
    reading less the first (a process that ends keeps its last sample)."""

    def __init__(self, groups: dict[str, list[int]], database: str):
        self.roots = groups
        self.database = database
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _pids(self, conn) -> dict[str, list[int]]:
        found = {name: [p for root in roots for p in _tree(root)]
                 for name, roots in self.roots.items()}
        found["postgresql"] = [row[0] for row in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (self.database,))]
        found["redis"] = _redis_pids()
        return found

    def sample(self, conn) -> None:
        for name, pids in self._pids(conn).items():
            for pid in pids:
                seconds = _tick_seconds(pid)
                if seconds is not None:
                    self.first.setdefault((name, pid), seconds)
                    self.last[(name, pid)] = seconds

    def _run(self) -> None:
        import psycopg

        from bench.common import database_url_parts

        with psycopg.connect(autocommit=True,
                             **database_url_parts(os.environ["DATABASE_URL"])) as conn:
            while not self.stopping.is_set():
                self.sample(conn)
                self.stopping.wait(1.0)
            self.sample(conn)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> dict[str, float]:
        self.stopping.set()
        self.thread.join()
        totals: Counter = Counter()
        for key, seconds in self.last.items():
            totals[key[0]] += seconds - self.first[key]
        return dict(totals)


def _gunicorn(args, tmp: Path, name: str, workers: int, env: dict, nice: int = 0
              ) -> tuple[int, subprocess.Popen, Path]:
    """One gunicorn instance, ``nice`` lower in priority than the rest of the machine
    (``WEB_NICE``, as ``config.serve.main`` lowers it)."""
    from config.serve import lowered, production_args

    port = free_port()
    log = tmp / f"gunicorn-{name}.log"
    proc = subprocess.Popen(production_args(bind=f"127.0.0.1:{port}", workers=workers,
                                            threads=args.web_threads),
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"),
                            preexec_fn=functools.partial(lowered, nice))
    return port, proc, log


def start_servers(args, tmp: Path) -> tuple[list[int], list[int], list[subprocess.Popen],
                                             list[subprocess.Popen], list[subprocess.Popen]]:
    """The ports the clients reach (one per server, or the one proxy's), each server's
    port where its watcher asks (the pool of the API's standings), the gunicorn
    processes, the Celery workers and the proxy. With ``--proxy`` one nginx as docker
    compose runs it (``deploy/nginx``) is in front of every server, each server two
    gunicorn instances: web (``--web-workers``), the tables' entry (``--entry-workers``)
    and the board (``--board-workers``); the pages go round the servers' web pools, a
    table's deals to one entry pool (split by table), the kept public answers round the
    board pools."""
    from config.serve import proxy_args, proxy_files

    env = dict(os.environ)
    if args.proxy:
        push = free_port()  # the proxy's push port, which every server publishes to
        env["NUM_PROXIES"] = "1"
        if args.push:
            env["PUSH_URL"] = f"http://127.0.0.1:{push}"
    direct, web, workers, proxies = [], [], [], []
    pools: dict[str, list[str]] = {"web": [], "entry": [], "board": []}
    starting: list[tuple[int, subprocess.Popen, Path]] = []
    # behind the proxy a server is compose's three pools, in this order (the CPU meter
    # reads them so): web and the board below the entry in priority
    kinds = [("web", "", args.web_workers, args.web_nice if args.proxy else 0)]
    if args.proxy:
        kinds += [("entry", "-entry", args.entry_workers, 0),
                  ("board", "-board", args.board_workers, args.web_nice)]
    for number in range(args.servers):
        port_of = {}
        for pool, suffix, count, nice in kinds:
            port, proc, log = _gunicorn(args, tmp, f"{number}{suffix}", count, env, nice)
            web.append(proc)
            starting.append((port, proc, log))
            pools[pool].append(f"127.0.0.1:{port}")
            port_of[pool] = port
        # where the watcher asks for the API's standings: where the proxy sends them
        direct.append(port_of["board" if args.proxy else "web"])
    ports = direct
    if args.proxy:
        ports = [free_port()]
        main = proxy_files(tmp / "nginx", port=ports[0], web=pools["web"],
                           entry=pools["entry"], board=pools["board"], push=push)
        proxies.append(subprocess.Popen(proxy_args(main), cwd=ROOT, stdout=subprocess.DEVNULL,
                                        stderr=(tmp / "nginx.out").open("w")))
    for number in range(args.workers):
        log = tmp / f"celery-{number}.log"
        workers.append(subprocess.Popen(
            [str(Path(sys.executable).with_name("celery")), "-A", "config", "worker",
             "--concurrency", "1", "-n", f"champ{number}@%h", "--loglevel", "INFO",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT))
    try:
        for port, proc, log in starting:
            wait_ready(port, "/healthz", proc, log)
        for proc in proxies:
            wait_ready(ports[0], "/healthz", proc, tmp / "nginx" / "error.log")
        deadline = time.monotonic() + 90
        for number, proc in enumerate(workers):
            log = tmp / f"celery-{number}.log"
            while " ready." not in log.read_text(errors="replace"):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"celery worker {number} did not start:\n"
                                     f"{log.read_text(errors='replace')[-3000:]}")
                time.sleep(0.3)
    except BaseException:  # whatever did start must not outlive the bench
        for proc in web + workers + proxies:
            stop(proc)
        raise
    return ports, direct, web, workers, proxies


def entry_servers(logs: list[Path]) -> dict[int, int]:
    """Which server's entry pool took each table's deals (the proxy splits them by
    table), from the entry pools' logs (``gunicorn-<server>-entry.log``)."""
    found: dict[int, int] = {}
    for log in logs:
        server = int(log.name.split("-")[1])
        with log.open(errors="replace") as lines:
            for line in lines:
                match = _DEAL_POSTED.search(line)
                if match:
                    found[int(match.group(1))] = server
    return found


# --------------------------------------------------------------------------- build


def build(args) -> int:
    """The tournament (rebuilt unless ``--reuse`` finds one of the right size with empty
    sheets): its id."""
    from django.utils import timezone

    from tournaments.models import Deal, Tournament
    from tournaments.services.rounds import round_draw

    if args.reuse:
        existing = Tournament.objects.filter(rounds__number=1).order_by("-pk").first()
        if (existing is not None and existing.participants.count() == args.players
                and existing.rules.get("series_deals_4") == args.deals
                and not Deal.objects.filter(table__round__tournament=existing).exists()):
            print(f"reusing tournament {existing.pk}")
            return existing.pk
    start = time.perf_counter()
    tournament, _rng = skat_championship(players=args.players, deals=args.deals, seed=SEED,
                                         day=timezone.localdate())
    round_draw(tournament_id=tournament.pk, method="random", seed=SEED + 1)
    print(f"built {args.players} players and round 1 in {time.perf_counter() - start:.1f} s",
          flush=True)
    return tournament.pk


def calibrate(port: int, tournament_id: int, repeat: int = 5) -> dict[str, tuple[int, float]]:
    """Each polled path alone on the idle server before the run: its size and the
    median time of ``repeat`` sequential GETs (a 200 each: no If-None-Match)."""
    from tournaments.models import Participant, Tournament

    slug = Tournament.objects.get(pk=tournament_id).slug
    token = Participant.objects.filter(tournament_id=tournament_id).values_list(
        "personal_token", flat=True).first()
    paths = {"board": f"/p/{slug}/standings/", "me": f"/me/{token}/live/",
             "api": f"/api/v1/tournaments/{tournament_id}/standings/", "healthz": "/healthz"}
    found = {}
    for name, path in paths.items():
        times, size = [], 0
        for _ in range(repeat):
            start = time.perf_counter()
            status, _headers, body = fetch(port, path)
            times.append(time.perf_counter() - start)
            size = len(body) if status == 200 else -status
        found[name] = (size, percentile(times, 50))
    return found


def jobs(args, tournament_id: int, ports: list[int], direct: list[int], run: str,
         start: float) -> list[dict]:
    """The generators' shares of the load. ``ports``: where the clients go (a server's
    own, or the one proxy's); ``direct``: each server's pool of the API's standings,
    where its watcher asks when one proxy is in front of several servers (the proxy
    would send it to either)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from bench.common import DIRECTOR
    from games.engines import get_engine
    from tournaments.models import Participant, Seat, Table, Tournament
    from tournaments.selectors import ranks_page_of

    tournament = Tournament.objects.get(pk=tournament_id)
    rules = get_engine("skat").options(tournament.rules)
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=1)
                  .order_by("number").values_list("pk", "entry_token"))
    seat_one = dict(Seat.objects.filter(table__round__tournament=tournament, seat=1)
                    .values_list("table_id", "participant__personal_token"))
    tokens = list(Participant.objects.filter(tournament=tournament)
                  .order_by("start_number").values_list("pk", "personal_token"))
    table_of = dict(Seat.objects.filter(table__round__tournament=tournament)
                    .values_list("participant_id", "table_id"))
    staff, _created = Token.objects.get_or_create(
        user=get_user_model().objects.get(username=DIRECTOR))
    rng = random.Random(SEED)
    plan = post_schedule(len(tables), args.deals, args.minutes * 60, rng)
    count = args.generators
    shares = [{"run": run, "start": start, "seconds": args.minutes * 60, "poll": args.poll,
               "tail": TAIL, "rules": rules, "tables": [], "phones": [], "watch": [],
               "posters": []} for _ in range(count)]
    phone_tables = set(rng.sample(range(len(tables)), round(len(tables) * args.phone_tables)))
    for i, ((table_id, entry), offsets) in enumerate(zip(tables, plan, strict=True)):
        by_phone = i in phone_tables
        server = i % len(ports)  # behind one proxy: the log tells (``entry_servers``)
        shares[i % count]["tables"].append({
            "id": table_id, "port": ports[server], "server": server, "offsets": offsets,
            "kind": "phone" if by_phone else "tablet",
            "auth": f"Player {seat_one[table_id]}" if by_phone else f"Table {entry}"})
    slug = tournament.slug
    api = f"/api/v1/tournaments/{tournament_id}/standings/"
    baseline = max(1, args.phones // 20)
    for i in range(args.phones + baseline):
        server = i % len(ports)
        extra = {}
        if i < args.phones:
            pid, token = tokens[i % len(tokens)]
            ranks = ("ranks", f"/p/{slug}/ranks/{ranks_page_of(pid)}/")
            paths = [("board", f"/p/{slug}/standings/"), ("me", f"/me/{token}/live/")]
            rng.shuffle(paths)
            # as static/js/me.js: the standing after the live part, from its ranks part
            then = {"me": ranks}
            if args.proxy and args.push:  # the live part on a push, the standing polled
                # without a subscription (its first fetch failed) it polls as before
                extra = {"me": f"/me/{token}/live/", "table": table_of.get(pid),
                         "polled": {"paths": paths, "then": then}}
                paths = [p if p[0] == "board" else ranks for p in paths]
                then = {}
        else:
            paths, then = [("api", api)], {}
        shares[i % count]["phones"].append({"port": ports[server], "paths": paths,
                                            "then": then, "phase": rng.uniform(0, args.poll),
                                            **extra})
    watched = ports if len(ports) == args.servers else direct
    for server, port in enumerate(watched):
        shares[0]["watch"].append({"port": port, "server": server, "path": api})
        shares[-1]["posters"].append({"port": ports[server % len(ports)], "server": server,
                                      "auth": f"Token {staff.key}"})
    return shares


# --------------------------------------------------------------------------- report


def _ms(values: list[float], q: float) -> str:
    value = percentile(values, q)
    return "–" if math.isnan(value) else f"{value * 1e3:,.0f}"


def _s(values: list[float], q: float) -> str:
    value = percentile(values, q)
    return "–" if math.isnan(value) else f"{value:.2f}"


# a request's line in the app's log (``config.request_log``; text or JSON): method, path,
# status, milliseconds
_ANSWERED = re.compile(r"\b(GET|HEAD|POST) (/\S*) (\d{3}) \d+ms")
_DEAL_POSTED = re.compile(r"\bPOST /api/v1/tables/(\d+)/deals/ 201 ")


def _path_kind(method: str, path: str) -> str:
    if method == "POST":
        return "deal POST" if path.startswith("/api/v1/tables/") else "other POST"
    if path.startswith("/me/"):
        return "me"
    if path.startswith("/p/"):
        return "ranks" if "/ranks/" in path else "card" if "/card/" in path else "board"
    if path.startswith("/api/v1/tournaments/"):
        return "api"
    return "other"


def server_answers(logs: list[Path]) -> dict[str, dict[int, int]]:
    """What the servers answered, by kind of request and status, from their logs (one
    line per request): a 499 is a read whose client had gone (``config/client_gone.py``)."""
    counts: dict[str, Counter] = {}
    for log in logs:
        with log.open(errors="replace") as lines:
            for line in lines:
                found = _ANSWERED.search(line)
                if found:
                    method, path, status = found.groups()
                    counts.setdefault(_path_kind(method, path), Counter())[int(status)] += 1
    return {kind: dict(sorted(c.items())) for kind, c in sorted(counts.items())}


def summarise(args, results: list[dict], stored: dict[int, list[int]], cpu: dict,
              wall: float, loads: tuple[float, float], current: bool) -> dict:
    acks = [a for r in results for a in r["acks"]]
    failed = [f for r in results for f in r["failed"]]
    polls = [p for r in results for p in r["polls"]]
    start = min((p[5] for p in polls), default=0.0)
    opened = max((t for r in results for t in r["opened"]), default=start)
    settled = start + OPENING
    seen = [s for r in results for s in r["seen"]]
    posts = [p for r in results for p in r["baseline_posts"]]
    retries: Counter = Counter()
    for r in results:
        retries.update(r["retries"])
    last = max((a[2] for a in acks), default=0.0)
    fresh = [t for _server, t, _c, stale in seen if not stale and t >= last]
    catch_up = min(fresh) - last if fresh else None
    acked: dict[int, set[int]] = {}
    for table, number, *_rest in acks:
        acked.setdefault(table, set()).add(number)
    summary = {"acks": len(acks), "failed": len(failed),
               "unposted": sum(r["unposted"] for r in results),
               "cancelled": sum(r["cancelled"] for r in results), "failed_sample": failed[:5],
               "retries": dict(retries), "account": account(acked, stored),
               "wall": wall, "loads": loads, "catch_up": catch_up, "cpu": cpu,
               "current": current}
    entry = {kind: [a[3] for a in acks if a[4] == kind] for kind in ("tablet", "phone")}
    entry["baseline"] = [p[1] for p in posts if p[0] == 201]
    summary["entry"] = {k: {"n": len(v), "p50": percentile(v, 50), "p95": percentile(v, 95)}
                        for k, v in entry.items()}
    summary["baseline_post_status"] = dict(Counter(p[0] for p in posts))
    by_kind: dict[str, dict] = {}
    for kind in ("board", "me", "card", "ranks", "api"):
        mine = [p for p in polls if p[0] == kind]
        by_kind[kind] = {"n": len(mine), "status": dict(Counter(p[1] for p in mine)),
                         "p50": percentile([p[2] for p in mine], 50),
                         "p95": percentile([p[2] for p in mine], 95),
                         # after the first minute, in which every phone opens its page
                         # (cold renders, after a draw they come again)
                         "settled_p95": percentile([p[2] for p in mine if p[5] >= settled],
                                                   95)}
    summary["polls"] = by_kind
    summary["opened"] = opened - start
    summary["push"] = {name: sum(r[name] for r in results)
                       for name in ("messages", "reconnects", "push_missing")}
    pushed = [p for r in results for p in r["pushed"]]
    summary["push"]["shown"] = phone_delays(acks, pushed)
    summary["push"]["settled"] = phone_delays([a for a in acks if a[2] >= settled], pushed)
    # what the server sends each phone a minute (headers and bodies, as on the wire), by
    # kind of answer, and in all
    per = max(1, args.phones) * args.minutes  # a phone's minute
    summary["phone_bytes"] = {kind: {"answers": by_kind[kind]["n"] / per,
                                     "heads": sum(p[4] for p in polls if p[0] == kind) / per,
                                     "bodies": sum(p[3] - p[4] for p in polls if p[0] == kind)
                                     / per} for kind in ("board", "me", "card", "ranks")}
    summary["phone_bytes"]["push"] = {"answers": 0, "heads": 0, "bodies": sum(
        r["stream_bytes"] for r in results) / per}
    summary["phone_bytes_per_minute"] = sum(row["heads"] + row["bodies"]
                                            for row in summary["phone_bytes"].values())
    shown = {}
    for posted in range(args.servers):
        for watched in range(args.servers):
            first, sure, missing, unsure = shown_delays(
                [a[2] for a in acks if a[5] == posted],
                [(t, c) for server, t, c, _stale in seen if server == watched])
            shown[f"{posted}->{watched}"] = {
                "first": {q: percentile(first, q) for q in (50, 95, 100)},
                "sure": {q: percentile(sure, q) for q in (50, 95, 100)},
                "missing": missing, "unsure": unsure,
                "computations": len({c for s, _t, c, _stale in seen if s == watched})}
    summary["shown"] = shown
    summary["generators"] = [{"cpu": r["cpu"], "wall": r["wall"],
                              "lag_p50": percentile(r["lag"], 50),
                              "lag_p95": percentile(r["lag"], 95)} for r in results]
    return summary


def report(args, summary: dict) -> None:
    deals = summary["account"]["stored"] or 1
    cpu = summary["cpu"]
    print()
    print(f"## Championship day: {args.players} players, {args.deals} deals per table, "
          f"{args.minutes:g} min, {args.phones} phones every {args.poll:g} s, "
          f"{args.servers} server(s) × {args.web_workers} gunicorn workers × "
          f"{args.web_threads} thread(s), "
          + (f"behind nginx with {args.entry_workers} more for the tables' entry and "
             f"{args.board_workers} for the board, " if args.proxy else "") +
          f"{args.workers} Celery workers")
    print(f"machine: {machine()}; load at start / end {summary['loads'][0]:.1f} / "
          f"{summary['loads'][1]:.1f}; measured {summary['wall']:.0f} s (the run and the "
          "watcher's tail)")
    print("Each polled path alone on the idle server before the run (median of 5 GETs, "
          "200): " + "; ".join(f"{name} {size:,} bytes {seconds * 1e3:,.1f} ms"
                              for name, (size, seconds) in summary["alone"].items()))
    print()
    print("| figure | n | p50 ms | p95 ms | ratio p50 / p95 to the baseline |")
    print("|---|---|---|---|---|")
    base = summary["entry"]["baseline"]
    for kind, label in (("tablet", "deal POST, tablet (Table token)"),
                        ("phone", "deal POST, player's phone (Player token)"),
                        ("baseline", "baseline: player create POST (staff Token)")):
        row = summary["entry"][kind]
        ratios = "" if kind == "baseline" else (
            f"{row['p50'] / base['p50']:.1f}× / {row['p95'] / base['p95']:.1f}×"
            if base["n"] and row["n"] else "–")
        print(f"| {label} | {row['n']:,} | {row['p50'] * 1e3:,.0f} | {row['p95'] * 1e3:,.0f} "
              f"| {ratios} |")
    api = summary["polls"]["api"]
    for kind, label in (("board", "poll board fragment /p/<slug>/standings/"),
                        ("me", "poll personal page /me/<token>/live/"),
                        ("card", "its table's card /p/<slug>/tables/<id>/card/"),
                        ("ranks", "then its standing /p/<slug>/ranks/<page>/"),
                        ("api", "baseline: poll API standings")):
        row = summary["polls"][kind]
        status = ", ".join(f"{k}: {v:,}" for k, v in sorted(row["status"].items()))
        ratios = "" if kind == "api" else (
            f"{row['p50'] / api['p50']:.1f}× / {row['p95'] / api['p95']:.1f}×"
            if api["n"] and row["n"] else "–")
        print(f"| {label} ({status}) | {row['n']:,} | {row['p50'] * 1e3:,.0f} | "
              f"{row['p95'] * 1e3:,.0f} | {ratios} |")
    print()
    print(f"After the first minute (the last phone had its page {summary['opened']:.0f} s "
          "after the first): p95 ms "
          + ", ".join(f"{kind} {summary['polls'][kind]['settled_p95'] * 1e3:,.0f}"
                      for kind in summary["polls"] if kind != "api")
          + (f"; a deal on the phones p95 {summary['push']['settled'][95]:.2f} s, max "
             f"{summary['push']['settled'][100]:.2f} s" if summary["push"]["messages"] else ""))
    print(f"Sent to each phone: {summary['phone_bytes_per_minute'] / 1024:,.1f} KB a minute "
          "(status lines, headers and bodies of its polls, as on the wire): " + "; ".join(
              f"{kind} {row['answers']:.1f} answers, headers {row['heads'] / 1024:.1f} KB, "
              f"bodies {row['bodies'] / 1024:.1f} KB"
              for kind, row in summary["phone_bytes"].items()))
    push = summary["push"]
    if push["messages"] or push["push_missing"]:
        shown = push["shown"]
        print(f"Push: {push['messages']:,} messages, {push['reconnects']:,} reconnects, "
              f"{push['push_missing']} phones without a subscription; a deal on the phones "
              f"at its table (s from its 201): p50 {shown[50]:.2f}, p95 {shown[95]:.2f}, "
              f"max {shown[100]:.2f} ({shown['n']:,} deals; {shown['missing']:,} not shown)")
    print()
    print("Board delay (s from a deal's 201 to the watcher's first answer of a computation "
          "stamped after it; 'sure': of the computation after that):")
    print()
    print("| posted on → watched on | first p50 / p95 / max | sure p50 / p95 / max | "
          "not shown | no later computation | computations seen |")
    print("|---|---|---|---|---|---|")
    for pair, row in summary["shown"].items():
        first = " / ".join(f"{row['first'][q]:.2f}" for q in (50, 95, 100))
        sure = " / ".join(f"{row['sure'][q]:.2f}" for q in (50, 95, 100))
        print(f"| server {pair.replace('->', ' → server ')} | {first} | {sure} | "
              f"{row['missing']} | {row['unsure']} | {row['computations']} |")
    acc = summary["account"]
    print()
    print(f"Deals: {acc['acked']:,} answered 201, {acc['stored']:,} stored; lost "
          f"{acc['lost']}, doubled {acc['doubled']}, stored without a 201 "
          f"{acc['unanswered']}; failed posts {summary['failed']} "
          f"{summary['failed_sample'] if summary['failed'] else ''}; not posted (the "
          f"tablet gave up {GIVE_UP_AFTER} s after the run) {summary['unposted']:,}; "
          f"requests cut at the hard end {summary['cancelled']}; retries "
          f"{summary['retries'] or 0}; baseline POST answers {summary['baseline_post_status']}")
    if summary["catch_up"] is not None:
        print(f"The watcher got standings with no pending change {summary['catch_up']:.1f} s "
              "after the last deal's 201.")
    else:
        print(f"The watcher got no current standings within {TAIL} s of the last deal.")
    print("Standings current in the database after the run: "
          f"{'yes' if summary['current'] else 'NO'}.")
    total = sum(cpu.values())
    parts = ", ".join(f"{name} {seconds:,.1f} s" for name, seconds in sorted(cpu.items()))
    print(f"CPU over the run: {parts}; total {total:,.1f} s = {total / deals * 1e3:.1f} ms "
          f"per deal ({total / summary['wall']:.2f} cores of {os.cpu_count()})")
    print("The servers' answers by status (their logs): " + "; ".join(
        f"{kind} " + ", ".join(f"{status}: {n:,}" for status, n in counts.items())
        for kind, counts in summary.get("answers", {}).items()))
    gens = summary["generators"]
    print("Generators: " + "; ".join(
        f"{g['cpu'] / g['wall'] * 100:.0f} % of a core, loop lag p50 "
        f"{g['lag_p50'] * 1e3:.1f} / p95 {g['lag_p95'] * 1e3:.1f} ms" for g in gens))


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = bench_parser(__doc__, players=300, deals=48, minutes=1, phones=200, poll=5)
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1)
    parser.add_argument("--web-workers", type=int, default=5)  # as docker compose
    parser.add_argument("--web-threads", type=int, default=1)
    parser.add_argument("--web-nice", type=int, default=10,
                        help="with --proxy: the web and board pools' WEB_NICE (0-19), "
                             "below the entry, as docker compose's cpu_shares put it")
    parser.add_argument("--proxy", action="store_true")
    parser.add_argument("--push", action=argparse.BooleanOptionalAction, default=True,
                        help="with --proxy: the phones subscribe to their pushes")
    parser.add_argument("--entry-workers", type=int, default=2)
    parser.add_argument("--board-workers", type=int, default=1,
                        help="with --proxy: the pool of the public answers the proxy keeps")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--phone-tables", type=float, default=0.2)
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--logs", type=Path, help="a folder to keep the servers' logs in")
    args = parser.parse_args()
    if args.players % TABLE_SIZE:
        parser.error(f"--players must be a multiple of {TABLE_SIZE} (tables of 4)")

    setup_django()
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from django.db import connection

    from tournaments.models import Deal
    from tournaments.selectors import standings_pending

    tournament_id = build(args)
    with tempfile.TemporaryDirectory(prefix="bench-champ-") as folder:
        tmp = Path(folder)
        ports, direct, web, workers, proxies = start_servers(args, tmp)
        try:
            start = time.time() + 5 + args.players / 1000  # the generators make their deals
            alone = calibrate(ports[0], tournament_id)
            shares = jobs(args, tournament_id, ports, direct, uuid.uuid4().hex[:12], start)
            connection.close()  # the forked generators must not share it
            # behind the proxy each server is web, the tables' entry and the board, in
            # that order
            pools = ({"gunicorn web": [p.pid for p in web[0::3]],
                      "gunicorn entry": [p.pid for p in web[1::3]],
                      "gunicorn board": [p.pid for p in web[2::3]]} if args.proxy
                     else {"gunicorn": [p.pid for p in web]})
            meter = CpuMeter({**pools, "celery": [p.pid for p in workers],
                              "nginx": [p.pid for p in proxies]},
                             connection.settings_dict["NAME"])
            loads = [load_average()]
            print(f"servers on {ports}, {args.workers} Celery workers; the run starts in "
                  f"{start - time.time():.0f} s", flush=True)
            with ProcessPoolExecutor(len(shares), mp_context=get_context("fork")) as pool:
                futures = [pool.submit(generator, share) for share in shares]
                time.sleep(max(0.0, start - time.time()))
                meter.start()
                results = [f.result() for f in futures]
            cpu = meter.stop()
            wall = time.time() - start
            loads.append(load_average())
            current = standings_pending(tournament_id) is None
        finally:
            for proc in web + workers + proxies:
                stop(proc)
        stored: dict[int, list[int]] = {}
        for table_id, number in Deal.objects.filter(
                table__round__tournament_id=tournament_id).values_list("table_id", "number"):
            stored.setdefault(table_id, []).append(number)
        if len(ports) < args.servers:  # one proxy: the server that took a table's deals
            took = entry_servers(sorted(tmp.glob("gunicorn-*-entry.log")))
            for r in results:
                r["acks"] = [(*a[:5], took.get(a[0], -1)) for a in r["acks"]]
        summary = summarise(args, results, stored, cpu, wall, tuple(loads), current)
        summary["alone"] = alone
        summary["answers"] = server_answers(sorted(tmp.glob("gunicorn-*.log")))
        if args.logs:
            shutil.copytree(tmp, args.logs, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("stichliste-cache"))
    report(args, summary)
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)},
                                         "summary": summary}, indent=1, default=str))


if __name__ == "__main__":
    main()
