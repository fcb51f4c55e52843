"""A player's statistics (games.md §11, api.md "Insight") over ten years of club evenings:
``GET /api/v1/players/{id}/stats/?game=…`` answered by gunicorn, p50 and p95, against
the ETag's 304 and the public player API of the ratings (the baseline: the same
history, read as the rating's points).

Usage (from the repository root, PostgreSQL running): ``.venv/bin/python -m
bench.bench_insight [--players 24] [--years 10] [--rounds 2] [--requests 300]``. Not
collected by pytest; the database is the bench database (``bench.common``; set
``DATABASE_URL`` to a database of your own whose name contains "bench"), whose
tournaments, players and ratings are TRUNCATEd first.

Build: the ratings bench's club (``bench.bench_ratings.build_club``: weekly evenings of
``--rounds`` rounds at tables of 4 for ``--years`` years, summary sheets), rated in full —
which writes every player's statistics rows. Summary sheets hold no deals, so each row's
counts are then set to those of a typical sheet of 36 deals in play (declarer games by
kind with won and lost, defender deals): the answer reads and sums them as it would for
sheets entered deal by deal. Goal (issue 57): p95 ≤ 50 ms for a player with every
evening (1,040 sheets for ten years of two rounds).
"""

from __future__ import annotations

import random
import time

from bench.bench_ratings import GAME, SEED, build_club, empty
from bench.common import bench_parser, fetch, gunicorn, machine, ms, setup_django

ROLE = {"declarer": {"deals": 9, "won": 7, "lost": 2},
        "defender": {"deals": 27, "won": 5, "lost": 22}}
KIND = {"suit": {"declared": 6, "won": 5, "lost": 1},
        "grand": {"declared": 2, "won": 2, "lost": 0},
        "null": {"declared": 1, "won": 0, "lost": 1}}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def build(args, rng: random.Random) -> tuple[int, int]:
    """The rated club; (sheets, one member's id)."""
    from clubs.models import Player
    from ratings.insight_models import SheetStat
    from ratings.services import ratings_recompute

    empty()
    sheets = build_club("Bench Insight", args.years, args.players, args.rounds, rng)
    started = time.perf_counter()
    ratings_recompute(game=GAME, full=True)
    print(f"full recompute with the statistics: {ms(time.perf_counter() - started)}")
    SheetStat.objects.filter(game=GAME).update(deals=36, by_role=ROLE, by_kind=KIND)
    from django.db import connection

    with connection.cursor() as cursor:
        # a club's database between two evenings has been vacuumed and analysed long since
        for table in ("ratings_sheetstat", "tournaments_tournament"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    player = Player.objects.order_by("pk").values_list("pk", flat=True).first()
    return sheets, player


def measure(port: int, path: str, count: int, headers: dict | None = None,
            status: int = 200) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        got, _headers, _body = fetch(port, path, headers)
        times.append(time.perf_counter() - started)
        assert got == status, (path, got)
    return times


def main() -> None:
    parser = bench_parser(__doc__, players=24, years=10, rounds=2, requests=300)
    args = parser.parse_args()
    setup_django()
    sheets, player = build(args, random.Random(SEED))
    stats = f"/api/v1/players/{player}/stats/?game={GAME}"
    ratings = f"/api/v1/players/{player}/ratings/"
    with gunicorn(workers=1) as port:
        status, headers, body = fetch(port, stats)
        assert status == 200, body[:300]
        etag = headers["ETag"]
        for path in (stats, ratings):
            measure(port, path, 20)  # warm-up
        figures = {
            "stats": measure(port, stats, args.requests),
            "stats, 304": measure(port, stats, args.requests, {"If-None-Match": etag}, 304),
            "stats, one year (from=)": measure(
                port, f"{stats}&from={time.strftime('%Y')}-01-01", args.requests),
            "ratings (baseline)": measure(port, ratings, args.requests),
        }
    print(f"machine: {machine()}")
    print(f"club: {args.players} players, {args.years} years of weekly evenings of "
          f"{args.rounds} round(s) ({sheets} sheets); the player's answer holds "
          f"{len(body)} bytes; {args.requests} requests each, one after the other")
    for label, times in figures.items():
        print(f"{label:>26}: p50 {ms(percentile(times, 0.5)):>9}  "
              f"p95 {ms(percentile(times, 0.95)):>9}")


if __name__ == "__main__":
    main()
