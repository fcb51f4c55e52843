"""The benchmarks stay a runnable package: each runs as a module from the project root
without editing ``sys.path``, on inputs small enough for the suite (no figure is checked:
speed belongs to the benches, not to tests)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_no_bench_edits_the_import_path():
    for path in (ROOT / "bench").glob("*.py"):
        assert "sys.path" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("module,args,expect", [
    ("bench.bench_seating", ["--players", "60", "--repeat", "1"], "repeated pairs in round 3"),
    ("bench.bench_skat_engine", ["300"], "ratio (measured / baseline time)"),
    ("bench.bench_engines", ["300"], "labatarde"),
])
def test_quick_benches_run_as_modules(module, args, expect):
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert expect in done.stdout


def test_every_name_a_bench_imports_from_another_exists():
    """The benches import each other inside functions too (to load Django only when run),
    where a renamed helper breaks only the run that reaches it."""
    import ast
    import importlib

    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bench."):
                module = importlib.import_module(node.module)
                missing = [a.name for a in node.names if not hasattr(module, a.name)]
                assert not missing, (path.name, node.module, missing)


@pytest.mark.parametrize("module", ["bench.bench_standings", "bench.bench_door"])
def test_the_database_benches_load_django_only_when_run(module):
    # their environment must be in place before Django reads the settings
    done = subprocess.run(
        [sys.executable, "-c", f"import sys, {module} as b; "
         "assert callable(b.main); assert 'django' not in sys.modules, 'django'"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_bench_database_must_be_named_for_the_bench():
    from bench.common import database_url_parts

    assert database_url_parts("postgres://u:p@db:5433/x_bench")["dbname"] == "x_bench"
    for url in ("postgres://u@db/stichliste", "sqlite:///bench.db"):
        with pytest.raises(SystemExit):
            database_url_parts(url)


def test_the_championship_bench_paces_each_table_over_the_run():
    import random

    from bench.bench_championship import post_schedule

    plan = post_schedule(tables=30, deals=48, seconds=600, rng=random.Random(1))
    assert len(plan) == 30 and all(len(offsets) == 48 for offsets in plan)
    for offsets in plan:  # in order, the series spread over the whole run
        assert offsets == sorted(offsets) and 0 < offsets[0] < 60
        assert 540 <= offsets[-1] <= 600
    # the field's pace is even: about a tenth of the deals in each tenth of the run, a
    # little fewer in the last, where tables finish
    tenths = [sum(1 for offsets in plan for at in offsets if k * 60 <= at < (k + 1) * 60)
              for k in range(10)]
    assert min(tenths[:-1]) > 115 and max(tenths) < 175 and tenths[-1] > 60, tenths


def test_the_championship_bench_counts_lost_doubled_and_unanswered_deals():
    from bench.bench_championship import account

    assert account({1: {1, 2}, 2: {1}}, {1: [1, 2], 2: [1]}) == {
        "acked": 3, "stored": 3, "lost": 0, "doubled": 0, "unanswered": 0}
    found = account({1: {1, 2, 3}, 2: {1}}, {1: [1, 2, 2], 2: [1, 2], 3: [1]})
    assert found == {"acked": 4, "stored": 6, "lost": 1, "doubled": 1, "unanswered": 2}


def test_the_championship_bench_times_when_the_board_shows_a_deal():
    from bench.bench_championship import body_version, shown_delays

    assert body_version(b'{"computed_at":"2025-11-26T05:20:00.250000Z","stale":false}') == (
        1764134400.25, False)
    assert body_version(b'{"computed_at":"2025-11-26T05:20:00.25Z","stale":true}') == (
        1764134400.25, True)
    assert body_version(b'{"computed_at":null,"stale":true}') == (None, True)  # never
    assert body_version(b"") == (None, True)
    # computations stamped at 10.5 (first received at 10.7), 11.2 (at 11.3), 12.0 (12.4);
    # an answer received again later does not move a computation's first sight
    seen = [(10.7, 10.5), (11.3, 11.2), (11.5, 10.5), (12.4, 12.0), (12.6, 11.2)]
    first, sure, missing, unsure = shown_delays([10.0, 11.0, 11.9, 12.5], seen)
    assert [round(d, 6) for d in first] == [0.7, 0.3, 0.5]
    assert [round(d, 6) for d in sure] == [1.3, 1.4]  # the computation after the first
    assert (missing, unsure) == (1, 1)  # 12.5: none after it; 11.9: no second one


def test_the_championship_bench_reads_a_whole_answer_over_raw_http():
    import asyncio
    import concurrent.futures

    from bench.bench_championship import Connection, percentile

    assert percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.0 and percentile([1.0, 9.0], 95) == 9.0

    async def serve_and_ask():
        async def answer(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nETag: \"x\"\r\nTransfer-Encoding: chunked\r\n\r\n"
                         b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            await reader.readuntil(b"\r\n\r\n")  # the same connection, kept alive
            writer.write(b"HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        conn = Connection(server.sockets[0].getsockname()[1])
        try:
            first = await conn.request("GET", "/", {})
            second = await conn.request("GET", "/", {"If-None-Match": '"x"'})
        finally:
            server.close()
        return first, second, conn.writer

    # a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this one for the whole session, where asyncio.run() refuses to start
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first, second, writer = pool.submit(asyncio.run, serve_and_ask()).result(timeout=60)
    assert first == (200, {"etag": '"x"', "transfer-encoding": "chunked"}, b"abcde")
    assert second == (304, {"connection": "close"}, b"")
    assert writer is None  # closed, as the server asked


def test_the_championship_bench_asks_again_where_the_server_closed_an_idle_connection():
    import asyncio
    import concurrent.futures

    from bench.bench_championship import Closed, Connection

    async def serve_and_ask():
        connections = []

        async def answer(reader, writer):
            connections.append(writer)
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            await writer.drain()
            if len(connections) == 1:  # kept alive, then closed idle (keepalive_timeout)
                await asyncio.sleep(0.05)
                writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        conn = Connection(server.sockets[0].getsockname()[1])
        try:
            first = await conn.request("GET", "/", {})
            await asyncio.sleep(0.2)
            second = await conn.request("GET", "/", {})
            fresh = Connection(server.sockets[0].getsockname()[1])
            server.close()
            await server.wait_closed()
            try:  # a new connection the server drops is not asked again
                await fresh.request("GET", "/", {}, timeout=5)
                refused = False
            except (Closed, OSError):
                refused = True
        finally:
            server.close()
        return first, second, len(connections), refused

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first, second, opened, refused = pool.submit(
            asyncio.run, serve_and_ask()).result(timeout=60)
    assert first == second == (200, {"content-length": "2"}, b"ok")
    assert opened == 2  # the second request went over a new connection
    assert refused


def test_the_door_bench_queues_distinct_walk_ins_and_judges_the_goals():
    from bench.bench_door import summarise, walk_ins
    from clubs.names import name_key

    queue = walk_ins(100, 10, seed=1)
    assert len({w["name"] for w in queue}) == 100
    known = [w for w in queue if w["known"]]
    assert len(known) == 10 and all(w["club"] == "host" for w in known)
    # a known player types the name otherwise, and the server's key makes it one
    assert all(name_key(w["typed"]) == name_key(w["name"]) for w in known)
    assert {w["club"] for w in queue} == {"host", "typed", "none"}
    counts = {"duplicates": 0, "checked_in": 3}
    met = summarise([0.5, 0.8, 1.9], 0, 10.0, 70.0, counts, 1.2)
    assert met["total_s"] == 60.0 and all(met["met"].values())
    missed = summarise([0.5, 0.8, 2.5], 1, 10.0, 700.0, {**counts, "duplicates": 1}, 6.0)
    assert not any(missed["met"].values())

