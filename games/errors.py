"""The app's one error vocabulary: three kinds of error, used by every app and room.

- ``UserError``: bad input the user can fix. It carries one or more ``FieldError``s,
  each a *field path* (``"deals"``, ``"bids.2"``, ``"rules.tariff"``, ``"csv"``; ``""``
  for the input as a whole) and a *message*: an English msgid with ``%(name)s``
  parameters kept apart (``params``). Forms show it next to the field, the API answers
  400 naming the field.
- ``StateConflict``: the input is well formed but the current state forbids the action
  (sheet submitted, round closed, tournament finished). Forms show it above the fields,
  the API answers 409. Same msgid-and-params message, no field.
- ``InternalError``: something that cannot happen with valid calling code — a bug,
  never shown as the user's fault (the API answers 500).

Translation is lazy: a message stays msgid + params until the edge (a page, the API)
renders it in the reader's language with ``render(gettext)``; ``fill`` is the one way
a msgid is rendered. The edges are ``api/errors.py`` (HTTP answers) and
``tournaments/pages/form_errors.py`` with ``games/messages.py`` (form errors).

Why here: the vocabulary must be importable by the pure rooms (``games.engines``,
``tournaments.seating``, ``tournaments.standings``, which have no Django) and by every
app. ``games`` is the bottom layer every app may import, and a module of its own (not
``games.engines``) lets seating use it without depending on the engines. Pure Python:
nothing here imports Django (the ``pure-logic`` import contract holds it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _(message: str) -> str:
    """Mark a message for translation; the web layer translates it later."""
    return message


def fill(message: str, params: Mapping[str, Any] | None,
         translate: Callable[[str], str] = lambda s: s) -> str:
    """A msgid in the reader's language with its ``%(name)s`` parameters filled in: the
    one way every error and every phrase of the app is rendered."""
    text = translate(message)
    return text % params if params else text


@dataclass(frozen=True)
class FieldError:
    """One offending field: where it is and what is wrong with it.

    ``field`` is a dotted path inside the input (``"bids.2"``, ``"matadors"``,
    ``"rules.tariff"``); ``deal`` is the 0-based index of the deal in a submitted list
    (None for errors outside deals); ``number`` its deal number.
    """

    field: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    deal: int | None = None
    number: int | None = None

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        return fill(self.message, self.params, translate)

    def at(self, *, deal: int | None, number: int | None, prefix: str = "") -> FieldError:
        """The same error, placed in a deal of a list (and under a field prefix)."""
        name = f"{prefix}.{self.field}" if prefix and self.field else (prefix or self.field)
        return FieldError(name, self.message, self.params, deal, number)


class InternalError(Exception):
    """Something that cannot happen with valid code: a bug, never the user's fault."""


class UserError(Exception):
    """Bad input from a user: one or more ``FieldError``s, shown by forms and the API."""

    def __init__(self, errors: Iterable[FieldError]):
        self.errors = list(errors)
        if not self.errors:
            raise InternalError("UserError raised without errors")
        super().__init__("; ".join(f"{e.field}: {e.render()}" for e in self.errors))

    # the first error's parts, for errors that name one field (seating, a file)
    @property
    def field(self) -> str:
        return self.errors[0].field

    @property
    def message(self) -> str:
        return self.errors[0].message

    @property
    def params(self) -> dict[str, Any]:
        return self.errors[0].params

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """Every message in the reader's language, joined."""
        return "; ".join(e.render(translate) for e in self.errors)

    def __reduce__(self):
        # the default rebuilds from ``args`` (the rendered text); a task queue that
        # pickles the error must get fields, msgids and params back
        return _rebuild_user_error, (type(self), self.errors, self.args)


def _rebuild_user_error(cls: type[UserError], errors: list[FieldError],
                        args: tuple) -> UserError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.errors = list(errors)
    return error


def user_error(field_name: str, message: str, **params: Any) -> UserError:
    """A user error on one field."""
    return UserError([FieldError(field_name, message, params)])


# An error answer stays small whatever the body held (20,000 unknown keys, a thousand bad
# deals): it names at most MAX_UNKNOWN_NAMED unknown fields and MAX_ERRORS_NAMED errors
# in all, and says how many more there are.
MAX_UNKNOWN_NAMED = 20
MAX_ERRORS_NAMED = 100
UNKNOWN_FIELD = _("Unknown field “%(name)s”.")
MORE_UNKNOWN = _("… and %(count)s more unknown fields.")
MORE_ERRORS = _("… and %(count)s more errors.")


def named(unknown: Sequence[bool]) -> tuple[list[int], list[tuple[str, int]]]:
    """Which of an answer's errors it names (``unknown[i]``: error ``i`` is an unknown
    field): their indexes, and the summaries (msgid, count) of the ones left out."""
    keep: list[int] = []
    left_unknown = left_other = 0
    unknown_kept = 0
    for i, is_unknown in enumerate(unknown):
        if is_unknown and unknown_kept >= MAX_UNKNOWN_NAMED:
            left_unknown += 1
        elif len(keep) >= MAX_ERRORS_NAMED:
            left_other += 1
        else:
            keep.append(i)
            unknown_kept += is_unknown
    summaries = [(msgid, count) for msgid, count in ((MORE_UNKNOWN, left_unknown),
                                                     (MORE_ERRORS, left_other)) if count]
    return keep, summaries


def bounded(errors: Sequence[FieldError]) -> list[FieldError]:
    """``errors`` as an answer names them (``named``), the summaries last, on the body."""
    keep, summaries = named([e.message == UNKNOWN_FIELD for e in errors])
    return [*(errors[i] for i in keep),
            *(FieldError("", msgid, {"count": count}) for msgid, count in summaries)]


class Errors:
    """Collects field errors so that one pass reports every offending field."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, field_name: str, message: str, **params: Any) -> None:
        self.items.append(FieldError(field_name, message, params))

    def extend(self, errors: Iterable[FieldError]) -> None:
        self.items.extend(errors)

    def __bool__(self) -> bool:
        return bool(self.items)

    def has(self, field_name: str) -> bool:
        return any(e.field == field_name for e in self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise UserError(self.items)


class StateConflict(Exception):
    """The state forbids the action (sheet submitted, round closed, …) → HTTP 409.

    ``message`` is an English msgid with ``%(name)s`` parameters, like a field error's.
    """

    def __init__(self, message: str, **params: Any):
        self.message = message
        self.params = params
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        return fill(self.message, self.params, translate)

    def __reduce__(self):
        return _rebuild_conflict, (type(self), self.message, self.params)


def _rebuild_conflict(cls: type[StateConflict], message: str,
                      params: dict[str, Any]) -> StateConflict:
    return cls(message, **params)
