"""Each table's history becomes a hash chain (tournaments/history_chain.py). The entries
stored before it are chained by 0022 (under the rule that holds now: the whole entry,
its id among them), so this migration only adds the fields."""

import django.utils.timezone
from django.db import migrations, models


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
    ]
