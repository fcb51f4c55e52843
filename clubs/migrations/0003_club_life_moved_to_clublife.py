"""The club-life models left for ``clublife`` (state only: the tables stay, with their rows)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_evenings_seasons_merges'),
        ('clublife', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='season',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='seasonrow',
                    name='season',
                ),
                migrations.RemoveField(
                    model_name='seasonoutbox',
                    name='season',
                ),
                migrations.RemoveField(
                    model_name='seasonrow',
                    name='player',
                ),
                migrations.DeleteModel(
                    name='PlayerMerge',
                ),
                migrations.DeleteModel(
                    name='Season',
                ),
                migrations.DeleteModel(
                    name='SeasonOutbox',
                ),
                migrations.DeleteModel(
                    name='SeasonRow',
                ),
            ],
        ),
    ]
