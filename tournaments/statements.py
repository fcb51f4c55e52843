"""The statements of a sheet write and of the sheet's reads, written once per process
from the models' fields.

A deal POST is the hottest write of a championship day (60 a second at 750 tables), and
the ORM's compilation of its statements took about as long as PostgreSQL took to run
them. Here each statement is written once per process from the model's fields; values
go in prepared by their fields (``pre_save``: ``auto_now`` and ``auto_now_add``
included) and come out through the fields' converters, as with the ORM.

``select``: the values of some fields of a model's rows found by equality (the sheet's
deals, an idempotency key). ``select_in``: of the rows whose key is one of several
values, fields of the rows they point to included (a table's state: its seats with the
players' names, its deals; the player's page reads it after every deal of the table).

``Reads``: the reads of a sheet write after its lock sent together (a deal POST's
``Idempotency-Key`` answer, the sheet's deals as one JSON array, the keys of its new
rows). ``Writes``: rows sent to the database together. Entering a deal stores six: the
deal, its history entry, the seats' totals, the table's version, the standings outbox row
and the key's answer.
On PostgreSQL they go as one text in one round trip (Django's psycopg cursors bind
parameters on the client, which allows several statements in one ``execute``); SQLite,
in process, runs them in turn. Either way they run in order inside the caller's
transaction: an error in any of them fails the write and the transaction keeps none.

Nothing here sends Django's ``pre_save``/``post_save`` signals: it is for rows no
receiver listens to (``freshness``' receivers watch tournaments, rounds, participants,
team events and confirmations, none written here — ``test_one_write`` holds that).

This module is the one place of the tournaments app that writes SQL by hand. Besides the
above: ``lock_table`` (a sheet write's lock and load of its table), ``seats_update`` (the
seats' totals in one UPDATE), ``next_keys`` (a history entry's key taken before its row,
``services.history``), ``insert_rows`` (the standings pages, ``recompute``),
``participant_seats`` (a player's phone: the participant of a personal token with their
seats) and ``related`` (a model's rows with those their foreign keys point to, as
``select_related`` reads them: a public page's tournament, a card's table).

Measured (issue 54, 6 Dec, 2 cores; the entry bench's ratio of the deal POST's p50 to the
player POST's, one client through gunicorn: ``DATABASE_URL=postgres://…/stichliste_bench_…
.venv/bin/python -m bench.bench_entry --requests 200``), each against this module in the
same hour: as here 1.33–1.38× (load 0.6–0.9), 1.34× (1.3), 1.21–1.26× (5.7); ``select``
by the ORM's ``values_list`` 1.53–1.60× (load 1.2–1.9); ``seats_update`` by the ORM's
compiled ``Case``/``When`` UPDATE 1.76–1.79× (1.3–1.5); ``lock_table`` by
``select_related`` with a ``Subquery`` seat count and ``select_for_update(of=("self",))``
1.81–1.91× (4.0–5.7), and that cannot even say ``FOR SHARE``. Each is more than 10 % slower:
the hand SQL stays. ``Writes`` (several statements in one round trip) and ``next_keys``
(a key before its row) have no ORM equivalent to measure; ``select_in`` and
``insert_rows`` are not on that bench's path (the table's and the player's reads, the
standings pages) and were not measured against the ORM here.
``participant_seats`` against the ORM's ``select_related`` over the five tables with a
``Subquery`` of the latest round (7 Dec, a machine whose loop figure is 2.1 s; CPU per
read of each of 400 tokens of a drawn round, in one process, alternating): 0.63 ms
against 5.9 ms, of which the ORM's compilation was 57 %. ``related`` and ``select_in``
for a table's card (its tournament by slug, its table, the names; after each deal of 100
tables, alternating runs): the card 12.7–14.5 ms CPU against 18.1–18.8 ms, its 304
2.8–2.9 ms against 6.6–6.7 ms.
``tests/tournaments/test_statements.py`` runs each statement on SQLite and (CI's second
pass) PostgreSQL.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Field, JSONField, Model

from clubs.models import Club, Player
from tournaments.models import Participant, Round, Seat, Table, Tournament

# the models written here: none may have a receiver of its saves (see the module's note)
WRITTEN = ("tournaments.Deal", "tournaments.SheetEvent", "tournaments.Table",
           "tournaments.StandingsOutbox", "tournaments.IdempotencyKey", "tournaments.Seat",
           "tournaments.StandingsPage")


@functools.cache
def _select(model: type[Model], names: tuple[str, ...], where: tuple[str, ...],
            order_by: str | None, vendor: str) -> tuple[str, tuple[Field, ...], tuple]:
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    keys = tuple(meta.get_field(name) for name in where)
    sql = (f"SELECT {', '.join(quote(f.column) for f in fields)} "
           f"FROM {quote(meta.db_table)} "
           f"WHERE {' AND '.join(f'{quote(f.column)} = %s' for f in keys)}")
    if order_by:
        sql += f" ORDER BY {quote(meta.get_field(order_by).column)}"
    return sql, keys, converters(meta.db_table, fields)


def converters(db_table: str, fields: Sequence[Field],
               start: int = 0) -> tuple[tuple[int, Any, tuple], ...]:
    """(index in the row, column, the database's and the field's converters) of each of
    ``fields`` that has any, read from ``start`` on: what the ORM applies to a value read."""
    found = []
    for index, field in enumerate(fields, start=start):
        col = field.get_col(db_table)
        functions = (*connection.ops.get_db_converters(col),
                     *col.get_db_converters(connection))
        if functions:
            found.append((index, col, functions))
    return tuple(found)


def convert(row: list[Any], found: Sequence[tuple[int, Any, tuple]]) -> list[Any]:
    """``row`` with the ``converters`` applied in place (and returned)."""
    for index, col, functions in found:
        value = row[index]
        for function in functions:
            value = function(value, col, connection)
        row[index] = value
    return row


def select(model: type[Model], names: Sequence[str], where: dict[str, Any], *,
           order_by: str | None = None) -> list[list[Any]]:
    """The values of the fields ``names`` of ``model``'s rows whose fields ``where``
    equal the given values (a foreign key by its id), as the ORM's ``values_list``
    gives them."""
    reads = Reads()
    place = reads.select(model, names, where, order_by=order_by)
    return reads.send()[place]


def _params(keys: Sequence[Field], where: dict[str, Any]) -> list[Any]:
    """The values of ``where`` as the database takes them for the fields ``keys``."""
    return [field.get_db_prep_value(value, connection)
            for field, value in zip(keys, where.values(), strict=True)]


@functools.cache
def columns(model: type[Model]) -> tuple[str, ...]:
    """The attribute names of ``model``'s columns, in the order ``Model.from_db`` takes
    a whole row's values."""
    return tuple(f.attname for f in model._meta.concrete_fields)


