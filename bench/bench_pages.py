"""Pages at the API's speed (issue 26): the public board, its standings part, the
standings polled with a staff token and the players' own pages, each under load beside
the API's anonymous standings poll of the same tournament, measured in the same run.

Usage (from the repository root, PostgreSQL and Redis running, wrk installed)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stichliste_bench_pages \\
    REDIS_URL=redis://127.0.0.1:6379/6 python -m bench.bench_pages [--players 1000]
        [--clients 50] [--seconds 5] [--code /work/main]

``--code`` names the tree whose code gunicorn serves (another checkout: the "before"
figures), the tournament being built by this one. Each row: p50 and p95 latency,
requests per second and their ratio to the baseline (the API's anonymous poll: 200 for
the 200 rows, 304 for the 304 rows). The players' pages are polled by wrk cycling through
``--phones`` players' tokens (many phones, each of which has polled twice before), the
others on one URL. Not collected by pytest.
"""

from __future__ import annotations

import datetime
import shutil
import tempfile
import time
from pathlib import Path

from bench.common import (
    ROOT,
    WRK_SCRIPT,
    bench_parser,
    check_answers,
    fetch,
    gunicorn,
    load_average,
    load_client,
    machine,
    python_load,
    ratio,
    wrk_load,
)

# wrk cycling through many paths (one per phone); the paths are filled in
ROTATING = """
paths = {paths}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, paths[(counter % #paths) + 1])
end
"""


def build(args) -> dict:
    """The published tournament of ``bench_standings`` (or the one kept from an earlier
    run), dated today so the personal tokens open their pages, with its standings
    computed and a staff token of its director."""
    from bench.bench_standings import TABLE_SIZE, setup_bench
    from bench.bench_standings import build as build_tournament
    from bench.common import CHAMPIONSHIP

    setup_bench()
    from rest_framework.authtoken.models import Token

    from tournaments.models import Deal, Tournament
    from tournaments.recompute.standings_rows import standings_recompute

    existing = Tournament.objects.filter(name=CHAMPIONSHIP).first()
    deals = args.players // TABLE_SIZE * args.rounds * args.deals
    if (existing is not None and existing.participants.count() == args.players
            and existing.rounds.count() == args.rounds
            and Deal.objects.filter(table__round__tournament=existing).count() == deals):
        tournament = existing
        print(f"reusing tournament {tournament.pk}")
    else:
        print(f"building: {args.players} players, {args.rounds} rounds, {args.deals} deals "
              "per table", flush=True)
        tournament = Tournament.objects.get(pk=build_tournament(args)["tournament"])
    Tournament.objects.filter(pk=tournament.pk).update(date=datetime.date.today())
    tournament.refresh_from_db()
    standings_recompute(tournament_id=tournament.pk)
    director = tournament.directors.first()
    token, _created = Token.objects.get_or_create(user=director)
    return {"tournament": tournament, "staff": token.key,
            "tokens": list(tournament.participants.order_by("pk")
                           .values_list("personal_token", flat=True))}


def settled(port: int, path: str, seconds: float = 120) -> None:
    """Wait until gunicorn has worked off what is queued (``path`` answers quickly)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        fetch(port, path)
        if time.monotonic() - start < 0.2:
            return
        time.sleep(0.5)


def csrf_cookie(headers: dict) -> str:
    """The ``csrftoken=…`` pair of a first answer's Set-Cookie, as a browser keeps it."""
    cookie = headers.get("Set-Cookie", "")
    pair = next((part.strip() for part in cookie.split(";") if "csrftoken=" in part), "")
    if not pair:
        raise SystemExit("the board page set no CSRF cookie")
    return pair[pair.index("csrftoken="):]


