"""The random draw: a uniformly random partition into tables, random seats.

Shuffling the participants and cutting the list into the composition's tables makes
every assignment of participants to (table, seat) places equally likely.

The result depends on the seed and on the order of ``participants``: callers pass
them in a stable order (e.g. by start number) so that a stored seed reproduces the
round.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from .composition import composition, distinct, fill


def random_draw(participants: Sequence[Hashable], sizes: Sequence[int], preferred: int,
                rng: random.Random) -> list[list[Hashable]]:
    """Tables (seat 1 first) in table-number order, for the given participants."""
    players = distinct(participants)
    table_sizes = composition(len(players), sizes, preferred)
    rng.shuffle(players)
    return fill(players, table_sizes)
