"""The ranking draw (*Setzliste*): players seated by their current standing.

``participants`` is the standing order, best first. The best players fill table 1,
the next table 2, and so on; the tables take the composition's order, largest
first, so the leaders play at full tables of the preferred size (Skat 13 players:
places 1-4 at the 4-table, 5-7, 8-10 and 11-13 at the 3-tables). Only the seat order
inside a table is random, so that the leader does not always deal first.

Ties in the standings are the caller's to break before calling.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from .composition import composition, distinct, fill


def ranking(participants: Sequence[Hashable], sizes: Sequence[int], preferred: int,
            rng: random.Random) -> list[list[Hashable]]:
    """Tables (seat 1 first) in table-number order, best-placed players at table 1."""
    players = distinct(participants)
    tables = fill(players, composition(len(players), sizes, preferred))
    for table in tables:
        rng.shuffle(table)
    return tables
