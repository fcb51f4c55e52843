"""Season, SeasonRow, SeasonOutbox and PlayerMerge move here from ``clubs``.

State only: their tables keep their names (``db_table``) and their rows; nothing is
created in the database. ``clubs.0003`` removes them from the ``clubs`` state after this.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("season", "seasonrow", "seasonoutbox", "playermerge")


def content_types_follow(apps, schema_editor, old="clubs", new="clublife"):
    """The moved models keep their content types (and so their permissions)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=old, model__in=MOVED).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_follow(apps, schema_editor, old="clublife", new="clubs")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('clubs', '0002_club_evenings_seasons_merges'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='PlayerMerge',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kept_name', models.CharField(max_length=120, verbose_name='kept name')),
                        ('removed_id', models.BigIntegerField(verbose_name='removed player id')),
                        ('removed_name', models.CharField(max_length=120, verbose_name='removed name')),
                        ('removed_member_number', models.CharField(blank=True, max_length=40, verbose_name='removed member number')),
                        ('participations', models.PositiveIntegerField(verbose_name='participations moved')),
                        ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                        ('kept', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='merges', to='clubs.player', verbose_name='kept player')),
                        ('removed_club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.club', verbose_name="removed player's club")),
                    ],
                    options={
                        'verbose_name': 'player merge',
                        'verbose_name_plural': 'player merges',
                        'db_table': 'clubs_playermerge',
                        'ordering': ['-at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=20, verbose_name='game')),
                        ('year', models.PositiveSmallIntegerField(verbose_name='year')),
                        ('best_n', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='best evenings counted')),
                        ('min_evenings', models.PositiveSmallIntegerField(default=0, verbose_name='evenings needed to be ranked')),
                        ('evenings', models.PositiveIntegerField(default=0, verbose_name='evenings')),
                        ('computed_at', models.DateTimeField(blank=True, null=True, verbose_name='computed at')),
                        ('outbox_upto', models.BigIntegerField(default=0)),
                        ('recomputes', models.PositiveIntegerField(default=0)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='clubs.club', verbose_name='club')),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'db_table': 'clubs_season',
                        'ordering': ['club', '-year', 'game'],
                    },
                ),
                migrations.CreateModel(
                    name='SeasonOutbox',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='outbox', to='clublife.season')),
                    ],
                    options={
                        'db_table': 'clubs_seasonoutbox',
                    },
                ),
                migrations.CreateModel(
                    name='SeasonRow',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveIntegerField()),
                        ('rank', models.PositiveIntegerField(blank=True, null=True)),
                        ('score', models.IntegerField()),
                        ('figures', models.JSONField(default=dict)),
                        ('attended', models.PositiveIntegerField()),
                        ('counted', models.PositiveIntegerField()),
                        ('results', models.JSONField(default=list)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rows', to='clublife.season')),
                    ],
                    options={
                        'db_table': 'clubs_seasonrow',
                        'ordering': ['season', 'position'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.UniqueConstraint(fields=('club', 'game', 'year'), name='one_season_per_year'),
                ),
                migrations.AddIndex(
                    model_name='seasonoutbox',
                    index=models.Index(fields=['season', 'id'], name='clubs_seaso_season__3f9c06_idx'),
                ),
                migrations.AddIndex(
                    model_name='seasonrow',
                    index=models.Index(fields=['season', 'position'], name='clubs_seaso_season__48de5d_idx'),
                ),
            ],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
