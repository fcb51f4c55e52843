"""The prize list and the fee's history, taken over from tournaments (their tables were
created by ``tournaments.0006_teams_and_prizes``): created in the migration state only,
under the tables' old names, so nothing is written to the database but the content types,
which follow the models (and so do their permissions)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("prizelist", "feeevent")


def content_types_follow(apps, schema_editor, old="tournaments", new="prizes"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=old, model__in=MOVED).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_follow(apps, schema_editor, old="prizes", new="tournaments")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("tournaments", "0023_prizes_to_their_app"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="FeeEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("at", models.DateTimeField(auto_now_add=True, verbose_name="at")),
                        ("entry_fee_cents", models.PositiveIntegerField(
                            verbose_name="entry fee (cents)")),
                        ("tournament", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="fee_events", to="tournaments.tournament")),
                        ("user", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                            related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "tournaments_feeevent",
                        "ordering": ["tournament", "at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="PrizeList",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("config", models.JSONField(verbose_name="prize list")),
                        ("lot", models.JSONField(blank=True, null=True, verbose_name="lot")),
                        ("updated_at", models.DateTimeField(auto_now=True,
                                                            verbose_name="updated at")),
                        ("tournament", models.OneToOneField(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="prize_list", to="tournaments.tournament")),
                    ],
                    options={"db_table": "tournaments_prizelist"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
