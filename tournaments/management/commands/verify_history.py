"""``manage.py verify_history [--tournament ID ...]``: recompute every table's history
chain (``tournaments.services.history``) and name the first entry that does not match;
exits with status 1 when one does not. Without ``--tournament`` every tournament's."""

from django.core.management.base import CommandError

from tournaments.management.tournaments_command import TournamentsCommand
from tournaments.services.history import verify_tournament


class Command(TournamentsCommand):
    help = "Recompute the hash chains of the tables' histories."

    def handle(self, *args, tournaments=None, **options):
        found = self.chosen(tournaments)
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
