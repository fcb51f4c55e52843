"""Planned balanced draws: the remaining rounds of a tournament seated ahead as one schedule.

Terms:

- rounds planned (R): how many rounds the tournament means to play; round k (1-based)
  leaves R − k + 1 rounds to plan, this one included.
- schedule (plan): the tables of every remaining round, each player at one table per
  round. Its cost counts every pair over the past and the planned rounds together:
  each meeting after a pair's first is a *repeat*; club-mates at one table, a third
  meeting and pairs that must not meet (``apart``: teammates) cost too.
- anchor: the past rounds a plan starts from (``history[:j]``). The plan of anchor j
  seats rounds j + 1 .. R for today's field.

Why plan: a round drawn only against the past can paint itself into a corner. Sixteen
players at tables of 4 meet everyone exactly once in five rounds (the affine plane of
order 4), but round-by-round draws reach round 4 with no repeat-free way left. So the
balanced draw plans the rounds still to come and seats the next one of the plan.

Method, for fields of at most ``PLAN_MAX_PLAYERS``:

1. The first round is the first of a plan made with the round's seed.
2. Later rounds follow the plan of the first anchor whose rounds so far are the rounds
   actually played. The plan of anchor j depends only on ``history[:j]`` and the field
   (its search is seeded from them), so the same plan comes back at every draw while
   the director follows it. A plan starts after the first round (anchor 1), or after the
   round from which today's field has sat unchanged (a withdrawal or a late arrival
   starts a new plan for the new field, its past pairs kept as a cost). When no plan
   fits the rounds played (a director swapped players, another method drew a round),
   the remaining rounds are planned anew from everything played.
3. A plan starts from a known design where one fits (``designs``): the q² players of an
   affine plane of order q at tables of q (9 players in 3s for 4 rounds, 16 in 4s for
   5), the affine spaces, Kirkman's 15 in 3s for 7, 21, 33, 39 and 45 in 3s, 28 and 40
   in 4s (all listed there); after its first round the design is
   laid over that round's tables, so the rest completes it. Otherwise it starts from the
   round-by-round draw (``balanced``), so a plan is never worse than drawing round by
   round would have been.
4. A tabu search then swaps two players at different tables of one planned round,
   picking a player who sits with a repeat (or a club-mate), taking the best swap not
   tabu, restarting from the best schedule seen (shaken a little) when it stalls, until
   the cost reaches its lower bound, the budget of pair look-ups (``PLAN_EFFORT``) is
   spent or ``MAX_STALLS`` restarts found nothing better; the best schedule seen wins.
   Counted, never timed: the same seed gives the same schedule on any machine.

Players are indices 0..n-1 here; pair tables are flat lists indexed ``a·n + b``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Hashable, Iterable, Mapping

from .designs import resolvable_classes
from .swap_search import PairCosts, seat_one_round

# Fields up to this size are planned ahead; larger ones are drawn round by round (the
# swap search handles thousands of players and has room enough to avoid repeats).
PLAN_MAX_PLAYERS = 100
# Work per schedule search, in pair look-ups (each step prices every player at every table
# of every round, then the swaps): a fixed part plus a part per player and round.
PLAN_EFFORT = 2_000_000
PLAN_EFFORT_PER_SEAT = 1_000
# Steps without a new best schedule before the search restarts from the best one, and
# restarts without a new best before it gives up (repeats are then likely unavoidable).
STALL_STEPS = 300
MAX_STALLS = 5

Round = list[list[int]]


def planned_round(players: list[Hashable], table_sizes: list[int], rounds_planned: int,
                  rng: random.Random, *, history: list[list[list[Hashable]]],
                  clubs: Mapping[Hashable, Hashable | None] | None,
                  apart: Iterable[tuple[Hashable, Hashable]]) -> Round:
    """The next round (player indices) of the plan that fits the rounds played."""
    index = {player: i for i, player in enumerate(players)}
    past = [[[index[p] for p in table if p in index] for table in tables]
            for tables in history]
    pairs = [(index[a], index[b]) for a, b in apart if a in index and b in index and a != b]
    labels = _club_labels(players, clubs)
    problem = _Problem(len(players), sorted(table_sizes, reverse=True), rounds_planned,
                       labels, pairs)
    played = len(past)
    if played == 0:
        return problem.plan([], rng)[0]
    for anchor in _anchors(past, len(players), problem.sizes):
        plan = _anchored_plan(problem, past[:anchor])
        if all(_same(plan[i], past[anchor + i]) for i in range(played - anchor)):
            return plan[played - anchor]
    raise AssertionError("the last anchor always fits")  # pragma: no cover


def _anchors(past: list[Round], count: int, sizes: list[int]) -> list[int]:
    """Where a plan may start: after the first round the current field sat unchanged
    from (at least round 1), and after the last round played."""
    start = len(past)
    while start > 0 and _fits(past[start - 1], count, sizes):
        start -= 1
    first = max(start, 1)
    return [first, len(past)] if first < len(past) else [len(past)]


def _fits(tables: Round, count: int, sizes: list[int]) -> bool:
    """Whether a past round seated exactly today's field at today's table sizes."""
    seated = sorted(p for table in tables for p in table)
    return seated == list(range(count)) and sorted(map(len, tables), reverse=True) == sizes


def _same(a: Round, b: Round) -> bool:
    return {frozenset(t) for t in a} == {frozenset(t) for t in b}


_PLANS: dict[str, list[Round]] = {}
_PLANS_KEPT = 32


def _anchored_plan(problem: _Problem, anchor: list[Round]) -> list[Round]:
    """The plan of an anchor, seeded from the field and the anchor rounds only, so that
    every draw that starts from the same anchor makes the same plan. The last few are
    remembered (a pure function of its key), so a tournament's later draws are quick."""
    key = repr((problem.count, problem.sizes, problem.rounds, problem.labels,
                sorted(problem.apart), [sorted(sorted(t) for t in tables) for tables in anchor]))
    plan = _PLANS.get(key)
    if plan is None:
        seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
        plan = problem.plan(anchor, random.Random(seed))
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.pop(next(iter(_PLANS), None), None)
        _PLANS[key] = plan
    return [[list(table) for table in tables] for tables in plan]