@functools.lru_cache(maxsize=256)  # one per number of values: a page of all tables asks many
def _select_in(model: type[Model], names: tuple[str, ...], key: str, count: int,
               order_by: tuple[str, ...], vendor: str
               ) -> tuple[str, Field, tuple[tuple[int, Any, tuple], ...]]:
    quote = connection.ops.quote_name
    # a path's alias, model and whether a nullable key was followed on the way to it
    joins: dict[tuple[str, ...], tuple[str, type[Model], bool]] = {(): ("t", model, False)}
    sql_joins = []

    def column(name: str) -> tuple[str, Field]:
        *path, last = name.split("__")
        for depth in range(1, len(path) + 1):
            if tuple(path[:depth]) not in joins:
                alias, owner, outer = joins[tuple(path[:depth - 1])]
                link = owner._meta.get_field(path[depth - 1])
                if not link.many_to_one:
                    raise ValueError(f"{name}: only foreign keys are followed")
                outer = outer or link.null  # the row kept where the key is null
                target, joined = link.related_model, f"j{len(joins)}"
                joins[tuple(path[:depth])] = (joined, target, outer)
                sql_joins.append(
                    f"{'LEFT OUTER' if outer else 'INNER'} JOIN "
                    f"{quote(target._meta.db_table)} {joined} "
                    f"ON {joined}.{quote(target._meta.pk.column)} = "
                    f"{alias}.{quote(link.column)}")
        alias, owner, _outer = joins[tuple(path)]
        field = owner._meta.get_field(last)
        return alias, field

    selected = [column(name) for name in names]
    key_field = model._meta.get_field(key)
    sql = (f"SELECT {', '.join(f'{alias}.{quote(f.column)}' for alias, f in selected)} "
           f"FROM {quote(model._meta.db_table)} t {' '.join(sql_joins)} "
           f"WHERE t.{quote(key_field.column)} IN ({', '.join(['%s'] * count)})")
    if order_by:
        sql += " ORDER BY " + ", ".join(
            f"t.{quote(model._meta.get_field(name).column)}" for name in order_by)
    found = []
    for index, (alias, field) in enumerate(selected):
        found.extend(converters(alias, [field], start=index))
    return sql, key_field, tuple(found)


