"""Seating's names for the app's error vocabulary (``games.errors``).

- ``SeatingError``: the director asked for something that cannot be done (a player
  count that cannot be split into tables, an unknown method, a swap of a player who
  is not seated): a ``UserError`` on one ``field`` (``"players"``, ``"method"``) with an
  English msgid and ``params``; the web layer translates it like any user error.
- ``SeatingInternalError``: a bug in the caller (a table size list without the
  preferred size, a participant listed twice); never shown as the user's fault.

Pure Python: no Django and no ``games.engines`` here, so seating works for any game
given its table sizes as plain ints.
"""

from __future__ import annotations

from typing import Any

from games.errors import FieldError, InternalError, UserError, _  # noqa: F401


class SeatingError(UserError):
    """A seating request the user can fix: ``field``, msgid ``message``, ``params``."""

    def __init__(self, field: str, message: str, **params: Any):
        super().__init__([FieldError(field, message, params)])


class SeatingInternalError(InternalError):
    """Something that cannot happen with valid calling code: a bug, never the user's."""
