"""Celery tasks: thin wrappers that take an id and call a service.

Both are idempotent and safe to run twice; ``acks_late`` with ``reject_on_worker_lost``
puts a task whose worker died back on the queue.
"""

from celery import shared_task

from tournaments.models import Tournament
from tournaments.scheduling import forget_queued, publish_recompute
from tournaments.services.standings import standings_recompute, tournaments_with_pending_changes


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    forget_queued(tournament_id)
    try:
        standings_recompute(tournament_id=tournament_id)
    except Tournament.DoesNotExist:
        return


@shared_task(ignore_result=True)
def sweep_standings() -> int:
    """Publish a recompute for every tournament with changes not yet in its standings."""
    return sum(publish_recompute(tid) for tid in tournaments_with_pending_changes())
from tournaments.season_tasks import recompute_season, sweep_seasons  # noqa: E402, F401