def select_in(model: type[Model], names: Sequence[str], key: str, values: Sequence[Any], *,
              order_by: Sequence[str] = ()) -> list[list[Any]]:
    """The values of ``names`` of ``model``'s rows whose field ``key`` is one of
    ``values`` (a foreign key by its ids), as the ORM's ``values_list`` gives them: a
    name may follow foreign keys (``"participant__player__name"``; a nullable one's
    fields are None where it is null);
    ``order_by``: fields of ``model``. One statement per number of ``values``."""
    if not values:
        return []
    reads = Reads()
    place = reads.select_in(model, names, key, values, order_by=order_by)
    return reads.send()[place]


def related(model: type[Model], linked: Sequence[str], key: str,
            values: Sequence[Any]) -> list[Model]:
    """The instances of ``model`` whose field ``key`` is one of ``values``, each with the
    rows its foreign keys ``linked`` point to loaded (None where a key is null), as
    ``select_related`` loads them: one statement (``select_in``), written once per
    process. The public pages read their tournament by its slug, and a table's card its
    table, on every request; the ORM compiled each read again."""
    if not values:
        return []
    reads = Reads()
    place = reads.related(model, linked, key, values)
    return reads.send()[place]


def _related_names(model: type[Model], linked: Sequence[str]) -> tuple[list[Field], list[str]]:
    """``related``'s foreign keys, and the names ``select_in`` reads: ``model``'s columns,
    then each linked model's."""
    owners = [model._meta.get_field(name) for name in linked]
    return owners, [*columns(model), *(f"{link.name}__{c}" for link in owners
                                       for c in columns(link.related_model))]


def _related_instances(model: type[Model], owners: Sequence[Field],
                       rows: list[list[Any]]) -> list[Model]:
    """``related``'s instances from ``select_in``'s rows (``_related_names``)."""
    db = connection.alias
    found = []
    for values_of in rows:
        start = len(columns(model))
        obj = model.from_db(db, columns(model), values_of[:start])
        for link in owners:
            target = link.related_model
            part = values_of[start:start + len(columns(target))]
            start += len(part)
            link.set_cached_value(obj, None if getattr(obj, link.attname) is None
                                  else target.from_db(db, columns(target), part))
        found.append(obj)
    return found


@functools.cache
def _insert(model: type[Model], returning: bool, keyed: bool,
            vendor: str) -> tuple[str, tuple[Field, ...]]:
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(f for f in meta.local_concrete_fields
                   if keyed or f is not meta.auto_field)
    sql = (f"INSERT INTO {quote(meta.db_table)} "
           f"({', '.join(quote(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})")
    if returning and connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, fields


