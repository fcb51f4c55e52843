"""Group schedules, hosts and the seating of a matchday group (games.md §9.3). Pure Python.

Terms:

- *team number*: 1..n, the division's teams in their order (the director's).
- *schedule*: per matchday a list of groups, each a sorted list of team numbers. For
  n = 4^k teams in groups of four the groups of a matchday are the parallel lines of one
  direction of the affine space GF(4)^k (team n ↔ the base-4 digits of n − 1), so every
  two teams meet exactly once over (4^k − 1) / 3 matchdays; for 16 teams this is the
  table of §9.3 (matchday 1: equal x; matchday j: equal ``y XOR mul(j − 2, x)``).
- *hosts*: on the decentral matchdays one team per group receives the others; each team
  hosts at most once where the slots allow (lowest number first, backtracking).
- *slot*: ``(t, p)``, the player at position p (0-based) of the group's team t (0-based,
  the order of the group); a *plan* is, per series, the tables in table order, each the
  slots in seat order (seat 1 first).
- *standard plan* (4 teams of 4): in series s the slot (t, p) sits at table
  ``p XOR mul(s − 1, t)``; over four series every two players of different teams meet
  once. Within a table team t takes seat ``(t + s − 1) mod 4``.
- *balanced plan* (other shapes: missing players, 2, 3 or 5 teams, larger teams): as many
  tables as the larger of the biggest line-up and ⌈players / 4⌉ (with two teams: two
  players of each team per 4-table), one player per team per table, as few repeated
  opponents over the day as a seeded search finds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

from games.errors import _, user_error

Slot = tuple[int, int]
Plan = list[list[list[Slot]]]

MAX_SERIES = 8
BALANCED_TRIES = 300


def mul(a: int, b: int) -> int:
    """Multiplication in GF(4) = {0, 1, 2, 3} (2 = ω, 3 = ω + 1; addition is XOR)."""
    if a == 0 or b == 0:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    # ω·ω = ω + 1, ω·(ω + 1) = 1, (ω + 1)² = ω
    return {(2, 2): 3, (2, 3): 1, (3, 2): 1, (3, 3): 2}[(a, b)]


def schedule_power(count: int) -> int | None:
    """k when ``count`` = 4^k (k ≥ 1), else None: the schedule applies."""
    k, n = 0, count
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return k if n == 1 and k >= 1 else None


def _digits(number: int, k: int) -> tuple[int, ...]:
    return tuple((number >> (2 * (k - 1 - i))) & 3 for i in range(k))


def group_schedule(count: int) -> list[list[list[int]]]:
    """The matchdays' groups of ``count`` = 4^k teams (team numbers 1..count), every two
    teams in one group exactly once. ``UserError`` on ``groups`` for another count."""
    k = schedule_power(count)
    if k is None:
        raise user_error("groups", _("The group schedule is made for 4, 16, 64… teams; "
                                     "with %(count)s teams enter the groups."), count=count)
    points = [_digits(n, k) for n in range(count)]
    index = {p: n for n, p in enumerate(points)}
    # directions with leading coordinate 1, in increasing order as base-4 numbers
    directions = [d for d in points if any(d) and d[next(i for i, c in enumerate(d) if c)] == 1]
    directions.sort(key=lambda d: int("".join(map(str, d)), 4))
    matchdays = []
    for d in directions:
        seen: set[int] = set()
        groups = []
        for n, p in enumerate(points):
            if n in seen:
                continue
            line = sorted(index[tuple(c ^ mul(lam, dc) for c, dc in zip(p, d, strict=True))]
                          for lam in range(4))
            seen.update(line)
            groups.append([m + 1 for m in line])
        groups.sort()
        matchdays.append(groups)
    return matchdays


def assign_hosts(matchdays: Sequence[Sequence[Sequence[int]]],
                 hosted: Sequence[int] = ()) -> list[list[int]]:
    """A host per group of each given (decentral) matchday: the lowest team number that
    has not hosted yet, backtracking when stuck; each team hosts at most ``limit`` times
    (once where there are as many teams as slots), ``hosted`` counting earlier hostings."""
    teams = {t for day in matchdays for group in day for t in group} | set(hosted)
    slots = sum(len(day) for day in matchdays) + len(hosted)
    limit = max(1, math.ceil(slots / max(1, len(teams))))
    counts: dict[int, int] = {}
    for t in hosted:
        counts[t] = counts.get(t, 0) + 1
    flat = [(d, g) for d, day in enumerate(matchdays) for g in range(len(day))]
    chosen: list[int] = []

    def place(i: int) -> bool:
        if i == len(flat):
            return True
        d, g = flat[i]
        for team in sorted(matchdays[d][g]):
            if counts.get(team, 0) >= limit:
                continue
            counts[team] = counts.get(team, 0) + 1
            chosen.append(team)
            if place(i + 1):
                return True
            chosen.pop()
            counts[team] -= 1
        return False

    if not place(0):  # cannot happen for the schedule; a fallback rather than a failure
        chosen = [min(matchdays[d][g]) for d, g in flat]
    result, it = [], iter(chosen)
    for day in matchdays:
        result.append([next(it) for _group in day])
    return result


def standard_plan(series: int) -> Plan:
    """The standard plan of 4 teams × 4 positions for series 1..``series`` (≤ 4)."""
    plan = []
    for s in range(1, series + 1):
        tables: list[list[Slot]] = [[] for _ in range(4)]
        for t in range(4):
            for p in range(4):
                tables[p ^ mul(s - 1, t)].append((t, p))
        for table in tables:
            table.sort(key=lambda slot: (slot[0] + s - 1) % 4)
        plan.append(tables)
    return plan


def table_count(lineups: Sequence[int], per_table: int = 4) -> int:
    """Tables of a group whose teams field ``lineups`` players (absent teams left out)."""
    players = sum(lineups)
    if len([n for n in lineups if n]) == 2:
        return math.ceil(players / per_table)
    return max(max(lineups, default=0), math.ceil(players / per_table))


def _sizes_ok(plan: Plan, present: Sequence[Sequence[bool]], sizes: Sequence[int]) -> bool:
    return all(sum(1 for t, p in table if present[t][p]) in sizes
               for tables in plan for table in tables)


def group_plan(present: Sequence[Sequence[bool]], series: int, sizes: Sequence[int],
               rng: random.Random) -> tuple[str, Plan]:
    """The day's plan of a group: ``present[t][p]`` says whether team t fields position p
    (absent teams are left out by the caller). The standard plan where it applies
    (``"standard"``; its tables also hold the missing positions, who may arrive late),
    else the balanced one (``"balanced"``, only the present positions).
    ``UserError`` on ``lineups`` when the players cannot be seated."""
    if not 1 <= series <= MAX_SERIES:
        raise user_error("series", _("A matchday has 1 to %(max)s series."), max=MAX_SERIES)
    counts = [sum(1 for x in team if x) for team in present]
    if (len(present) == 4 and all(len(team) == 4 for team in present) and series <= 4
            and table_count(counts) == 4):
        plan = standard_plan(series)
        if _sizes_ok(plan, present, sizes):
            return "standard", plan
    return "balanced", balanced_plan(present, series, sizes, rng)


def _capacities(players: int, tables: int, sizes: Sequence[int], cap: int) -> list[int] | None:
    if tables == 0:
        return None
    q, r = divmod(players, tables)
    caps = [q + 1] * r + [q] * (tables - r)
    if any(c not in sizes or c > cap for c in caps):
        return None
    return caps


def balanced_plan(present: Sequence[Sequence[bool]], series: int, sizes: Sequence[int],
                  rng: random.Random) -> Plan:
    """One player per team per table (two per team with only two teams), tables as even
    as the sizes allow, fewest repeated opponents over the day."""
    slots = [[(t, p) for p, here in enumerate(team) if here] for t, team in enumerate(present)]
    slots = [team for team in slots if team]
    teams = len(slots)
    counts = [len(team) for team in slots]
    per_team = 2 if teams == 2 else 1
    if teams == 2 and (counts[0] != counts[1] or counts[0] % 2):
        raise user_error("lineups", _("With two teams both must field the same even number "
                                      "of players."))
    tables = table_count(counts)
    caps = _capacities(sum(counts), tables, sizes, teams * per_team)
    if teams < 2 or caps is None:
        raise user_error("lineups", _("These line-ups cannot be seated with one player of "
                                      "each team at a table."))
    met: dict[frozenset, int] = {}
    plan: Plan = []
    for s in range(1, series + 1):
        best, best_cost = None, None
        for _try in range(BALANCED_TRIES):
            seating = _assign(slots, caps, per_team, rng)
            if seating is None:
                continue
            cost = sum(met.get(frozenset(pair), 0) ** 2
                       for table in seating for pair in combinations(table, 2)
                       if pair[0][0] != pair[1][0])
            if best_cost is None or cost < best_cost:
                best, best_cost = seating, cost
                if cost == 0:
                    break
        if best is None:
            raise user_error("lineups", _("These line-ups cannot be seated with one player "
                                          "of each team at a table."))
        for table in best:
            table.sort(key=lambda slot: ((slot[0] + s - 1) % teams, slot[1]))
            for a, b in combinations(table, 2):
                if a[0] != b[0]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        plan.append(best)
    return plan


def _assign(slots: list[list[Slot]], caps: list[int], per_team: int,
            rng: random.Random) -> list[list[Slot]] | None:
    """Each team's players to tables with room, at most ``per_team`` per table: the
    largest teams first, each to the tables with the most room left (ties at random) —
    the greedy that succeeds whenever any assignment does."""
    room = list(caps)
    tables: list[list[Slot]] = [[] for _ in caps]
    order = sorted(range(len(slots)), key=lambda t: (-len(slots[t]), rng.random()))
    for t in order:
        players = list(slots[t])
        rng.shuffle(players)
        need = len(players)
        chosen: list[int] = []
        for _round in range(per_team):
            candidates = sorted((i for i in range(len(room)) if room[i] > 0),
                                key=lambda i: (-room[i], rng.random()))
            take = candidates[:min(need - len(chosen), len(candidates))]
            for i in take:
                room[i] -= 1
            chosen.extend(take)
            if len(chosen) == need:
                break
        if len(chosen) != need:
            return None
        for i, slot in zip(chosen, players, strict=True):
            tables[i].append(slot)
    return tables
