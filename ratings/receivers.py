"""What the ratings do when something below them happens (connected in ``apps.ready``)."""

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from ratings.outbox import (
    ratings_mark_changed,
    ratings_results_changed,
    ratings_tournament_deleted,
)
from tournaments.models import Tournament
from tournaments.recompute.signals import publication_changed, results_changed


@receiver(results_changed, sender=Tournament, dispatch_uid="ratings-of-results")
def ratings_follow_results(sender, tournament_id: int, round_number=None, table=None,
                           table_id=None, **kwargs) -> None:
    """A sheet changed, was submitted or ended, or a tournament's date moved."""
    ratings_results_changed(tournament_id=tournament_id, round_number=round_number,
                            table=table, table_id=table_id)


@receiver(pre_delete, sender=Tournament, dispatch_uid="ratings-of-deleted-tournament")
def ratings_follow_deletion(sender, instance: Tournament, **kwargs) -> None:
    ratings_tournament_deleted(tournament=instance)


@receiver(publication_changed, sender=Tournament, dispatch_uid="ratings-of-publication")
def ratings_follow_publication(sender, tournament: Tournament, **kwargs) -> None:
    """What the public is shown follows publication: the answers' versions move (the
    ratings themselves count every submitted sheet and stay)."""
    ratings_mark_changed(game=tournament.game, tournament_id=tournament.pk)