@functools.cache
def _update(model: type[Model], names: tuple[str, ...],
            vendor: str) -> tuple[str, tuple[Field, ...]]:
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    sql = (f"UPDATE {quote(meta.db_table)} "
           f"SET {', '.join(f'{quote(f.column)} = %s' for f in fields)} "
           f"WHERE {quote(meta.pk.column)} = %s")
    return sql, fields


class Writes:
    """Statements of one sheet write, sent by ``send`` (in the order they were added)."""

    def __init__(self) -> None:
        self._statements: list[tuple[str, Sequence[Any]]] = []
        self._created: Model | None = None
        self._inserted: list[Model] = []

    def __len__(self) -> int:
        return len(self._statements)

    def insert(self, obj: Model, *, returning: bool = False) -> Model:
        """Store the new ``obj``, with its primary key when it has one already (a
        history entry's is taken before, as it is hashed); ``returning``: set its
        primary key at ``send`` (the first statement only)."""
        if returning:
            if self._statements:
                raise ValueError("the row whose key is returned is the first statement")
            self._created = obj
        sql, fields = _insert(type(obj), returning, obj.pk is not None, connection.vendor)
        self._statements.append(
            (sql, [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]))
        self._inserted.append(obj)
        return obj

    def update(self, obj: Model, names: Sequence[str]) -> None:
        """Store the fields ``names`` of the stored ``obj`` (``auto_now`` fields among
        them are set now, as ``save(update_fields=…)`` does)."""
        sql, fields = _update(type(obj), tuple(names), connection.vendor)
        self._statements.append(
            (sql, [*(f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields),
                   obj.pk]))

    def execute(self, sql: str, params: Sequence[Any]) -> None:
        """A statement written by the caller (no ``%`` but its placeholders)."""
        self._statements.append((sql, params))

    def send(self) -> None:
        statements, self._statements = self._statements, []
        created, self._created = self._created, None
        inserted, self._inserted = self._inserted, []
        if not statements:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(";\n".join(sql for sql, _p in statements),
                               [p for _s, params in statements for p in params])
                key = cursor.fetchone()[0] if created is not None else None
            else:
                key = None
                for number, (sql, params) in enumerate(statements):
                    cursor.execute(sql, params)
                    if number == 0 and created is not None:
                        key = (cursor.fetchone()[0]
                               if connection.features.can_return_columns_from_insert
                               else cursor.lastrowid)
        if created is not None:
            created.pk = key
        for obj in inserted:  # stored, as after ``save``
            obj._state.adding = False
            obj._state.db = connection.alias


@functools.cache
def _json_rows(model: type[Model], names: tuple[str, ...], where: tuple[str, ...],
               order_by: str) -> tuple[str, tuple[Field, ...]]:
    """PostgreSQL's statement of ``Reads.json_rows``: the rows as one JSON array."""
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    if not all(isinstance(f, JSONField) and f.decoder is None for f in fields):
        raise ValueError("json_rows reads plain JSON fields only")
    keys = tuple(meta.get_field(name) for name in where)
    sql = (f"SELECT COALESCE(json_agg(json_build_array("
           f"{', '.join(quote(f.column) for f in fields)}) "
           f"ORDER BY {quote(meta.get_field(order_by).column)}), '[]')::text "
           f"FROM {quote(meta.db_table)} "
           f"WHERE {' AND '.join(f'{quote(f.column)} = %s' for f in keys)}")
    return sql, keys


@functools.cache
def _keys_sql(models: tuple[type[Model], ...]) -> str:
    """PostgreSQL's statement of ``Reads.keys``: one ``nextval`` of each table's sequence."""
    return "SELECT " + ", ".join(
        f"nextval(pg_get_serial_sequence('{m._meta.db_table}', '{m._meta.pk.column}'))"
        for m in models)


