"""The base of the commands that work on tournaments chosen by ``--tournament ID``
(repeatable; none: every tournament)."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament


class TournamentsCommand(BaseCommand):

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, action="append", dest="tournaments",
                            help="a tournament's id (repeatable); default: all")

    def chosen(self, ids: list[int] | None) -> list[Tournament]:
        """The tournaments of ``ids`` (every one for none), by id; a ``CommandError``
        naming the ids of no tournament."""
        found = Tournament.objects.order_by("pk")
        if ids:
            found = found.filter(pk__in=ids)
        found = list(found)
        missing = set(ids or ()) - {t.pk for t in found}
        if missing:
            raise CommandError(f"no tournament with id {', '.join(map(str, sorted(missing)))}")
        return found
