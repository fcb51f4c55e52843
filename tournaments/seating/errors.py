"""The two kinds of seating error.

- ``SeatingError``: the director asked for something that cannot be done (a player
  count that cannot be split into tables, an unknown method, a swap of a player who
  is not seated). It names the offending ``field`` (``"players"``, ``"method"``) and
  carries an English msgid with ``%(name)s`` parameters, like the engines'
  ``FieldError``; the web layer translates the msgid and fills in ``params``.
- ``SeatingInternalError``: a bug in the caller (a table size list without the
  preferred size, a participant listed twice); never shown as the user's fault.

Pure Python: no Django and no ``games.engines`` here, so seating works for any game
given its table sizes as plain ints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _(message: str) -> str:
    """Mark a message for translation; the web layer translates it later."""
    return message


class SeatingError(Exception):
    """A seating request the user can fix: ``field``, msgid ``message``, ``params``."""

    def __init__(self, field: str, message: str, **params: Any):
        self.field = field
        self.message = message
        self.params = params
        super().__init__(f"{field}: {self.render()}")

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        text = translate(self.message)
        return text % self.params if self.params else text

    def __reduce__(self):
        # the default rebuilds from ``args`` (the rendered text); a task queue that
        # pickles the error must get field, msgid and params back
        return _rebuild, (self.field, self.message, self.params)


def _rebuild(field: str, message: str, params: dict[str, Any]) -> SeatingError:
    return SeatingError(field, message, **params)


class SeatingInternalError(Exception):
    """Something that cannot happen with valid calling code: a bug, never the user's."""
