"""Declarative checks for the archive reader: an archive's JSON object is described once
as a ``Shape`` of named fields, each a *kind* with its bounds, and ``Shape.read`` checks
an object against it, naming the offending path (``rounds.0.tables.2.number``).

Kinds: ``Text`` (a string of at most ``max_length`` characters), ``Slug``, ``Whole`` (a
whole number ``low..high``), ``Flag`` (true or false), ``Moment`` (an ISO 8601 date and
time), ``Day`` (``YYYY-MM-DD`` or null), ``OneOf`` (one of a model field's choices),
``ListOf`` (a list, bounded), ``Plain`` (passed through; the reader checks it itself).
Text lengths and choices come from the model fields (``Text.of(Tournament, "name")``),
numbers from ``tournaments.bounds``: no bound is written twice.

Every kind raises ``UserError`` on its path with the same msgids as before.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext_noop as _

from games.engines.base import is_int
from games.errors import FieldError, UserError
from tournaments.bounds import MAX_ARCHIVE_ITEMS, MAX_STORED_INT

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
DATETIME_TEXT_MAX = 40  # longer is no ISO 8601 date and time
DATE_TEXT_MAX = 10
ECHO_MAX = 40  # characters of a bad key or value repeated in a message


def fail(path: str, message: str, **params: Any) -> UserError:
    """A user error on ``path``."""
    return UserError([FieldError(path, message, params)])


def prefixed(exc: UserError, prefix: str) -> UserError:
    """``exc`` with every field placed under ``prefix``."""
    return UserError([FieldError(f"{prefix}.{e.field}" if e.field else prefix, e.message,
                                 e.params) for e in exc.errors])


def max_length(model: type[models.Model], name: str) -> int:
    return model._meta.get_field(name).max_length


@dataclass(frozen=True)
class Text:
    max_length: int
    blank: bool = True
    null: bool = False

    @classmethod
    def of(cls, model: type[models.Model], name: str, **kwargs: Any) -> Text:
        return cls(max_length(model, name), **kwargs)

    def read(self, value: Any, path: str) -> str | None:
        if value is None and self.null:
            return None
        if (not isinstance(value, str) or len(value) > self.max_length
                or (not self.blank and not value.strip())):
            raise fail(path, _("Must be a text of at most %(max)s characters."),
                       max=self.max_length)
        return value


@dataclass(frozen=True)
class Slug:
    max_length: int

    @classmethod
    def of(cls, model: type[models.Model], name: str) -> Slug:
        return cls(max_length(model, name))

    def read(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not SLUG.match(value) or len(value) > self.max_length:
            raise fail(path, _("Must be a slug (letters, digits, “-”, “_”)."))
        return value


@dataclass(frozen=True)
class Whole:
    low: int = 0
    high: int = MAX_STORED_INT
    null: bool = False

    @classmethod
    def of(cls, model: type[models.Model], name: str, **kwargs: Any) -> Whole:
        """The bounds of the field's ``MinValueValidator`` and ``MaxValueValidator``."""
        validators = model._meta.get_field(name).validators
        low = max((v.limit_value for v in validators if isinstance(v, MinValueValidator)),
                  default=0)
        high = min((v.limit_value for v in validators if isinstance(v, MaxValueValidator)),
                   default=MAX_STORED_INT)
        return cls(low, high, **kwargs)

    def read(self, value: Any, path: str) -> int | None:
        if value is None and self.null:
            return None
        if not is_int(value) or not self.low <= value <= self.high:
            raise fail(path, _("Must be a whole number from %(min)s to %(max)s."),
                       min=self.low, max=self.high)
        return value


@dataclass(frozen=True)
class Flag:
    def read(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise fail(path, _("Must be true or false."))
        return value


def _parsed(value: Any, parse: Callable[[str], Any], longest: int) -> Any:
    """``parse(value)`` of a text of at most ``longest`` characters; None for anything
    else, and for a text that does not parse (Django's parsers answer None or raise)."""
    if not isinstance(value, str) or len(value) > longest:
        return None
    try:
        return parse(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class Moment:
    null: bool = False

    def read(self, value: Any, path: str) -> datetime.datetime | None:
        if value is None and self.null:
            return None
        parsed = _parsed(value, parse_datetime, DATETIME_TEXT_MAX)
        if parsed is None:
            raise fail(path, _("Must be a date and time (ISO 8601)."))
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, datetime.UTC)
        return parsed


@dataclass(frozen=True)
class Day:
    """A date or null."""

    def read(self, value: Any, path: str) -> datetime.date | None:
        if value is None:
            return None
        parsed = _parsed(value, parse_date, DATE_TEXT_MAX)
        if parsed is None:
            raise fail(path, _("Must be a date (YYYY-MM-DD)."))
        return parsed


@dataclass(frozen=True)
class OneOf:
    values: Collection[Any]
    message: str

    @classmethod
    def of(cls, model: type[models.Model], name: str, message: str) -> OneOf:
        return cls(frozenset(value for value, _label in model._meta.get_field(name).choices),
                   message)

    def read(self, value: Any, path: str) -> Any:
        try:
            known = value in self.values
        except TypeError:  # a list or an object is no choice
            known = False
        if not known:
            raise fail(path, self.message)
        return value


@dataclass(frozen=True)
class ListOf:
    high: int = MAX_ARCHIVE_ITEMS
    message: str = _("Too many entries.")

    def read(self, value: Any, path: str) -> list:
        if not isinstance(value, list):
            raise fail(path, _("Must be a list."))
        if len(value) > self.high:
            raise fail(path, self.message, max=self.high)
        return value


@dataclass(frozen=True)
class Plain:
    """Passed through as it is: the reader checks it with the game or across fields."""

    def read(self, value: Any, path: str) -> Any:
        return value


@dataclass(frozen=True)
class Shape:
    """A JSON object: its ``fields`` are required, its ``optional`` ones may be absent
    (then they read as their ``defaults``, or None); no other key is allowed."""

    fields: Mapping[str, Any]
    optional: Mapping[str, Any] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def keys(self, value: Any, path: str) -> dict:
        """``value`` when it is an object of exactly these keys (no kind checked yet)."""
        if not isinstance(value, dict):
            raise fail(path, _("Must be an object."))
        for key in value:
            if key not in self.fields and key not in self.optional:
                raise fail(f"{path}.{key}".lstrip("."), _("Unknown field “%(name)s”."),
                           name=str(key)[:ECHO_MAX])
        for key in self.fields:
            if key not in value:
                raise fail(f"{path}.{key}".lstrip("."), _("This field is required."))
        return value

    def read(self, value: Any, path: str) -> dict[str, Any]:
        """The object's fields, each read by its kind, in the order described."""
        self.keys(value, path)
        out = {}
        default = self.defaults.get
        try:  # no path written unless a field is refused (issue 52: a maximal document)
            for key, kind in self.fields.items():
                out[key] = kind.read(value[key], "")
            for key, kind in self.optional.items():
                out[key] = kind.read(value.get(key, default(key)), "")
        except UserError:
            return self._read_named(value, path)
        return out

    def _read_named(self, value: Any, path: str) -> dict[str, Any]:
        """``read``'s reads again, each kind given its field's path: the same field is
        refused, now by name (the kinds are pure)."""
        out = {}
        for key, kind in self.fields.items():
            out[key] = kind.read(value[key], f"{path}.{key}".lstrip("."))
        for key, kind in self.optional.items():
            raw = value.get(key, self.defaults.get(key))
            out[key] = kind.read(raw, f"{path}.{key}".lstrip("."))
        return out
