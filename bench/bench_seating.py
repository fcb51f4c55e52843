"""Benchmark of the balanced seating draw: repeats per round against the optimum, and time.

Terms: a round is one draw of all players into tables; a repeat is a pair of players at
one table who already shared a table in an earlier round; the planned rounds are the
tournament's ``rounds_planned``; the optimum of a round is 0 where a schedule without
repeats exists for the planned rounds (a known design of ``tournaments.seating.designs``,
or one the search reaches), otherwise the lower bound of ``tournaments.seating.repeat_lower_bound``.

Part 1 (fields of 9 to 64 players, and the Skat mix of 4- and 3-tables): for each field
and seed, the planned rounds are drawn one after the other twice: with the plan
(``rounds_planned``) and round by round (the draw before plans, the baseline), and the
repeats of each round, their sum and the slowest single draw are reported.

Part 2 (3,000 Skat players, too many to plan: drawn round by round): each repetition draws
rounds 1 and 2 as history, then times (a) the random draw of the same players, as a
baseline of what shuffling and cutting costs, and (b) the balanced draw of round 3 with
``rounds_planned``, and counts its repeats (should be 0). Two more figures time round 3
with clubs kept apart: 100 clubs of 30 players, and a host club of two thirds of the field
(the search spends its whole budget: the worst case), against the bound of an even spread.

Run from the repository root: ``python -m bench.bench_seating [--players N] [--repeat R]
[--seeds S] [--skip-small] [--fields 21,40]``. The medians are what bench/README.md reports.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench.common import timed
from tournaments.seating import (
    balanced,
    composition,
    random_draw,
    repeat_lower_bound,
    repeated_pairs,
)

SKAT = ((3, 4), 4)
# (players, table sizes, preferred size, rounds planned, a known repeat-free design)
FIELDS = [
    (9, (3,), 3, 4, "affine plane of order 3"),
    (12, (3,), 3, 4, None),
    (15, (3,), 3, 7, "Kirkman's schoolgirls"),
    (12, (4,), 4, 3, None),
    (16, (4,), 4, 5, "affine plane of order 4"),
    (27, (3,), 3, 13, "affine space AG(3, 3)"),
    (33, (3,), 3, 16, "half-rotational triple system"),
    (21, (3,), 3, 10, "triple system over Z7 x 3"),
    (39, (3,), 3, 19, "triple system over Z13 x 3"),
    (45, (3,), 3, 22, "15 in 3s tripled"),
    (20, (4,), 4, 5, None),
    (24, (4,), 4, 6, None),
    (28, (4,), 4, 9, "1-rotational design over Z9 x 3 + 1"),
    (40, (4,), 4, 13, "1-rotational design over Z13 x 3 + 1"),
    (32, (4,), 4, 8, None),
    (36, (4,), 4, 8, None),
    (64, (4,), 4, 8, None),
    (13, (3, 4), 4, 4, None),
    (18, (3, 4), 4, 5, None),
    (25, (3, 4), 4, 5, None),
]



def consecutive(count: int, sizes, preferred: int, rounds: int, seed: int,
                planned: bool) -> tuple[list[int], float]:
    """Repeats per round of ``rounds`` balanced rounds, and the slowest draw in seconds."""
    players = list(range(count))
    history: list = []
    repeats, slowest = [], 0.0
    for number in range(rounds):
        tables, seconds = timed(balanced, players, sizes, preferred,
                                random.Random(seed * 1000 + number), history=history,
                                rounds_planned=rounds if planned else None)
        slowest = max(slowest, seconds)
        repeats.append(repeated_pairs(tables, history))
        history.append(tables)
    return repeats, slowest


def small_fields(seeds: int, only: set[int] | None = None) -> None:
    print("| players | tables | rounds | optimum per round | planned: repeats per round "
          "(sum) | slowest draw | round by round (sum) | slowest draw |")
    print("|---|---|---|---|---|---|---|---|")
    for count, sizes, preferred, rounds, design in FIELDS:
        if only and count not in only:
            continue
        tables = composition(count, sizes, preferred)
        bound = repeat_lower_bound(count, tables, rounds)
        planned, old = [], []
        for seed in range(seeds):
            planned.append(consecutive(count, sizes, preferred, rounds, seed, True))
            old.append(consecutive(count, sizes, preferred, rounds, seed, False))
        # a schedule without repeats is proven by a known design or by any run reaching it
        if design:
            optimum = f"0 ({design})"
        elif any(sum(r) == 0 for r, _s in planned + old):
            optimum = "0 (reached)"
        else:
            optimum = "≥ " + " ".join(map(str, bound))
        shape = "+".join(str(s) for s in sorted(set(tables), reverse=True))
        print(f"| {count} | {len(tables)} × {shape} | {rounds} | {optimum} | "
              f"{_runs(planned)} | {max(s for _r, s in planned):.2f} s | "
              f"{_runs(old)} | {max(s for _r, s in old):.2f} s |", flush=True)


def _runs(runs) -> str:
    return "; ".join(f"{' '.join(map(str, repeats))} ({sum(repeats)})" for repeats, _s in runs)


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
                                history=history, rounds_planned=3))
    _, baseline = timed(random_draw, players, *SKAT, random.Random(seed * 10 + 3))
    third, seconds = timed(balanced, players, *SKAT, random.Random(seed * 10 + 3),
                           history=history, rounds_planned=3)
    clubs = {p: p % 100 for p in players}
    with_clubs, club_seconds = timed(balanced, players, *SKAT,
                                     random.Random(seed * 10 + 4), history=history,
                                     clubs=clubs, rounds_planned=3)
    host = {p: "host" if p < len(players) * 2 // 3 else p % 100 for p in players}
    crowded, host_seconds = timed(balanced, players, *SKAT, random.Random(seed * 10 + 5),
                                  history=history, clubs=host, rounds_planned=3)
    return {
        "random": baseline,
        "balanced": seconds,
        "repeated": repeated_pairs(third, history),
        "balanced+clubs": club_seconds,
        "repeated (clubs)": repeated_pairs(with_clubs, history),
        "club-mates": club_pairs(with_clubs, clubs),
        "host club": host_seconds,
        "host club-mates": club_pairs(crowded, host),
        "host repeated": repeated_pairs(crowded, history),
    }


def large_field(count: int, repeat: int) -> None:
    players = list(range(count))
    runs = [one_repetition(players, seed) for seed in range(repeat)]
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(f"\n{count} Skat players, round 3 of 3 planned, median of {repeat} runs:")
    print(f"  random draw (baseline)     {median['random']:.4f} s")
    print(f"  balanced draw, round 3     {median['balanced']:.4f} s")
    print(f"  ratio balanced / random    {median['balanced'] / median['random']:.1f}")
    print(f"  repeated pairs in round 3  max {max(r['repeated'] for r in runs)} (optimum 0)")
    print(f"  balanced with 100 clubs    {median['balanced+clubs']:.4f} s, "
          f"club-mate pairs median {median['club-mates']:.0f}, repeated pairs max "
          f"{max(r['repeated (clubs)'] for r in runs)}")
    floor = spread_floor(count * 2 // 3, len(composition(count, *SKAT)))
    print(f"  host club of two thirds    {median['host club']:.4f} s, "
          f"club-mate pairs median {median['host club-mates']:.0f} (bound {floor}), "
          f"repeated pairs max {max(r['host repeated'] for r in runs)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--skip-small", action="store_true")
    parser.add_argument("--fields", type=lambda text: {int(n) for n in text.split(",")},
                        help="only the small fields of these player counts, e.g. 21,40")
    args = parser.parse_args()
    if not args.skip_small:
        small_fields(args.seeds, args.fields)
    large_field(args.players, args.repeat)


if __name__ == "__main__":
    main()
