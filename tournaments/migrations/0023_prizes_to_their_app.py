"""The prize list and the fee's history move to the ``prizes`` app: deleted from
tournaments' state only; the tables stay as they are (``prizes.0001_initial`` takes them
over under their old names), so no row moves."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0022_history_hash_with_id"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="FeeEvent"),
                migrations.DeleteModel(name="PrizeList"),
            ],
            database_operations=[],
        ),
    ]