def measure(args, built: dict) -> dict:
    tournament = built["tournament"]
    api = f"/api/v1/tournaments/{tournament.pk}/standings/"
    part = f"/p/{tournament.slug}/standings/"
    page = f"/p/{tournament.slug}/"
    tokens = built["tokens"]
    german = {"Accept-Language": "de"}
    staff = {"Authorization": f"Token {built['staff']}"}
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    (tmp / "wrk.lua").write_text(WRK_SCRIPT)
    code = Path(args.code).resolve() if args.code else ROOT
    try:
        with gunicorn(workers=2, threads=8, ready_path=api, cwd=code,
                      env={"PYTHONPATH": str(code)}) as port:
            tags = {name: fetch(port, path, headers)[1].get("ETag")
                    for name, path, headers in (("api", api, {}), ("part", part, german),
                                                ("staff", api, staff))}
            phones = tokens[:args.phones]
            # a browser sends the CSRF cookie of its first visit back with every poll after
            kept = {**german, "Cookie": csrf_cookie(fetch(port, page, german)[1])}
            me_paths = {kind: [f"/me/{t}/{kind}" for t in phones] for kind in ("", "live/")}
            scenarios = {
                "api anonymous 200 (baseline)": (api, {}, 200, None),
                "api anonymous 304 (baseline)": (api, {"If-None-Match": tags["api"]}, 304, None),
                "board part 200": (part, german, 200, None),
                "board part 304": (part, {**german, "If-None-Match": tags["part"]}, 304, None),
                "board page 200": (page, german, 200, None),
                "board page 200, cookie kept": (page, kept, 200, None),
                "api staff 200": (api, staff, 200, None),
                "api staff 304": (api, {**staff, "If-None-Match": tags["staff"]}, 304, None),
                "me page 200": (me_paths[""][0], german, 200, me_paths[""]),
                "me page 200, cookie kept": (me_paths[""][0], kept, 200, me_paths[""]),
                "me live 200": (me_paths["live/"][0], german, 200, me_paths["live/"]),
            }
            check_answers(port, scenarios)
            client = load_client(args.client)

            def run(name, path, headers, expect, paths, seconds):
                if client == "python":
                    return python_load(port, path, headers, args.clients, seconds, expect)
                script = tmp / "wrk.lua"
                if paths:
                    script = tmp / f"rotate-{abs(hash(name))}.lua"
                    listed = "{" + ",".join(f'"{p}"' for p in paths) + "}"
                    script.write_text(ROTATING.format(paths=listed) + WRK_SCRIPT)
                return wrk_load(port, path, headers, args.clients, seconds, expect, script)

            results: dict[str, dict] = {}
            for name, (path, headers, expect, paths) in scenarios.items():
                for phone in (paths or []) * 2:  # every phone has polled before, just now
                    fetch(port, phone, headers)
                run(name, path, headers, expect, paths, 2)  # warm-up: connections
                settled(port, api)
                load = load_average()
                result = run(name, path, headers, expect, paths, args.seconds)
                settled(port, api)  # the requests queued when wrk stopped are not the next's
                result["load"] = load
                results[name] = result
                print(f"  {name:30}: p50 {result['p50'] * 1e3:8.1f} ms  p95 "
                      f"{result['p95'] * 1e3:8.1f} ms  {result['rps']:8.1f} req/s  errors "
                      f"{result['errors']}  load {load:.1f}", flush=True)
            return {"client": client, "code": str(code), "results": results}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(measured: dict) -> None:
    results = measured["results"]
    base = {200: results["api anonymous 200 (baseline)"]["rps"],
            304: results["api anonymous 304 (baseline)"]["rps"]}
    print(f"\ncode served: {measured['code']}; load generator: {measured['client']}; "
          f"{machine()}")
    print("| figure | p50 | p95 | req/s | ratio to the API's anonymous poll | load |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        status = 304 if name.endswith("304") or "304 " in name else 200
        print(f"| {name} | {r['p50'] * 1e3:.1f} ms | {r['p95'] * 1e3:.1f} ms | "
              f"{r['rps']:,.0f} | {ratio(r['rps'], base[status]):.2f}× | {r['load']:.1f} |")


def main() -> None:
    parser = bench_parser(__doc__, players=1000, rounds=3, deals=12, clients=50)
    parser.add_argument("--phones", type=int, default=250,
                        help="players whose pages are polled, in turn")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--code", help="serve this tree's code (default: this one)")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto",
                        help="load generator: wrk when installed (auto), else threads "
                        "(one URL per row)")
    args = parser.parse_args()
    built = build(args)
    report(measure(args, built))


if __name__ == "__main__":
    main()