def _club_labels(players: list[Hashable], clubs) -> list[int]:
    """A label per player; players without a club get labels of their own."""
    known: dict[Hashable, int] = {}
    labels = []
    for i, player in enumerate(players):
        club = clubs.get(player) if clubs else None
        labels.append(-1 - i if club is None else known.setdefault(club, len(known)))
    return labels


def repeat_lower_bound(count: int, sizes: list[int], rounds: int) -> list[int]:
    """A lower bound on the repeats of each of ``rounds`` rounds of a fixed field.

    Two bounds, the larger counts: all meetings beyond the n(n−1)/2 pairs are repeats;
    and a table of s players drawn from the T tables of the round before holds at least
    the pairs that s players spread as evenly as possible over T tables must share.
    """
    pairs_per_round = sum(s * (s - 1) // 2 for s in sizes)
    tables = len(sizes)
    pigeon = 0
    for s in sizes:
        each, extra = divmod(s, tables)
        pigeon += extra * (each + 1) * each // 2 + (tables - extra) * each * (each - 1) // 2
    total_pairs = count * (count - 1) // 2
    bounds, before = [], 0
    for number in range(1, rounds + 1):
        cumulative = max(number * pairs_per_round - total_pairs, (number - 1) * pigeon)
        bounds.append(cumulative - before)
        before = cumulative
    return bounds


class _Problem:
    """One field to plan: its size, table sizes, rounds planned, clubs and apart pairs."""

    def __init__(self, count: int, sizes: list[int], rounds: int, labels: list[int],
                 apart: list[tuple[int, int]]):
        self.count, self.sizes, self.rounds = count, sizes, rounds
        self.labels, self.apart = labels, apart

    def plan(self, anchor: list[Round], rng: random.Random) -> list[Round]:
        """Rounds ``len(anchor) + 1 .. rounds`` after the anchor rounds."""
        todo = self.rounds - len(anchor)
        start = self._design_start(anchor, todo, rng) or self._greedy_start(anchor, todo, rng)
        return _ScheduleSearch(self, anchor, start, rng).run()

    def _design_start(self, anchor: list[Round], todo: int,
                      rng: random.Random) -> list[Round] | None:
        """Rounds of a known repeat-free design laid over the field (and over the one
        anchor round: its tables become the design's first round)."""
        size = self.sizes[0]
        if any(s != size for s in self.sizes) or len(anchor) > 1 \
                or (anchor and not _fits(anchor[0], self.count, self.sizes)):
            return None
        classes = resolvable_classes(self.count, size)
        if classes is None:
            return None
        if anchor:
            # the anchor's table t takes the places of the design's table t in its first
            # round: the other rounds then meet each of the anchor's pairs never again
            points = [0] * self.count
            for table, line in zip(anchor[0], classes[0], strict=True):
                for player, point in zip(table, line, strict=True):
                    points[point] = player
            classes = classes[1:]
        else:
            points = list(range(self.count))
            rng.shuffle(points)
        order = list(range(len(classes)))
        rng.shuffle(order)
        chosen = [[[points[p] for p in line] for line in classes[i]] for i in order[:todo]]
        if len(chosen) < todo:  # more rounds than the design has: the rest round by round
            chosen += self._greedy_start(anchor + chosen, todo - len(chosen), rng)
        return chosen

    def _greedy_start(self, anchor: list[Round], todo: int, rng: random.Random) -> list[Round]:
        """Rounds drawn one by one, each balanced against all before it."""
        players = list(range(self.count))
        clubs = {p: label for p, label in enumerate(self.labels) if label >= 0}
        done: list[Round] = []
        for _ in range(todo):
            costs = PairCosts(players, anchor + done, clubs, self.sizes, self.apart)
            done.append(seat_one_round(self.count, self.sizes, rng, costs))
        return done


class _ScheduleSearch:
    """Tabu search over swaps of two players at different tables of one planned round."""

    def __init__(self, problem: _Problem, anchor: list[Round], start: list[Round],
                 rng: random.Random):
        n = problem.count
        self.n, self.rng, self.problem = n, rng, problem
        self.rounds = [[list(t) for t in tables] for tables in start]
        self.table_of = [[0] * n for _ in start]
        for r, tables in enumerate(self.rounds):
            for number, table in enumerate(tables):
                for p in table:
                    self.table_of[r][p] = number
        self.count = [0] * (n * n)  # meetings of a pair, anchor and plan together
        for tables in anchor + self.rounds:
            for table in tables:
                for a in table:
                    for b in table:
                        if a != b:
                            self.count[a * n + b] += 1
        most = max(self.count, default=0) + len(start) + 1
        pairs = sum(s * (s - 1) // 2 for s in problem.sizes) * len(start)
        bound = pairs * most * most + 1  # more than any sum of the lower weights
        club, convex, repeat = 1, bound, bound * bound
        apart = repeat * bound
        # the cost of one more meeting of a pair that has met ``m`` times so far
        self.step = [(repeat if m >= 1 else 0) + convex * max(0, m - 1) for m in range(most + 1)]
        self.static = [0] * (n * n)  # per meeting: club-mates and pairs kept apart
        labels = problem.labels
        for a in range(n):
            for b in range(n):
                if a != b and labels[a] == labels[b]:
                    self.static[a * n + b] = club
        for a, b in problem.apart:
            self.static[a * n + b] += apart
            self.static[b * n + a] += apart
        self.repeat, self.convex = repeat, convex
        self.cost = self._total()
        # the bound holds for a field that sat unchanged through the anchor rounds
        same_field = all(_fits(tables, n, problem.sizes) for tables in anchor)
        floor = sum(repeat_lower_bound(n, problem.sizes, len(anchor) + len(start))
                    [len(anchor):]) if same_field else 0
        # done once repeats reach their bound and club-mates theirs; third meetings only
        # break ties (reaching the bound may need them: 12 players in 4s)
        self.repeat_floor, self.club_target = floor, self._club_floor() * len(start)
        seats = n * len(start)
        self.effort = PLAN_EFFORT + PLAN_EFFORT_PER_SEAT * seats

    def _club_floor(self) -> int:
        tables = len(self.problem.sizes)
        floor = 0
        for label in {x for x in self.problem.labels if x >= 0}:
            members = self.problem.labels.count(label)
            each, extra = divmod(members, tables)
            floor += extra * (each + 1) * each // 2 + (tables - extra) * each * (each - 1) // 2
        return floor

    def _total(self) -> int:
        n, step, static, count = self.n, self.step, self.static, self.count
        total = 0
        for a in range(n):
            for b in range(a + 1, n):
                m = count[a * n + b]
                total += sum(step[:m])
        for tables in self.rounds:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1:]:
                        total += static[a * n + b]
        return total

    def _seat_cost(self, p: int, table: list[int], leaving: int = -1) -> int:
        """What ``p`` costs at ``table`` where it sits (without ``leaving``)."""
        n, step, static, count = self.n, self.step, self.static, self.count
        row = p * n
        return sum(step[count[row + x] - 1] + static[row + x]
                   for x in table if x != p and x != leaving)

    def _join_cost(self, p: int, table: list[int], leaving: int) -> int:
        """What ``p`` would cost at ``table`` (where it does not sit) once ``leaving``
        has left it."""
        n, step, static, count = self.n, self.step, self.static, self.count
        row = p * n
        return sum(step[count[row + x]] + static[row + x] for x in table if x != leaving)

    def run(self) -> list[Round]:
        best_cost, best = self.cost, [[list(t) for t in tables] for tables in self.rounds]
        if len(self.problem.sizes) < 2:
            return best
        tabu: dict[tuple[int, int, int], int] = {}
        tenure = max(3, min(10, self.n // 3))
        spent = steps = since_best = stalls = 0
        while not self._done() and spent < self.effort and stalls < MAX_STALLS:
            steps += 1
            move, delta, evaluated = None, 0, 0
            for round_number in range(len(self.rounds)):
                found, change, looked = self._best_swap(round_number, steps, tabu, best_cost)
                evaluated += looked
                if found is not None and (move is None or change < delta or (
                        change == delta and self.rng.randrange(2))):
                    move, delta, r = found, change, round_number
            spent += evaluated + self.n
            if move is None:
                break
            p, q = move
            # neither player may go back to the table it left for a while
            tabu[(r, p, self.table_of[r][p])] = steps + tenure + self.rng.randrange(tenure)
            tabu[(r, q, self.table_of[r][q])] = steps + tenure + self.rng.randrange(tenure)
            self._swap(r, p, q)
            self.cost += delta
            if self.cost < best_cost:
                best_cost, since_best, stalls = self.cost, 0, 0
                best = [[list(t) for t in tables] for tables in self.rounds]
            else:
                since_best += 1
                if since_best > STALL_STEPS:
                    self._restart(best)
                    since_best, stalls = 0, stalls + 1
        return best

    def _done(self) -> bool:
        # the weights are scaled so that each level's total stays below the next weight
        return (self.cost // self.repeat <= self.repeat_floor
                and self.cost % self.convex <= self.club_target)

    def _restart(self, best: list[Round]) -> None:
        """Back to the best schedule, shaken by a few random swaps."""
        self._load(best)
        for _ in range(max(2, self.n // 8)):
            r = self.rng.randrange(len(self.rounds))
            tables = self.rounds[r]
            a, b = self.rng.sample(range(len(tables)), 2)
            p = self.rng.choice(tables[a])
            q = self.rng.choice(tables[b])
            self.cost += self._delta(r, p, q)
            self._swap(r, p, q)

    def _load(self, rounds: list[Round]) -> None:
        n = self.n
        for tables in self.rounds:  # take the plan's meetings out
            for table in tables:
                for a in table:
                    for b in table:
                        if a != b:
                            self.count[a * n + b] -= 1
        self.rounds = [[list(t) for t in tables] for tables in rounds]
        for r, tables in enumerate(self.rounds):
            for number, table in enumerate(tables):
                for a in table:
                    self.table_of[r][a] = number
                    for b in table:
                        if a != b:
                            self.count[a * n + b] += 1
        self.cost = self._total()

    def _delta(self, r: int, p: int, q: int) -> int:
        tables = self.rounds[r]
        home, away = tables[self.table_of[r][p]], tables[self.table_of[r][q]]
        return (self._join_cost(p, away, q) + self._join_cost(q, home, p)
                - self._seat_cost(p, home) - self._seat_cost(q, away))

    def _best_swap(self, r: int, steps: int, tabu: dict, best_cost: int):
        """The best swap in round ``r`` moving a player who sits with a cost: ((p, q),
        delta, work); a tabu swap only when it beats the best schedule. ``work`` counts
        the pair look-ups (the search's budget unit)."""
        n, step, static, count = self.n, self.step, self.static, self.count
        tables = self.rounds[r]
        where = self.table_of[r]
        seat = [0] * n
        for table in tables:
            for p in table:
                row = p * n
                seat[p] = sum(step[count[row + x] - 1] + static[row + x]
                              for x in table if x != p)
        movers = [p for p in range(n) if seat[p] > 0]
        if not movers:
            return None, 0, n
        # join[p][t]: what p would cost among everyone at table t (itself left out)
        join = []
        for p in range(n):
            row = p * n
            join.append([sum(step[count[row + x]] + static[row + x] for x in table if x != p)
                         for table in tables])
        best, best_delta, ties = None, 0, 0
        evaluated = 2 * n * n
        for p in movers:
            home_number = where[p]
            join_p, base = join[p], seat[p]
            row = p * n
            for number, away in enumerate(tables):
                if number == home_number:
                    continue
                p_tabu = tabu.get((r, p, number), 0) > steps
                into_away = join_p[number] - base
                for q in away:
                    if seat[q] > 0 and q < p:
                        continue  # this swap was looked at from q's side
                    evaluated += 1
                    # q's and p's meeting is counted by both joins but happens in neither
                    pair = step[count[row + q]] + static[row + q]
                    delta = into_away + join[q][home_number] - seat[q] - 2 * pair
                    if best is not None and delta > best_delta:
                        continue
                    if ((p_tabu or tabu.get((r, q, home_number), 0) > steps)
                            and self.cost + delta >= best_cost):
                        continue
                    if best is not None and delta == best_delta:
                        ties += 1  # an even choice among equal swaps
                        if self.rng.randrange(ties + 1):
                            continue
                    else:
                        ties = 0
                    best, best_delta = (p, q), delta
        return best, best_delta, evaluated

    def _swap(self, r: int, p: int, q: int) -> None:
        tables = self.rounds[r]
        tp, tq = self.table_of[r][p], self.table_of[r][q]
        home, away = tables[tp], tables[tq]
        self._replace(home, p, q)
        self._replace(away, q, p)
        home[home.index(p)], away[away.index(q)] = q, p
        self.table_of[r][p], self.table_of[r][q] = tq, tp

    def _replace(self, table: list[int], leaving: int, coming: int) -> None:
        """Count ``coming`` instead of ``leaving`` among the others at ``table``."""
        n, count = self.n, self.count
        for x in table:
            if x != leaving:
                count[leaving * n + x] -= 1
                count[x * n + leaving] -= 1
                count[coming * n + x] += 1
                count[x * n + coming] += 1


