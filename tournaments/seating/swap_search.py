"""The swap search of the balanced draw: one round seated with the fewest costly pairs.

Terms and method are those of ``balanced`` (its module docstring): the cost of a draw
(``PairCosts``: repeated meetings first, pairs kept apart above them, club-mates last),
a random start and a tabu search that swaps players between tables, counted, never timed.
``balanced`` draws a round with it, and ``planned`` starts its schedules with it.

Internally players are indices 0..n-1 in the order given, so that no set or dict
iteration over ids (whose order can depend on hash seeds) touches the result.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable

from .composition import fill

# Evaluated swaps allowed per draw: a fixed part for small fields (where tabu search
# needs many steps) plus a part per player. It is only spent when no draw without
# conflicts exists: about 0.1 s for 13 players, 0.35 s for 3,000 (bench/README.md).
BASE_EFFORT = 60_000
EFFORT_PER_PLAYER = 200
# A step takes the first improving swap once it has looked at this many tables: a
# full scan per step would spend a large field's whole budget in a few steps, while
# a small field (up to this many tables) still gets the best swap every time.
SAMPLE_TABLES = 20
# Bad players looked at to pick the one to move (the costliest of them).
PICK_TRIES = 3
# What a step costs besides its evaluated swaps (picking, bookkeeping), in swaps.
STEP_EFFORT = 10


def seat_one_round(count: int, table_sizes: list[int], rng: random.Random,
                   costs: PairCosts, effort: int | None = None) -> list[list[int]]:
    """Players 0..count-1 at tables of ``table_sizes``: a random start, then the swap
    search against ``costs``."""
    order = list(range(count))
    rng.shuffle(order)
    if effort is None:
        effort = BASE_EFFORT + EFFORT_PER_PLAYER * count
    return _Search(costs, fill(order, table_sizes), rng).run(effort)


def repeated_pairs(tables: Iterable[Iterable[Hashable]],
                   history: Iterable[Iterable[Iterable[Hashable]]]) -> int:
    """How many pairs of table-mates in ``tables`` already met in ``history``."""
    met = set()
    for round_tables in history:
        for table in round_tables:
            met.update(_pairs(table))
    return sum(1 for table in tables for pair in _pairs(table) if pair in met)


def _pairs(table: Iterable[Hashable]) -> Iterable[frozenset]:
    members = list(table)
    for i, a in enumerate(members):
        for b in members[i + 1:]:
            yield frozenset((a, b))


class PairCosts:
    """What it costs to seat two players (by index) at one table."""

    def __init__(self, players: list[Hashable], history, clubs, table_sizes: list[int],
                 apart: Iterable[tuple[Hashable, Hashable]] = ()):
        index = {player: i for i, player in enumerate(players)}
        scale = sum(size * (size - 1) // 2 for size in table_sizes) + 1
        meetings: list[dict[int, int]] = [{} for _ in players]
        rounds = 0
        for round_tables in history:
            rounds += 1
            for table in round_tables:
                # withdrawn players are no longer seated, so their meetings do not matter
                seated = [index[p] for p in table if p in index]
                for a in seated:
                    row = meetings[a]
                    for b in seated:
                        if a != b:
                            row[b] = row.get(b, 0) + 1
        # meetings² × scale, precomputed: the search only ever looks these up
        self.scale = scale
        self.met = [{b: m * m * scale for b, m in row.items()} for row in meetings]
        # a pair that must not meet weighs more than every repeated meeting of a round
        # (fewer than ``scale`` pairs, each at most meetings² × scale ≤ rounds² × scale)
        forbidden = scale * scale * (rounds + 1) ** 2
        for a, b in apart:
            if a in index and b in index and a != b:
                i, j = index[a], index[b]
                self.met[i][j] = self.met[i].get(j, 0) + forbidden
                self.met[j][i] = self.met[j].get(i, 0) + forbidden
        self.club, self.club_floor = _club_labels(players, clubs, len(table_sizes))

    def between(self, a: int, b: int) -> int:
        return self.met[a].get(b, 0) + (self.club[a] == self.club[b])

    def at_table(self, a: int, table: Iterable[int]) -> int:
        met, club = self.met[a], self.club
        own = club[a]
        return sum(met.get(b, 0) + (own == club[b]) for b in table if b != a)


def _club_labels(players: list[Hashable], clubs, table_count: int) -> tuple[list[int], int]:
    """Club labels by index, and a lower bound on the pairs of club-mates in any draw.

    A player without a club gets a label of its own (negative), so the search compares
    labels only. A club of c players spread as evenly as possible over the tables has
    the fewest pairs at one table; the sum over clubs bounds the club cost from below
    and lets the search stop once it is reached.
    """
    labels: list[int] = []
    known: dict[Hashable, int] = {}
    for i, player in enumerate(players):
        club = clubs.get(player) if clubs else None
        if club is None:
            labels.append(-1 - i)
        else:
            labels.append(known.setdefault(club, len(known)))
    floor = 0
    for label in range(len(known)):
        members = labels.count(label)
        each, extra = divmod(members, table_count)
        floor += extra * (each + 1) * each // 2 + (table_count - extra) * each * (each - 1) // 2
    return labels, floor


class _BadPlayers:
    """Players with a positive cost, with O(1) add, remove and random choice."""

    def __init__(self, size: int):
        self.items: list[int] = []
        self.where = [-1] * size

    def update(self, player: int, bad: bool) -> None:
        if bad and self.where[player] < 0:
            self.where[player] = len(self.items)
            self.items.append(player)
        elif not bad and self.where[player] >= 0:
            spot, last = self.where[player], self.items[-1]
            self.items[spot], self.where[last] = last, spot
            self.items.pop()
            self.where[player] = -1

    def worst_of(self, tries: int, cost: list[int], rng: random.Random) -> int:
        """The costliest of a few random bad players: where a swap gains the most."""
        items = self.items
        return max((items[rng.randrange(len(items))] for _ in range(tries)),
                   key=cost.__getitem__)


class _Search:
    """Tabu search over swaps of two players at different tables."""

    def __init__(self, costs: PairCosts, tables: list[list[int]], rng: random.Random):
        self.costs, self.tables, self.rng = costs, tables, rng
        count = sum(len(t) for t in tables)
        self.table_of = [0] * count
        for number, table in enumerate(tables):
            for player in table:
                self.table_of[player] = number
        self.cost = [costs.at_table(p, tables[self.table_of[p]]) for p in range(count)]
        self.total = sum(self.cost) // 2
        # players who sit with someone they met are moved before those who merely sit
        # with a club-mate, as meetings weigh more
        self.meeting, self.club_only = _BadPlayers(count), _BadPlayers(count)
        for player, cost in enumerate(self.cost):
            self._set_cost(player, cost)
        self.tabu_until = [0] * count
        # long enough to stop a swap from being undone at once, short enough to let a
        # small field (13 players) move freely
        self.tenure = max(1, min(7, count // 4))

    def run(self, effort: int) -> list[list[int]]:
        floor = self.costs.club_floor
        best_total, best_tables = self.total, None  # None: the current draw is the best
        spent, step = 0, 0
        if len(self.tables) < 2:  # one table: nothing to swap
            return self.tables
        while self.total > floor and spent < effort:
            step += 1
            bad = self.meeting if self.meeting.items else self.club_only
            player = bad.worst_of(PICK_TRIES, self.cost, self.rng)
            move, delta, evaluated = self._best_swap(player, step, best_total)
            spent += evaluated + STEP_EFFORT
            if move is None:
                continue
            if delta > 0 and best_tables is None:
                best_tables = [list(t) for t in self.tables]
            self._swap(*move, delta)
            self.tabu_until[player] = self.tabu_until[move[1]] = (
                step + self.tenure + self.rng.randrange(3))
            if self.total < best_total:
                best_total, best_tables = self.total, None
        return self.tables if best_tables is None else best_tables

    def _best_swap(self, player: int, step: int, best_total: int):
        """The best swap for ``player``: ((player, partner, new costs), delta, evaluated)."""
        met, club = self.costs.met, self.costs.club
        own_met, own_club = met[player], club[player]
        home = self.tables[self.table_of[player]]
        to_home, clubs_home = self._pull_of(home, player)
        old, cost, tabu_until = self.cost[player], self.cost, self.tabu_until
        tables, count = self.tables, len(self.tables)
        best, best_delta, evaluated = None, 0, 0
        start = self.rng.randrange(count)
        for offset in range(count):
            table = tables[(start + offset) % count]
            if table is home:
                continue
            to_me = [own_met.get(b, 0) + (own_club == club[b]) for b in table]
            with_all = sum(to_me)
            for spot, partner in enumerate(table):
                evaluated += 1
                mine = with_all - to_me[spot]
                theirs = to_home.get(partner, 0) + clubs_home.get(club[partner], 0)
                delta = mine + theirs - old - cost[partner]
                if best is not None and delta >= best_delta:
                    continue
                if tabu_until[partner] > step and self.total + delta >= best_total:
                    continue
                best, best_delta = (player, partner, mine, theirs), delta
                if mine == 0 and theirs == 0:
                    return best, best_delta, evaluated
            if best_delta < 0 and offset >= SAMPLE_TABLES:
                break
        return best, best_delta, evaluated

    def _pull_of(self, home: list[int], leaving: int) -> tuple[dict, dict]:
        """What anyone would cost at ``home`` once ``leaving`` has left: meeting
        weights by player and table-mates by club (meetings are symmetric, so the
        stayers' rows say it all)."""
        met, club = self.costs.met, self.costs.club
        to_home: dict[int, int] = {}
        clubs_home: dict[int, int] = {}
        for stayer in home:
            if stayer != leaving:
                for other, weight in met[stayer].items():
                    to_home[other] = to_home.get(other, 0) + weight
                clubs_home[club[stayer]] = clubs_home.get(club[stayer], 0) + 1
        return to_home, clubs_home

    def _swap(self, player: int, partner: int, mine: int, theirs: int, delta: int) -> None:
        here, there = self.table_of[player], self.table_of[partner]
        home, away = self.tables[here], self.tables[there]
        between = self.costs.between
        for other in home:
            if other != player:
                self._set_cost(other, self.cost[other] + between(other, partner)
                               - between(other, player))
        for other in away:
            if other != partner:
                self._set_cost(other, self.cost[other] + between(other, player)
                               - between(other, partner))
        home[home.index(player)], away[away.index(partner)] = partner, player
        self.table_of[player], self.table_of[partner] = there, here
        self._set_cost(player, mine)
        self._set_cost(partner, theirs)
        self.total += delta

    def _set_cost(self, player: int, cost: int) -> None:
        self.cost[player] = cost
        # a club pair adds 1 and a table has fewer pairs than SCALE: any cost of at
        # least SCALE holds a meeting
        self.meeting.update(player, cost >= self.costs.scale)
        self.club_only.update(player, 0 < cost < self.costs.scale)