class Reads:
    """The reads of one sheet write after its lock, sent together: on PostgreSQL as one
    text in one round trip (as ``Writes``), each statement reading what was committed
    before it ran (READ COMMITTED takes a snapshot per statement, so every one sees what
    a writer that held the lock before this one stored); SQLite, in process, runs them
    in turn. Each method adds a statement and returns its place in ``send``'s answer.

    A deal POST reads three things: its ``Idempotency-Key``'s stored answer, the sheet's
    deals and the keys of its two new rows (the deal's, named in its ETag and the key's
    stored answer, and the history entry's, which is hashed). One round trip instead of
    three, and the deals come as one JSON text rather than three JSON values a deal
    (``json_rows``): a deal late in a sheet reads 140 values, each a call into the
    driver and the JSON reader."""

    def __init__(self) -> None:
        self._statements: list[tuple[str, list[Any], Callable[[Any], Any]]] = []

    def _add(self, sql: str, params: list[Any], read: Callable[[Any], Any]) -> int:
        self._statements.append((sql, params, read))
        return len(self._statements) - 1

    def select(self, model: type[Model], names: Sequence[str], where: dict[str, Any], *,
               order_by: str | None = None) -> int:
        """``select``'s rows."""
        sql, keys, found = _select(model, tuple(names), tuple(where), order_by,
                                   connection.vendor)
        return self._add(sql, _params(keys, where),
                         lambda cursor: [convert(list(row), found) for row in cursor.fetchall()])

    def select_in(self, model: type[Model], names: Sequence[str], key: str,
                  values: Sequence[Any], *, order_by: Sequence[str] = (),
                  then: Callable[[list[list[Any]]], Any] | None = None) -> int:
        """``select_in``'s rows (``values`` not empty); ``then``: what is made of them."""
        if not values:
            raise ValueError("select_in reads the rows of one value at least")
        sql, key_field, found = _select_in(model, tuple(names), key, len(values),
                                           tuple(order_by), connection.vendor)

        def read(cursor) -> Any:
            rows = [convert(list(row), found) for row in cursor.fetchall()]
            return rows if then is None else then(rows)

        return self._add(sql, [key_field.get_db_prep_value(value, connection)
                               for value in values], read)

    def related(self, model: type[Model], linked: Sequence[str], key: str,
                values: Sequence[Any]) -> int:
        """``related``'s instances (``values`` not empty)."""
        owners, names = _related_names(model, linked)
        return self.select_in(model, names, key, values,
                              then=lambda rows: _related_instances(model, owners, rows))

    def json_rows(self, model: type[Model], names: Sequence[str], where: dict[str, Any], *,
                  order_by: str) -> int:
        """The values of the JSON fields ``names`` of the rows, as ``select`` gives them
        (each row a list); PostgreSQL sends them as one JSON array, read at once."""
        if connection.vendor != "postgresql":
            return self.select(model, names, where, order_by=order_by)
        sql, keys = _json_rows(model, tuple(names), tuple(where), order_by)
        return self._add(sql, _params(keys, where),
                         lambda cursor: json.loads(cursor.fetchone()[0]))

    def keys(self, *models: type[Model]) -> int:
        """One new key of each of ``models`` (``next_keys``), in their order: PostgreSQL
        takes them with the other reads (a write refused or replayed leaves a gap, as a
        rolled back one does); SQLite, whose keys are an UPDATE of ``sqlite_sequence``,
        when they are first read (a replay writes nothing)."""
        if connection.vendor != "postgresql":
            return self._add("", [], lambda _cursor: (next_keys(m, 1)[0] for m in models))
        return self._add(_keys_sql(models), [],
                         lambda cursor: list(cursor.fetchone()))

    def send(self) -> list[Any]:
        statements, self._statements = self._statements, []
        if not statements:
            return []
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(";\n".join(sql for sql, _p, _r in statements),
                               [p for _s, params, _r in statements for p in params])
                found = []
                for number, (_sql, _params, read) in enumerate(statements):
                    if number:
                        cursor.nextset()
                    found.append(read(cursor))
                return found
            found = []
            for sql, params, read in statements:
                if sql:
                    cursor.execute(sql, params)
                found.append(read(cursor))
            return found


