"""``manage.py recompute_standings [--tournament ID ...]``: recompute standings in full
(every seat read again), e.g. after restoring a backup or changing the scoring code;
without ``--tournament`` every tournament's."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.recompute.standings_rows import standings_recompute


class Command(BaseCommand):
    help = "Recompute the standings of tournaments in full."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, action="append", dest="tournaments",
                            help="a tournament's id (repeatable); default: all")

    def handle(self, *args, tournaments=None, **options):
        ids = tournaments or list(Tournament.objects.values_list("pk", flat=True))
        missing = set(ids) - set(Tournament.objects.filter(pk__in=ids)
                                 .values_list("pk", flat=True))
        if missing:
            raise CommandError(f"no tournament with id {', '.join(map(str, sorted(missing)))}")
        for tournament_id in ids:
            standings_recompute(tournament_id=tournament_id, full=True)
        self.stdout.write(f"recomputed {len(ids)} tournament(s)")
