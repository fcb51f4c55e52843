"""The mail outbox moves to the ``signup`` app: deleted from tournaments' state only; the
table and its indexes stay as they are (``signup.0001_initial`` takes them over under
their old names), so no row moves."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0023_prizes_to_their_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Mail")],
            database_operations=[],
        ),
    ]