@dataclass(frozen=True)
class _LockRead:
    """The statement that locks and loads a table with its round, tournament and seat
    count, and how to turn its row into model instances (built once per connection and
    key column: ``_lock_read``)."""

    sql: str
    converters: tuple[tuple[int, Any, tuple[Callable[..., Any], ...]], ...]
    table_fields: tuple[str, ...]
    round_fields: tuple[str, ...]
    tournament_fields: tuple[str, ...]


_LOCK_READS: dict[tuple[str, str, str], _LockRead] = {}
_LOCKED = (Table, Round, Tournament)


def _lock_read(column: str) -> _LockRead:
    """The lock of a sheet write, written here from the models' fields: the table's row
    for update, its round's and tournament's rows for share (PostgreSQL: ``FOR UPDATE
    OF`` the table, ``FOR SHARE OF`` the other two). A draw, a round's close or
    reopening, a tournament's end or publication take their row for update and so still
    wait for the sheet writes in flight, and those for them; but the writes of different
    tables do not wait for each other on the one tournament row they all join (a
    championship day's 750 tables). The round and tournament are read at the lock, so a
    write never acts on a round closed meanwhile. Every write of a sheet runs this: the
    ORM took longer to build the select_related query with its lock clauses than the
    database took to answer it (2.8 of 5.1 ms), so the statement and the fields' database
    converters are made once per process. SQLite has no row locks (it writes one
    transaction at a time) and gets no clause."""
    key = (connection.alias, connection.vendor, column)
    read = _LOCK_READS.get(key)
    if read is not None:
        return read
    quote = connection.ops.quote_name
    table, round_, tournament = (quote(m._meta.db_table) for m in _LOCKED)
    seats = quote(Seat._meta.db_table)
    columns: list[str] = []
    found: list[tuple] = []
    for model in _LOCKED:
        fields = model._meta.concrete_fields
        found += converters(model._meta.db_table, fields, start=len(columns))
        columns += (f"{quote(model._meta.db_table)}.{quote(f.column)}" for f in fields)
        if model is Table:
            columns.append(f"(SELECT COUNT(*) FROM {seats} WHERE {seats}.{quote('table_id')}"
                           f" = {table}.{quote('id')})")
    sql = (f"SELECT {', '.join(columns)} FROM {table} "
           f"INNER JOIN {round_} ON {table}.{quote('round_id')} = {round_}.{quote('id')} "
           f"INNER JOIN {tournament} ON {round_}.{quote('tournament_id')} = "
           f"{tournament}.{quote('id')} WHERE {table}.{quote(column)} = %s")
    if connection.features.has_select_for_update_of:
        sql += f" FOR UPDATE OF {table} FOR SHARE OF {round_}, {tournament}"
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    read = _LOCK_READS[key] = _LockRead(
        sql, tuple(found),
        *(tuple(f.attname for f in m._meta.concrete_fields) for m in _LOCKED))
    return read


def lock_table(column: str, value: Any) -> Table | None:
    """The table whose ``column`` is ``value``, locked for this transaction (``_lock_read``),
    with its round, tournament and ``seat_count``; None for no table."""
    read = _lock_read(column)
    if connection.features.has_select_for_update and connection.get_autocommit():
        raise transaction.TransactionManagementError(
            "A table is locked only inside a transaction.")
    field = Table._meta.get_field(column)
    value = field.get_db_prep_value(value, connection)
    kind = field.get_internal_type()
    if kind in connection.ops.integer_field_ranges:
        low, high = connection.ops.integer_field_range(kind)
        if (low is not None and value < low) or (high is not None and value > high):
            return None  # no such row (the database's integer would overflow)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [value])
        row = cursor.fetchone()
    if row is None:
        return None
    values = convert(list(row), read.converters)
    tables, rounds = len(read.table_fields), len(read.round_fields)
    table = Table.from_db(connection.alias, read.table_fields, values[:tables])
    table.seat_count = values[tables]
    round_ = Round.from_db(connection.alias, read.round_fields,
                           values[tables + 1:tables + 1 + rounds])
    tournament = Tournament.from_db(connection.alias, read.tournament_fields,
                                    values[tables + 1 + rounds:])
    Table._meta.get_field("round").set_cached_value(table, round_)
    Round._meta.get_field("tournament").set_cached_value(round_, tournament)
    return table


