"""What the leagues do when something below them happens (connected in ``apps.ready``)."""

from django.dispatch import receiver

from leagues.models import Group
from leagues.services.stale import division_mark_stale
from tournaments.models import Tournament
from tournaments.recompute.signals import standings_recomputed


@receiver(standings_recomputed, sender=Tournament, dispatch_uid="leagues-table-of-group")
def table_follows_group(sender, tournament: Tournament, **kwargs) -> None:
    """A matchday group's sheets changed: its division's table is recomputed."""
    division_id = (Group.objects.filter(tournament=tournament)
                   .values_list("matchday__division_id", flat=True).first())
    if division_id is not None:
        division_mark_stale(division_id)
