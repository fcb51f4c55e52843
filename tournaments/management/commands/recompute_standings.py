"""``manage.py recompute_standings [--tournament ID ...]``: recompute standings in full
(every seat read again), e.g. after restoring a backup or changing the scoring code;
without ``--tournament`` every tournament's."""

from tournaments.management.tournaments_command import TournamentsCommand
from tournaments.recompute.standings_rows import standings_recompute


class Command(TournamentsCommand):
    help = "Recompute the standings of tournaments in full."

    def handle(self, *args, tournaments=None, **options):
        chosen = self.chosen(tournaments)
        for tournament in chosen:
            standings_recompute(tournament_id=tournament.pk, full=True)
        self.stdout.write(f"recomputed {len(chosen)} tournament(s)")