# a participant's read: each model, its alias, and how it joins (None for the root)
_PARTICIPANT_JOINS = (
    (Participant, "p", None),
    (Tournament, "tt", "INNER JOIN {table} tt ON tt.{pk} = p.{tournament_id}"),
    (Club, "c", "LEFT OUTER JOIN {table} c ON c.{pk} = tt.{club_id}"),
    (Player, "pl", "INNER JOIN {table} pl ON pl.{pk} = p.{player_id}"),
    (Seat, "s", "LEFT OUTER JOIN {table} s ON s.{participant_id} = p.{pk}"),
    (Table, "tb", "LEFT OUTER JOIN {table} tb ON tb.{pk} = s.{table_id}"),
    (Round, "r", "LEFT OUTER JOIN {table} r ON r.{pk} = tb.{round_id}"),
)


@dataclass(frozen=True)
class _JoinedRead:
    """A statement of several models' whole rows side by side, and how to turn its rows
    back into instances: each model's attribute names, in the statement's order."""

    sql: str
    converters: tuple[tuple[int, Any, tuple[Callable[..., Any], ...]], ...]
    fields: tuple[tuple[str, ...], ...]
    starts: tuple[int, ...]


@functools.cache
def _participant_read(column: str, vendor: str) -> _JoinedRead:
    quote = connection.ops.quote_name
    columns: list[str] = []
    found: list[tuple] = []
    joins: list[str] = []
    starts = []
    keys = {f"{name}_id": quote(owner._meta.get_field(name).column) for owner, name in (
        (Participant, "tournament"), (Tournament, "club"), (Participant, "player"),
        (Seat, "participant"), (Seat, "table"), (Table, "round"))}
    for model, alias, join in _PARTICIPANT_JOINS:
        fields = model._meta.concrete_fields
        starts.append(len(columns))
        found += converters(alias, fields, start=len(columns))
        columns += (f"{alias}.{quote(f.column)}" for f in fields)
        if join is not None:
            joins.append(join.format(table=quote(model._meta.db_table), pk=quote("id"),
                                     **keys))
    rounds = quote(Round._meta.db_table)
    columns.append(f"(SELECT MAX(lr.{quote('number')}) FROM {rounds} lr "
                   f"WHERE lr.{keys['tournament_id']} = p.{keys['tournament_id']})")
    field = Participant._meta.get_field(column)
    sql = (f"SELECT {', '.join(columns)} FROM {quote(Participant._meta.db_table)} p "
           f"{' '.join(joins)} WHERE p.{quote(field.column)} = %s "
           f"ORDER BY r.{quote('number')}")
    return _JoinedRead(sql, tuple(found), tuple(
        tuple(f.attname for f in model._meta.concrete_fields)
        for model, _alias, _join in _PARTICIPANT_JOINS), tuple(starts))


