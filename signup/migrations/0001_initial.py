"""The mail outbox, taken over from tournaments (its table was created by
``tournaments.0015_mail_outbox``): created in the migration state only, under the
table's and the indexes' old names, so nothing is written to the database but the
content type, which follows the model (and so do its permissions)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def content_type_follows(apps, schema_editor, old="tournaments", new="signup"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=old, model="mail").update(app_label=new)


def content_type_back(apps, schema_editor):
    content_type_follows(apps, schema_editor, old="signup", new="tournaments")


STATUS = [("pending", "waiting to be sent"), ("sending", "being sent"), ("sent", "sent"),
          ("failed", "failed"), ("cancelled", "cancelled")]


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("tournaments", "0024_mail_to_signup"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Mail",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(max_length=20, verbose_name="kind")),
                        ("extra", models.JSONField(blank=True, default=dict,
                                                   verbose_name="details")),
                        ("to", models.EmailField(blank=True, max_length=254, verbose_name="to")),
                        ("base_url", models.CharField(blank=True, max_length=200,
                                                      verbose_name="site address")),
                        ("status", models.CharField(choices=STATUS, default="pending",
                                                    max_length=10, verbose_name="status")),
                        ("attempts", models.PositiveIntegerField(default=0,
                                                                 verbose_name="attempts")),
                        ("created_at", models.DateTimeField(auto_now_add=True,
                                                            verbose_name="queued at")),
                        ("next_attempt_at", models.DateTimeField(
                            default=django.utils.timezone.now, verbose_name="next attempt at")),
                        ("claimed_at", models.DateTimeField(blank=True, null=True,
                                                            verbose_name="sending since")),
                        ("sent_at", models.DateTimeField(blank=True, null=True,
                                                         verbose_name="sent at")),
                        ("note", models.TextField(blank=True, verbose_name="note")),
                        ("doubtful", models.PositiveSmallIntegerField(
                            default=0, verbose_name="possibly sent twice")),
                        ("participant", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                            related_name="mails", to="tournaments.participant",
                            verbose_name="participant")),
                        ("tournament", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE, related_name="mails",
                            to="tournaments.tournament", verbose_name="tournament")),
                    ],
                    options={
                        "verbose_name": "e-mail",
                        "verbose_name_plural": "e-mails",
                        "db_table": "tournaments_mail",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["status", "next_attempt_at"],
                                         name="tournaments_status_940fac_idx"),
                            models.Index(fields=["tournament", "-id"],
                                         name="tournaments_tournam_c8cbf3_idx"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_follows, content_type_back),
    ]
