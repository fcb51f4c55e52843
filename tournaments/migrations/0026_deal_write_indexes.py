"""A deal POST inserts a deal, its key's answer and an outbox row; each of the three
tables had an index of its foreign key beside an index that begins with it (the unique
(table, number), the unique (table, key), (tournament, id)), which serves every look-up
by that key as well. The three are dropped: each deal's write updates three indexes fewer
(issue 51)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0025_deal_key_before_row'),
    ]

    operations = [
        migrations.AlterField(
            model_name='deal',
            name='table',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='tournaments.table', verbose_name='table'),
        ),
        migrations.AlterField(
            model_name='idempotencykey',
            name='table',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_keys', to='tournaments.table'),
        ),
        migrations.AlterField(
            model_name='standingsoutbox',
            name='tournament',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='standings_outbox', to='tournaments.tournament'),
        ),
    ]
