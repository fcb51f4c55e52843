"""The history's hash takes in the whole entry as ``GET /tables/{id}/history/`` shows it
without ``hash`` (api.md "Open results"), its ``id`` among them; the rule of 0018 left
out ``id``, ``ip``, ``who`` and ``text``, which the endpoint no longer shows. Every stored
chain is made anew under the new rule (``tournaments/history_chain.py``), in id order per
table, and each table's ``history_head`` follows. Going back leaves the hashes as they
are (the old rule's code is gone).

The writer now takes an entry's key before it writes the row (``tournaments.services.
history``); on SQLite from the table's row of ``sqlite_sequence``, which SQLite makes only
at the first insert: it is made here, so taking a key is one statement from the start."""

from django.db import migrations

from tournaments.history_chain import digest, entry

CHUNK = 2000


def reseal_stored_history(apps, schema_editor):
    SheetEvent = apps.get_model("tournaments", "SheetEvent")
    Table = apps.get_model("tournaments", "Table")
    batch, heads, table, previous = [], {}, None, None
    events = SheetEvent.objects.select_related("user").order_by("table_id", "id")
    for event in events.iterator(chunk_size=CHUNK):
        if event.table_id != table:
            table, previous = event.table_id, None
        by = "table" if event.by_table else (event.user.username if event.user_id else None)
        event.previous = previous or ""
        event.hash = previous = digest(entry(
            id=event.pk, at=event.at, action=event.action, deal=event.deal_number, by=by,
            participant=event.participant_id, before=event.before, after=event.after,
            previous=previous))
        heads[table] = previous
        batch.append(event)
        if len(batch) >= CHUNK:
            SheetEvent.objects.bulk_update(batch, ["previous", "hash"])
            batch = []
    SheetEvent.objects.bulk_update(batch, ["previous", "hash"])
    Table.objects.bulk_update([Table(pk=pk, history_head=head) for pk, head in heads.items()],
                              ["history_head"], batch_size=CHUNK)


def sqlite_sequence_row(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    table = apps.get_model("tournaments", "SheetEvent")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO sqlite_sequence (name, seq) SELECT %s, COALESCE(MAX(id), 0) "
        f"FROM {table} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = %s)",
        [table, table])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0021_game_from_registry"),
    ]

    operations = [
        migrations.RunPython(reseal_stored_history, migrations.RunPython.noop),
        migrations.RunPython(sqlite_sequence_row, migrations.RunPython.noop),
    ]
