"""Unique values two requests can race for, and what the request that loses is told.

A *unique value* is one a database constraint keeps unique: a club's or a tournament's
slug, a member number in a club, a player's entry in a tournament, a team's name in a
tournament. Services check such a value before writing, so that a user is told what is
wrong; but two requests (a double-tapped form, two desks) can both pass the check, and
the insert of the slower one then fails with an ``IntegrityError`` — a 500. The
constraint is the real check; this module owns what its violation means:

- ``create_with_slug``: a slug taken meanwhile is retried with the next free suffix
  (``name``, ``name-2``, …) inside a savepoint, so both objects are created, exactly as
  when the requests come one after the other;
- ``unique_errors``: runs a write inside a savepoint and turns the violation of a
  constraint listed in ``MESSAGES`` into the user error (``UserError``) naming the
  constraint's last field — the value the user gave, after the scope it is unique in —
  with the message the service's or the form's own check gives. Any other
  ``IntegrityError`` is a bug and goes on as it is.

The savepoints keep the caller's transaction usable after the violation. The violated
constraint is read from the error: PostgreSQL names it, SQLite names its columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError, connections, models, router, transaction
from django.utils.text import slugify
from django.utils.translation import gettext_noop as _

from games.errors import user_error

# Constraint name → the message for a value that is taken. The field named is the
# constraint's last field. Constraints not listed here are written under a lock or are
# internal (numbers and tokens the services draw), and their violation stays a bug.
MESSAGES: dict[str, str] = {
    "unique_member_number_per_club": _("This member number is already taken in the club."),
    "one_entry_per_player": _("This player is already registered."),
    "unique_team_name": _("Another team of this tournament has this name."),
}

SLUG_ATTEMPTS = 100  # one per request that took the slug meanwhile; more is a bug


def free_slug(model: type[models.Model], text: str, *, max_length: int = 120) -> str:
    """The first slug for ``text`` that ``model`` does not use yet: ``name``, ``name-2``, …"""
    base = (slugify(text) or "x")[:max_length]
    taken = set(model.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_with_slug(model: type[models.Model], text: str, *, slug: str | None = None,
                     max_length: int = 120, **fields) -> models.Model:
    """``model.objects.create(**fields)`` with the slug ``slug`` if given and free, else
    the first free slug for ``text``; a slug another request takes meanwhile is retried
    with the next free one."""
    for _attempt in range(SLUG_ATTEMPTS):
        if slug is None or model.objects.filter(slug=slug).exists():
            slug = free_slug(model, text, max_length=max_length)
        try:
            with transaction.atomic(using=router.db_for_write(model)):
                return model.objects.create(slug=slug, **fields)
        except IntegrityError as exc:
            found = violated(exc, model)
            if found is None or found[1] != ("slug",):
                raise
            slug = None
    raise IntegrityError(f"no free slug for {text!r} after {SLUG_ATTEMPTS} attempts")


@contextmanager
def unique_errors(model: type[models.Model]) -> Iterator[None]:
    """Run the block in a savepoint; a value of ``model`` that a constraint in
    ``MESSAGES`` finds taken raises the user error naming the field instead."""
    try:
        with transaction.atomic(using=router.db_for_write(model)):
            yield
    except IntegrityError as exc:
        found = violated(exc, model)
        if found is None or found[0] not in MESSAGES:
            raise
        name, fields = found
        raise user_error(fields[-1], MESSAGES[name]) from exc


# ------------------------------------------------------------ which constraint failed

_SQLITE_COLUMNS = re.compile(r"UNIQUE constraint failed: (.+)$")
_SQLITE_INDEX = re.compile(r"UNIQUE constraint failed: index '([^']+)'")


def violated(exc: IntegrityError,
             model: type[models.Model]) -> tuple[str | None, tuple[str, ...]] | None:
    """``(name, fields)`` of ``model``'s unique constraint — or unique field, whose name
    may be None — that ``exc`` reports violated; None when it reports anything else."""
    diag = getattr(exc.__cause__, "diag", None)
    if diag is not None:  # PostgreSQL names the constraint (or the unique index)
        if diag.table_name != model._meta.db_table or not diag.constraint_name:
            return None
        name = diag.constraint_name
        fields = _constraint_fields(model, name)
        if fields is None:  # a unique field's constraint, named by the database
            fields = _fields_of(model, _postgres_columns(model, name))
        return (name, fields) if fields else None
    message = str(exc)
    index = _SQLITE_INDEX.search(message)
    if index:
        fields = _constraint_fields(model, index.group(1))
        return (index.group(1), fields) if fields else None
    match = _SQLITE_COLUMNS.search(message)
    if not match:
        return None
    parts = [part.strip().rpartition(".") for part in match.group(1).split(",")]
    if any(table != model._meta.db_table for table, _dot, _column in parts):
        return None
    fields = _fields_of(model, [column for _table, _dot, column in parts])
    if not fields:
        return None
    name = next((c.name for c in model._meta.constraints
                 if tuple(getattr(c, "fields", ())) == fields), None)
    return name, fields


def _constraint_fields(model, name: str) -> tuple[str, ...] | None:
    return next((tuple(c.fields) for c in model._meta.constraints
                 if c.name == name and getattr(c, "fields", ())), None)


def _postgres_columns(model, name: str) -> list[str]:
    connection = connections[router.db_for_write(model)]
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    info = found.get(name)
    return info["columns"] if info and info["unique"] else []


def _fields_of(model, columns) -> tuple[str, ...] | None:
    by_column = {f.column: f.name for f in model._meta.concrete_fields}
    if not columns or any(column not in by_column for column in columns):
        return None
    return tuple(by_column[column] for column in columns)
