"""Seating: who sits at which table in a round. Pure Python, standard library only.

Terms:

- participant id: any hashable value naming one participant of the tournament (the
  web layer passes ``Participant`` primary keys). A list of them is "the players".
- table: a list of participant ids in seat order, seat 1 first; a draw is a list of
  tables in table-number order (table 1 first).
- seat: 1..n clockwise at a table; the list position plus one.
- sizes / preferred: the table sizes a game can be played at and the one it is meant
  for, as plain ints (e.g. Skat ``(3, 4)`` and 4), so seating knows no game.
- composition: the table sizes of one round (``composition``), largest first.
- round: one draw; ``history`` is the list of earlier rounds' draws.
- pair / meeting: two players at one table form a pair; they meet in every round
  in which they share a table.
- rounds planned: how many rounds the tournament means to play; the balanced draw of a
  small field plans the remaining ones ahead (``planned``) so that no pair meets twice
  wherever a schedule allows it (``designs``: the affine planes and spaces, and
  the resolvable designs listed there).
- apart: pairs that must not meet (teammates), given as data.

Every generator takes a ``random.Random`` made from the round's stored seed, so a
draw is reproducible from the seed and the participants in the same order. A request
that cannot be met raises ``SeatingError`` (field, English msgid, params); a bug in
the caller raises ``SeatingInternalError``.
"""

from .balanced import balanced, repeated_pairs
from .composition import composition
from .draws import METHOD_LABELS, METHODS, check_method, draw, swap
from .errors import SeatingError, SeatingInternalError
from .planned import PLAN_MAX_PLAYERS, repeat_lower_bound
from .random_draw import random_draw
from .ranking import ranking

__all__ = [
    "METHOD_LABELS", "METHODS", "PLAN_MAX_PLAYERS", "SeatingError", "SeatingInternalError",
    "balanced", "check_method", "composition", "draw", "random_draw", "ranking",
    "repeat_lower_bound", "repeated_pairs", "swap",
]
