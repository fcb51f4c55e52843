"""A database of the last release has rated results but no players' statistics
(``SheetStat``, 0004): ask for a full re-rating of every game that has results. The
ratings' sweep (beat) takes the outbox row in and writes the statistics with the history;
``manage.py recompute_ratings`` does it at once."""

from django.db import migrations

FROM_START = "0"  # ratings.models.FROM_START: an outbox row from it re-rates in full


def ask_for_a_full_rerating(apps, schema_editor):
    RatedResult = apps.get_model("ratings", "RatedResult")
    SheetStat = apps.get_model("ratings", "SheetStat")
    RatingOutbox = apps.get_model("ratings", "RatingOutbox")
    rated = set(RatedResult.objects.values_list("game", flat=True).distinct())
    counted = set(SheetStat.objects.values_list("game", flat=True).distinct())
    RatingOutbox.objects.bulk_create(
        [RatingOutbox(game=game, from_key=FROM_START) for game in sorted(rated - counted)])


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0004_sheet_stats"),
    ]

    operations = [
        migrations.RunPython(ask_for_a_full_rerating, migrations.RunPython.noop),
    ]
