"""The one writer of a table's history (``SheetEvent``) and its hash chain.

Every history entry is written here: its time is set, its ``previous`` is the table's
head and its ``hash`` is made (``tournaments.history_chain``) before it is stored, so the
chain is whole from the first entry on. A caller writing one table's entry holds that
table's lock (the sheet services do); ``append_to_tables`` locks the tables itself.
``verify_tournament`` recomputes every chain of a tournament (``GET
/tournaments/{id}/verify/``, ``manage.py verify_history``).

The entry's ``id`` is hashed, so its key is taken before the row is written (``_keys``):
PostgreSQL's ``nextval`` of the table's sequence, SQLite's ``sqlite_sequence`` moved on
under the write transaction (``transaction_mode`` IMMEDIATE: one writer at a time). That
costs a deal POST one statement before its batch (``tournaments.statements.Writes``),
and the batch stays one round trip with one INSERT of the entry, whole. Inserting first
and setting the hash after would cost more: the batch hands back only its first row's
key, so the entry's key would need a round trip of its own anyway, and then an UPDATE
of the entry (a second row version on PostgreSQL) in a third. The key is taken under the
table's lock, so a table's entries are keyed in the order they are written, the order
the chain follows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from tournaments.history_chain import digest, entry, links, verify
from tournaments.models import SheetEvent, Table, Tournament
from tournaments.statements import Writes, next_keys


def content(event: SheetEvent) -> dict[str, Any]:
    """The entry as the history endpoint shows it without ``hash``: what is hashed (the
    user must be loaded: ``select_related("user")``)."""
    by = "table" if event.by_table else (event.user.username if event.user_id else None)
    return entry(id=event.pk, at=event.at, action=event.action, deal=event.deal_number, by=by,
                 participant=event.participant_id, before=event.before, after=event.after,
                 previous=event.previous or None)


def _as_stored(value: Any) -> Any:
    """A JSON value as the database gives it back (tuples become lists, and so on)."""
    return None if value is None else json.loads(json.dumps(value))


def _keys(count: int) -> list[int]:
    """``count`` new keys of ``SheetEvent`` rows, ascending, taken now (inside the
    writer's transaction; see the module's note)."""
    return next_keys(SheetEvent, count)


def _seal(event: SheetEvent, key: int, previous: str | None) -> SheetEvent:
    event.pk = key
    event.at = event.at or timezone.now()
    event.before, event.after = _as_stored(event.before), _as_stored(event.after)
    event.previous = previous or ""
    event.hash = digest(content(event))
    return event


def append(table: Table, *, writes: Writes | None = None, key: int | None = None,
           **fields: Any) -> SheetEvent:
    """Write one entry to ``table``'s history; the caller holds the table's lock, so its
    ``history_head`` is the chain's last hash. With ``writes`` the entry goes among the
    write's other statements and the caller's write of the table row carries the new
    head (``retotal`` does); without, both are stored now. ``key``: the entry's key when
    the caller took it under the lock already (``statements.Reads.keys``)."""
    if key is None:
        [key] = _keys(1)
    event = _seal(SheetEvent(table=table, **fields), key, table.history_head or None)
    table.history_head = event.hash
    if writes is None:
        event.save(force_insert=True)
        Table.objects.filter(pk=table.pk).update(history_head=event.hash)
    else:
        writes.insert(event)
    return event


def append_to_tables(table_ids: Iterable[int], **fields: Any) -> None:
    """Write the same entry to the history of each table (locked here, in key order)."""
    heads = list(Table.objects.select_for_update().filter(pk__in=list(table_ids))
                 .order_by("pk").values_list("pk", "history_head"))
    now = timezone.now()
    events = SheetEvent.objects.bulk_create(
        _seal(SheetEvent(table_id=table_id, at=now, **fields), key, head or None)
        for (table_id, head), key in zip(heads, _keys(len(heads)), strict=True))
    Table.objects.bulk_update([Table(pk=e.table_id, history_head=e.hash) for e in events],
                              ["history_head"])


def restore(tables: list[tuple[Table, list[SheetEvent]]]) -> None:
    """Store stored tables' entries as an archive holds them (their own times, written
    order), each table's chained anew: the keys taken together, every entry in one
    statement, the tables' heads in another (an import)."""
    keys = iter(_keys(sum(len(events) for _table, events in tables)))
    headed = []
    for table, events in tables:
        previous = None
        for event in events:
            previous = _seal(event, next(keys), previous).hash
        if events:
            table.history_head = previous
            headed.append(table)
    SheetEvent.objects.bulk_create([event for _table, events in tables for event in events])
    Table.objects.bulk_update(headed, ["history_head"])


def reseal(table_ids: Iterable[int]) -> None:
    """Chain the stored entries of these tables anew, in written order: after the app
    itself changed what they hold (a person's erasure replaces the name in them)."""
    for table in Table.objects.select_for_update().filter(pk__in=list(table_ids)).order_by("pk"):
        events = list(table.events.select_related("user").order_by("id"))
        made = links(content(e) for e in events)
        for event, (previous, hashed) in zip(events, made, strict=True):
            event.previous, event.hash = previous or "", hashed
        SheetEvent.objects.bulk_update(events, ["previous", "hash"], batch_size=500)
        table.history_head = events[-1].hash if events else ""
        Table.objects.filter(pk=table.pk).update(history_head=table.history_head)


def verify_tournament(tournament: Tournament) -> dict[str, Any]:
    """``{"ok", "tables": [{"table", "round", "number", "head", "ok", "first_bad"?}]}``
    for every table of the tournament, its chain recomputed from the stored rows."""
    tables = list(Table.objects.filter(round__tournament=tournament)
                  .select_related("round").order_by("round__number", "number"))
    events: dict[int, list[SheetEvent]] = {t.pk: [] for t in tables}
    for event in (SheetEvent.objects.filter(table__round__tournament=tournament)
                  .select_related("user").order_by("table_id", "id")):
        events[event.table_id].append(event)
    rows = []
    for table in tables:
        chain = events[table.pk]
        verdict = verify((e.pk, e.previous or None, e.hash, content(e)) for e in chain)
        # the table's head names the last entry: one deleted at the end shows here
        ok = verdict.ok and (table.history_head or None) == verdict.head
        row = {"table": table.pk, "round": table.round.number, "number": table.number,
               "head": verdict.head, "ok": ok}
        if not ok:
            row["first_bad"] = verdict.first_bad if not verdict.ok else (
                chain[-1].pk if chain else None)
        rows.append(row)
    return {"ok": all(row["ok"] for row in rows), "tables": rows}
