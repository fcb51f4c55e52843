"""Our standings beside PySkat's (the open Skat tournament tool) on the same championship.

Usage (from the repository root, after ``bench.bench_standings`` built its championship
in the bench database)::

    .venv/bin/python -m bench.bench_pyskat [--repeat 5]

PySkat evaluates from series totals (a player's game points, games won and lost per
table and series), not from deals. So both sides get exactly that: the seats of the
bench championship, as ``engine.sheet_totals`` stored them. PySkat runs in its own
virtual environment, ``.venv-pyskat`` (created on first use with the pinned
``PYSKAT``; it brings pandas, SQLModel and FastAPI, which the project does not need),
through ``bench/pyskat_side.py``: it stores the totals in its own models and times its
``/evaluation/total`` work (load every match, evaluate them, sum per player). Ours, in
the same run: the full ``standings_recompute`` (``full=True``), which reads the same
seats, sums them overall and per round and stores the pages. Both answers are checked to
give every player the same Seeger-Fabian total. Medians of ``--repeat``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench.bench_standings import setup_bench
from bench.common import CHAMPIONSHIP, machine, median, ms, ratio, timed

PYSKAT = "pyskat==0.3.0.post1"
VENV = Path(".venv-pyskat")


def pyskat_python() -> Path:
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} with {PYSKAT}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", PYSKAT], check=True)
    return python


def series_totals(tournament) -> list[list[list[int]]]:
    from tournaments.models import Seat

    tables: dict[int, list[list[int]]] = {}
    for table_id, pid, figures in (Seat.objects.filter(table__round__tournament=tournament)
                                   .order_by("table_id", "seat")
                                   .values_list("table_id", "participant_id", "figures")):
        tables.setdefault(table_id, []).append(
            [pid, figures["game_points"], figures["won"], figures["lost"]])
    return list(tables.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    python = pyskat_python()
    setup_bench()
    from tournaments.models import Tournament
    from tournaments.recompute.standings_rows import standings_recompute
    from tournaments.selectors import standings_rows

    tournament = Tournament.objects.filter(name=CHAMPIONSHIP).first()
    if tournament is None:
        sys.exit("no championship in the bench database: run bench.bench_standings first")
    matches = series_totals(tournament)
    players = tournament.participants.count()
    ours = [timed(lambda: standings_recompute(tournament_id=tournament.pk, full=True))[1]
            for _ in range(args.repeat)]
    run = subprocess.run([str(python), "bench/pyskat_side.py"], check=True,
                         capture_output=True, text=True,
                         input=json.dumps({"repeat": args.repeat, "matches": matches}))
    theirs = json.loads(run.stdout)
    ours += [timed(lambda: standings_recompute(tournament_id=tournament.pk, full=True))[1]
             for _ in range(args.repeat)]
    expected = {row["participant"]: row["score"] for row in standings_rows(tournament)}
    if {int(k): v for k, v in theirs["totals"].items()} != expected:
        sys.exit("PySkat's totals differ from ours")
    print(f"{players:,} players, {len(matches):,} series at tables; machine: {machine()}")
    print(f"PySkat /evaluation/total, median of {args.repeat}: "
          f"{ms(median(theirs['seconds']))}")
    print(f"ours, full standings_recompute, median of {2 * args.repeat} (before and after): "
          f"{ms(median(ours))}")
    print(f"ours faster by {ratio(median(theirs['seconds']), median(ours)):.0f}x "
          "(issue 16's goal: >= 100x); every player's total equal")


if __name__ == "__main__":
    main()
