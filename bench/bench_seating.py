"""Benchmark of the balanced seating draw for a large Skat tournament.

Terms: a round is one draw of all players into tables of 4 and 3; a repeated pair is
two players at one table who already shared a table in an earlier round.

For 3,000 Skat players, each repetition draws rounds 1 and 2 with the balanced
method as history, then times (a) the random draw of the same players, as a
baseline of what shuffling and cutting costs, and (b) the balanced draw of round 3,
and counts the repeated pairs left in round 3 (should be 0). Two more figures time
round 3 with clubs kept apart (``avoid_same_club``): 100 clubs of 30 players (no
club-mates need to meet), and a host club with two thirds of the field, where
club-mates cannot be avoided and the search spends its whole budget (the worst case;
its club-mate pairs are compared with the lower bound of an even spread).

Run from the repository root: ``python bench/bench_seating.py [--players N]
[--repeat R]``. The medians are what bench/README.md reports.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import (  # noqa: E402
    balanced,
    composition,
    random_draw,
    repeated_pairs,
)

SKAT = ((3, 4), 4)


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def club_pairs(tables, clubs) -> int:
    return sum(1 for table in tables for i, a in enumerate(table)
               for b in table[i + 1:] if clubs[a] == clubs[b])


def spread_floor(members: int, tables: int) -> int:
    """The fewest pairs a club of ``members`` forms spread evenly over ``tables``."""
    each, extra = divmod(members, tables)
    return extra * (each + 1) * each // 2 + (tables - extra) * each * (each - 1) // 2


def one_repetition(players: list[int], seed: int) -> dict[str, float]:
    history = []
    for number in (1, 2):
        history.append(balanced(players, *SKAT, random.Random(seed * 10 + number),
                                history=history))
    _, baseline = timed(random_draw, players, *SKAT, random.Random(seed * 10 + 3))
    third, seconds = timed(balanced, players, *SKAT, random.Random(seed * 10 + 3),
                           history=history)
    clubs = {p: p % 100 for p in players}
    with_clubs, club_seconds = timed(balanced, players, *SKAT,
                                     random.Random(seed * 10 + 4), history=history,
                                     clubs=clubs)
    club_mates = club_pairs(with_clubs, clubs)
    host = {p: "host" if p < len(players) * 2 // 3 else p % 100 for p in players}
    crowded, host_seconds = timed(balanced, players, *SKAT, random.Random(seed * 10 + 5),
                                  history=history, clubs=host)
    return {
        "random": baseline,
        "balanced": seconds,
        "repeated": repeated_pairs(third, history),
        "balanced+clubs": club_seconds,
        "repeated (clubs)": repeated_pairs(with_clubs, history),
        "club-mates": club_mates,
        "host club": host_seconds,
        "host club-mates": club_pairs(crowded, host),
        "host repeated": repeated_pairs(crowded, history),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    players = list(range(args.players))
    runs = []
    for seed in range(args.repeat):
        run = one_repetition(players, seed)
        runs.append(run)
        print(f"run {seed + 1}: random {run['random']:.4f} s, balanced round 3 "
              f"{run['balanced']:.4f} s ({run['repeated']} repeated pairs), with clubs "
              f"{run['balanced+clubs']:.4f} s ({run['repeated (clubs)']} repeated, "
              f"{run['club-mates']} club-mate pairs)")
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(f"\n{args.players} Skat players, median of {args.repeat} runs:")
    print(f"  random draw (baseline)     {median['random']:.4f} s")
    print(f"  balanced draw, round 3     {median['balanced']:.4f} s")
    print(f"  ratio balanced / random    {median['balanced'] / median['random']:.1f}")
    print(f"  repeated pairs in round 3  max {max(r['repeated'] for r in runs)}")
    print(f"  balanced with 100 clubs    {median['balanced+clubs']:.4f} s, "
          f"club-mate pairs median {median['club-mates']:.0f}, repeated pairs max "
          f"{max(r['repeated (clubs)'] for r in runs)}")
    floor = spread_floor(args.players * 2 // 3, len(composition(args.players, *SKAT)))
    print(f"  host club of two thirds    {median['host club']:.4f} s, "
          f"club-mate pairs median {median['host club-mates']:.0f} (bound {floor}), "
          f"repeated pairs max {max(r['host repeated'] for r in runs)}")


if __name__ == "__main__":
    main()