def participant_seats(column: str, value: Any) -> tuple[Participant, list[Seat]] | None:
    """The participant whose ``column`` is ``value`` (its id, its personal token), with
    its tournament, the tournament's club and its player, and its seats by round, each
    with its table and round and ``latest_round``: the number of the tournament's latest
    round (whether it is the seat now). None for no such participant. One statement,
    written once per process: after a draw every phone of a championship asks this at
    once, and the ORM took longer to compile its ``select_related`` over five tables with
    a ``Subquery`` than the database took to answer it."""
    read = _participant_read(column, connection.vendor)
    field = Participant._meta.get_field(column)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [field.get_db_prep_value(value, connection)])
        rows = cursor.fetchall()
    if not rows:
        return None
    db = connection.alias
    rows = [convert(list(row), read.converters) for row in rows]

    def instance(values: list[Any], index: int) -> Any:
        """The ``index``-th model's instance of a row; None where an outer join found
        no row (its key is null)."""
        model, names, start = _PARTICIPANT_JOINS[index][0], read.fields[index], read.starts[index]
        part = values[start:start + len(names)]
        return (None if part[names.index(model._meta.pk.attname)] is None
                else model.from_db(db, names, part))

    participant, tournament, club, player = (instance(rows[0], i) for i in range(4))
    Tournament._meta.get_field("club").set_cached_value(tournament, club)
    participant.tournament, participant.player = tournament, player
    seats = []
    for values in rows:
        seat = instance(values, 4)
        if seat is None:  # never drawn
            break
        table, round_ = instance(values, 5), instance(values, 6)
        seat.latest_round = values[-1]
        round_.tournament, table.round = tournament, round_
        seat.table, seat.participant = table, participant
        seats.append(seat)
    return participant, seats


def seats_update(table_id: int, totals: Sequence[dict[str, Any]], writes: Writes) -> None:
    """Write each seat's row of ``totals`` (``seat``, ``score`` and the other figures)
    in one UPDATE keyed by the seat number: no read of the seats first, and a statement
    written here rather than compiled by the ORM per deal (the ORM's CASE of a
    ``bulk_update`` took longer to build than the database took to run it)."""
    quote = connection.ops.quote_name
    figures_field = Seat._meta.get_field("figures")
    rows = [(row["seat"], row["score"],
             figures_field.get_db_prep_save(
                 {k: v for k, v in row.items() if k not in ("seat", "score")}, connection))
            for row in totals]
    if not rows:
        return
    when = " ".join(["WHEN %s THEN %s"] * len(rows))
    seat = quote("seat")
    sql = (f"UPDATE {quote(Seat._meta.db_table)} "
           f"SET {quote('score')} = CASE {seat} {when} END, "
           f"{quote('figures')} = CASE {seat} {when} END "
           f"WHERE {quote('table_id')} = %s AND {seat} IN ({', '.join(['%s'] * len(rows))})")
    params = [*(v for n, score, _f in rows for v in (n, score)),
              *(v for n, _s, figures in rows for v in (n, figures)),
              table_id, *(n for n, _s, _f in rows)]
    writes.execute(sql, params)


def next_keys(model: type[Model], count: int) -> list[int]:
    """``count`` new keys of ``model``'s rows, ascending, taken now inside the writer's
    transaction (a history entry's key is hashed before its row is written:
    ``services.history``): PostgreSQL's ``nextval`` of the table's sequence, SQLite's
    ``sqlite_sequence`` moved on (AUTOINCREMENT; one writer at a time)."""
    if not count:
        return []
    quote = connection.ops.quote_name
    table, key = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) "
                           "FROM generate_series(1, %s)", [table, key, count])
            return sorted(value for (value,) in cursor.fetchall())
        # SQLite makes the row of sqlite_sequence at the first row; a migration may have
        # made it beforehand (tournaments' 0022 for the history)
        cursor.execute("UPDATE sqlite_sequence SET seq = seq + %s WHERE name = %s "
                       "RETURNING seq", [count, table])
        row = cursor.fetchone()
        if row is None:
            cursor.execute(f"SELECT COALESCE(MAX({quote(key)}), 0) + %s FROM {quote(table)}",
                           [count])
            row = cursor.fetchone()
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                           [table, row[0]])
    return list(range(row[0] - count + 1, row[0] + 1))


def insert_rows(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert ``rows`` (values of the columns ``names``, ready for the database: a JSON
    document as its text) in one ``executemany``: a bulk insert would have the driver
    escape each document as an array element (the standings pages, ``recompute``)."""
    quote = connection.ops.quote_name
    meta = model._meta
    columns_sql = ", ".join(quote(meta.get_field(name).column) for name in names)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(meta.db_table)} ({columns_sql}) "
            f"VALUES ({', '.join(['%s'] * len(names))})", list(rows))
