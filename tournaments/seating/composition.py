"""Table composition: how many tables of which size a round has.

Terms:

- sizes: the table sizes a game can be played at (Skat ``(3, 4)``, Schafkopf
  ``(4, 5)``, Baptistenskat ``(3, 4, 5, 6)``, Basler ``(4,)``, La Bâtarde
  ``(3, ..., 7)``).
- preferred: the size the game is meant for (4 in every game above).
- deviation of a table: ``|size - preferred|``.
- composition: the list of table sizes of one round, largest first; table 1 is the
  first entry.

The rule (the spec's "the most tables of the preferred size, the rest as close to it
as possible", made exact). Among all ways to write the player count as a sum of
allowed sizes, take the one that, in this order,

1. has the most tables of the preferred size;
2. then has the smallest largest deviation among its tables;
3. then has the smallest total deviation;
4. then has the fewest tables;
5. then is the largest when both are listed largest first (a last, arbitrary but
   fixed, tie-break so that the answer never depends on iteration order).

For Skat this is N = 4a + 3b with a largest, i.e. b smallest: 13 → [4, 3, 3, 3],
5 → impossible. Baptistenskat (3..6): 10 → [4, 3, 3] (a 6-table deviates by 2, two
3-tables by 1 each); La Bâtarde 7 → [4, 3]; Schafkopf 13 → [5, 4, 4].

Why the search is small: in a best composition every other size occurs fewer than
``preferred`` times, since ``preferred`` tables of size s seat exactly the players of
s tables of the preferred size, and swapping them would add preferred tables. So we
enumerate those counts only and give the preferred size whatever is left.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

from .errors import SeatingError, SeatingInternalError, _


def composition(count: int, sizes: Sequence[int], preferred: int) -> list[int]:
    """The table sizes for ``count`` players, largest first (see the module rule).

    Raises ``SeatingError`` on ``"players"`` when ``count`` players cannot be seated.
    """
    allowed = check_sizes(sizes, preferred)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise SeatingInternalError(f"player count must be a non-negative int, not {count!r}")
    if count == 0:
        raise SeatingError("players", _("There are no players to seat."))
    if count < allowed[0]:
        raise SeatingError(
            "players",
            _("Too few players (%(count)s): a table needs at least %(min)s players."),
            count=count, min=allowed[0])
    others = [s for s in allowed if s != preferred]
    best: tuple | None = None
    best_tables: list[int] = []
    for tables in _candidates(count, others, preferred):
        key = _rank(tables, preferred)
        if best is None or key < best:
            best, best_tables = key, tables
    if best is None:
        raise SeatingError(
            "players", _("%(count)s players cannot be split into tables of %(sizes)s players."),
            count=count, sizes=", ".join(str(s) for s in allowed))
    return best_tables


def check_sizes(sizes: Sequence[int], preferred: int) -> list[int]:
    """The allowed sizes, ascending and distinct; a bad game definition is a bug."""
    allowed = sorted(set(sizes))
    if not allowed or any(isinstance(s, bool) or not isinstance(s, int) or s < 1
                          for s in allowed):
        raise SeatingInternalError(f"table sizes must be positive ints, not {sizes!r}")
    if preferred not in allowed:
        raise SeatingInternalError(f"preferred size {preferred!r} is not in {sizes!r}")
    return allowed


def _candidates(count: int, others: list[int], preferred: int) -> Iterator[list[int]]:
    """Every composition whose other sizes each occur fewer than ``preferred`` times."""
    def extend(index: int, rest: int, chosen: list[int]) -> Iterator[list[int]]:
        if index == len(others):
            if rest % preferred == 0:
                yield sorted([preferred] * (rest // preferred) + chosen, reverse=True)
            return
        size = others[index]
        for times in range(preferred):
            if size * times > rest:
                break
            yield from extend(index + 1, rest - size * times, chosen + [size] * times)

    yield from extend(0, count, [])


def _rank(tables: list[int], preferred: int) -> tuple:
    """Sort key of a composition: smaller is better (rules 1-5 of the module)."""
    deviations = [abs(size - preferred) for size in tables]
    return (-tables.count(preferred), max(deviations), sum(deviations), len(tables),
            [-size for size in tables])


# --------------------------------------------------------------------------- helpers
# shared by the draw methods


def distinct(participants: Sequence[Hashable]) -> list[Hashable]:
    """The participants as a list; one listed twice is a bug in the caller."""
    players = list(participants)
    if len(set(players)) != len(players):
        raise SeatingInternalError("a participant is listed twice")
    return players


def fill(players: Sequence[Hashable], table_sizes: Sequence[int]) -> list[list[Hashable]]:
    """Cut ``players`` into consecutive tables of ``table_sizes``."""
    tables, start = [], 0
    for size in table_sizes:
        tables.append(list(players[start:start + size]))
        start += size
    if start != len(players):
        raise SeatingInternalError("table sizes do not add up to the player count")
    return tables
