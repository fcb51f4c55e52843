"""``manage.py verify_history [--tournament ID ...]``: recompute every table's history
chain (``tournaments.services.history``) and name the first entry that does not match;
exits with status 1 when one does not. Without ``--tournament`` every tournament's."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.services.history import verify_tournament


class Command(BaseCommand):
    help = "Recompute the hash chains of the tables' histories."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, action="append", dest="tournaments",
                            help="a tournament's id (repeatable); default: all")

    def handle(self, *args, tournaments=None, **options):
        found = Tournament.objects.order_by("pk")
        if tournaments:
            found = found.filter(pk__in=tournaments)
            missing = set(tournaments) - {t.pk for t in found}
            if missing:
                raise CommandError(
                    f"no tournament with id {', '.join(map(str, sorted(missing)))}")
        bad = 0
        for tournament in found:
            for row in verify_tournament(tournament)["tables"]:
                if not row["ok"]:
                    bad += 1
                    self.stdout.write(
                        f"tournament {tournament.pk} ({tournament.name}), round {row['round']}, "
                        f"table {row['number']}: entry {row['first_bad']} does not match")
        if bad:
            raise CommandError(f"{bad} table(s) with a broken history chain", returncode=1)
        self.stdout.write("every history chain matches")
