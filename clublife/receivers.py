"""What club life does when something below it happens (connected in ``apps.ready``)."""

from django.dispatch import receiver

from clublife.services.seasons import season_evening_changed
from tournaments.models import Tournament
from tournaments.recompute.signals import standings_recomputed


@receiver(standings_recomputed, sender=Tournament, dispatch_uid="clublife-season-of-evening")
def season_follows_evening(sender, tournament: Tournament, **kwargs) -> None:
    """A club evening's standings changed: its season is marked stale and recomputed."""
    season_evening_changed(tournament=tournament)
