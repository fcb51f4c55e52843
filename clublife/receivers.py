"""What club life does when something below it happens (connected in ``apps.ready``)."""

from django.dispatch import receiver

from clublife.services.seasons import season_evening_changed
from tournaments.models import Tournament
from tournaments.recompute.signals import publication_changed, standings_recomputed


@receiver(standings_recomputed, sender=Tournament, dispatch_uid="clublife-season-of-evening")
def season_follows_evening(sender, tournament: Tournament, **kwargs) -> None:
    """A club evening's standings changed: its season is marked stale and recomputed."""
    season_evening_changed(tournament=tournament)


@receiver(publication_changed, sender=Tournament, dispatch_uid="clublife-season-of-publication")
def season_follows_publication(sender, tournament: Tournament, **kwargs) -> None:
    """A season ranks only published evenings: publishing or unpublishing one moves it."""
    season_evening_changed(tournament=tournament)
