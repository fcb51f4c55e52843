"""A deal POST takes its deal's key before it writes the row, as the history entry's
(``tournaments.statements.Reads.keys``): the key is named in the answer's ETag, which
the ``Idempotency-Key``'s stored answer carries, and that row goes with the deal's in one
round trip. On SQLite the key comes from the table's row of ``sqlite_sequence``, which
SQLite makes only at the first insert: it is made here, so taking a key is one statement
from the start (as 0022 did for the history)."""

from django.db import migrations
from django.db.models import Max


def deals_sequence_row(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    deal = apps.get_model("tournaments", "Deal")
    name = deal._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [name])
        if cursor.fetchone() is not None:
            return  # a deal was stored already
        highest = deal.objects.aggregate(highest=Max("pk"))["highest"] or 0
        cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                       [name, highest])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0024_mail_to_signup"),
    ]

    operations = [
        migrations.RunPython(deals_sequence_row, migrations.RunPython.noop),
    ]
