"""The balanced draw: random, but players meet as few earlier table-mates as possible.

Terms:

- history: the earlier rounds of the tournament, each a list of tables, each a list
  of participant ids. It may name players who have withdrawn (ignored) and lack
  players who registered late (they have met nobody).
- meetings of a pair: in how many earlier rounds the two sat at the same table.
- club-mates: two players whose ``clubs`` entries are equal and not None (the
  tournament option ``avoid_same_club``).
- cost of a draw: the sum over pairs of table-mates of
  ``meetings² × scale + (1 if club-mates)``. A pair meeting for the third time
  costs 4, more than two pairs meeting for the second time; ``scale`` exceeds the
  number of pairs in the round, so one repeated meeting weighs more than any number
  of club-mates: meetings first, clubs second.

Method (``swap_search``): a random draw, then a tabu search that swaps players between tables. Each
step picks a player with a positive cost (one who sits with an earlier table-mate
before one who merely sits with a club-mate; the costliest of three picked at
random) and looks for the best partner at another table to swap with, stopping early
at a swap that leaves both with cost 0 (in large tournaments the first table looked
at nearly always does) or, past ``SAMPLE_TABLES`` tables, at any improving swap.
A random start has few conflicts in a large field (3,000 players after two rounds:
about ten repeated pairs), so the search is mostly a handful of swaps. Worsening swaps are
allowed so that small fields escape local minima; recently moved players are tabu
for a few steps so the search does not undo itself. The search ends at cost 0, at a
lower bound on the club cost, or when its budget of evaluated swaps (``effort``) is
spent, and returns the best draw seen. Everything is counted, never timed, so the
same seed gives the same draw on any machine.

With ``rounds_planned`` a field of up to ``planned.PLAN_MAX_PLAYERS`` players is not drawn
by this search alone: ``planned`` seats the remaining rounds ahead as one schedule (its
start is this search, round after round) and the draw takes the next round of it. Pairs
that must not meet (``apart``, e.g. teammates) weigh more than every repeated meeting.

Internally players are indices 0..n-1 in the order given, so that no set or dict
iteration over ids (whose order can depend on hash seeds) touches the result.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence

from .composition import composition, distinct
from .planned import PLAN_MAX_PLAYERS, planned_round
from .swap_search import PairCosts, repeated_pairs, seat_one_round

__all__ = ["balanced", "repeated_pairs"]

Tables = list[list[Hashable]]


def balanced(participants: Sequence[Hashable], sizes: Sequence[int], preferred: int,
             rng: random.Random, *, history: Iterable[Iterable[Iterable[Hashable]]] = (),
             clubs: Mapping[Hashable, Hashable | None] | None = None,
             apart: Iterable[tuple[Hashable, Hashable]] = (),
             rounds_planned: int | None = None, effort: int | None = None) -> Tables:
    """Tables (seat 1 first) in table-number order with the fewest repeated meetings.

    ``clubs`` maps a participant id to its club id (None or missing: no club); pass it
    only when club-mates should be kept apart. ``apart`` lists pairs that must not meet
    (teammates): they weigh more than any number of repeated meetings. With
    ``rounds_planned`` a field of at most ``PLAN_MAX_PLAYERS`` plans the remaining
    rounds ahead (``planned``) and draws the next round of that plan; a larger field,
    a round past the plan, or no plan draws this round alone (``swap_search``).
    """
    players = distinct(participants)
    table_sizes = composition(len(players), sizes, preferred)
    past = [[list(table) for table in round_tables] for round_tables in history]
    if (rounds_planned is not None and len(past) < rounds_planned
            and len(players) <= PLAN_MAX_PLAYERS and len(table_sizes) > 1):
        tables = planned_round(players, table_sizes, rounds_planned, rng, history=past,
                               clubs=clubs, apart=apart)
    else:
        tables = seat_one_round(len(players), table_sizes, rng,
                                PairCosts(players, past, clubs, table_sizes, apart), effort)
    drawn = [[players[i] for i in table] for table in tables]
    for table in drawn:
        rng.shuffle(table)
    return drawn
