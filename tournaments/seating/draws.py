"""A round's draw by method name, and the director's swap of two players.

Terms:

- method: ``"random"``, ``"balanced"`` or ``"ranking"`` (the API's ``method``).
- tables: the result of a draw, a list of tables in table-number order, each a list
  of participant ids in seat order (seat 1 first).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence

from .balanced import balanced
from .errors import SeatingError, _
from .random_draw import random_draw
from .ranking import ranking

Tables = list[list[Hashable]]

# The one list of drawing methods: name → generator. Their labels (msgids, translated by
# the web layer) are the choices of ``Round.method``; ``check_method`` is the one check.
METHODS = {"random": random_draw, "balanced": balanced, "ranking": ranking}
METHOD_LABELS = {"random": _("random"), "balanced": _("balanced"), "ranking": _("by ranking")}


def check_method(method: str) -> str:
    """``method`` when it names a drawing method, else ``SeatingError`` on ``method``."""
    if method not in METHODS:
        raise SeatingError(
            "method", _("Unknown seating method “%(method)s”; use one of %(methods)s."),
            method=method, methods=", ".join(METHODS))
    return method


def draw(method: str, participants: Sequence[Hashable], sizes: Sequence[int], preferred: int,
         rng: random.Random, *, history: Iterable[Iterable[Iterable[Hashable]]] = (),
         clubs: Mapping[Hashable, Hashable | None] | None = None,
         apart: Iterable[tuple[Hashable, Hashable]] = (),
         rounds_planned: int | None = None) -> Tables:
    """Draw a round with the named method.

    For ``"ranking"`` the participants come in standing order, best first; ``history``,
    ``clubs``, ``apart`` (pairs that must not meet) and ``rounds_planned`` are used by
    ``"balanced"`` only.
    """
    check_method(method)
    if method == "balanced":
        return balanced(participants, sizes, preferred, rng, history=history, clubs=clubs,
                        apart=apart, rounds_planned=rounds_planned)
    return METHODS[method](participants, sizes, preferred, rng)


def swap(tables: Sequence[Sequence[Hashable]], a: Hashable, b: Hashable) -> Tables:
    """New tables with players ``a`` and ``b`` in each other's seats.

    Swapping two players at the same table swaps their seats. The input is not changed.
    """
    if a == b:
        raise SeatingError("players", _("A player cannot be swapped with themselves."))
    result = [list(table) for table in tables]
    places = {}
    for number, table in enumerate(result):
        for seat, player in enumerate(table):
            if player in (a, b):
                places[player] = (number, seat)
    for player in (a, b):
        if player not in places:
            raise SeatingError("players", _("Player %(player)s is not seated in this round."),
                               player=player)
    (ta, sa), (tb, sb) = places[a], places[b]
    result[ta][sa], result[tb][sb] = b, a
    return result
