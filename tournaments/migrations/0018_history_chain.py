"""Each table's history becomes a hash chain (tournaments/history_chain.py): the entries
stored so far are chained in the order they were written."""

import django.utils.timezone
from django.db import migrations, models

from tournaments.history_chain import digest, entry


def chain_stored_history(apps, schema_editor):
    SheetEvent = apps.get_model("tournaments", "SheetEvent")
    Table = apps.get_model("tournaments", "Table")
    batch, table, previous, heads = [], None, None, {}
    for event in SheetEvent.objects.select_related("user").order_by("table_id", "id").iterator(
            chunk_size=2000):
        if event.table_id != table:
            table, previous = event.table_id, None
        by = "table" if event.by_table else (event.user.username if event.user_id else None)
        event.previous = previous or ""
        event.hash = previous = digest(entry(
            at=event.at, action=event.action, deal=event.deal_number, by=by,
            participant=event.participant_id, before=event.before, after=event.after,
            previous=previous))
        heads[event.table_id] = previous
        batch.append(event)
        if len(batch) >= 2000:
            SheetEvent.objects.bulk_update(batch, ["previous", "hash"])
            batch = []
    SheetEvent.objects.bulk_update(batch, ["previous", "hash"])
    Table.objects.bulk_update([Table(pk=pk, history_head=head) for pk, head in heads.items()],
                              ["history_head"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0017_round_event'),
    ]

    operations = [
        migrations.AddField(
            model_name='sheetevent',
            name='hash',
            field=models.CharField(default='', editable=False, max_length=64, verbose_name='hash'),
        ),
        migrations.AddField(
            model_name='sheetevent',
            name='previous',
            field=models.CharField(blank=True, default='', editable=False, max_length=64, verbose_name='previous hash'),
        ),
        migrations.AlterField(
            model_name='sheetevent',
            name='at',
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False, verbose_name='at'),
        ),
        migrations.AddField(
            model_name='table',
            name='history_head',
            field=models.CharField(blank=True, default='', editable=False, max_length=64, verbose_name='history head'),
        ),
        migrations.RunPython(chain_stored_history, migrations.RunPython.noop),
    ]
