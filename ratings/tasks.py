"""Celery tasks of the ratings: thin wrappers that take a game and call the service.

Idempotent and safe to run twice (the re-rating locks its game's state row and takes in
only the pending outbox rows); ``acks_late`` with ``reject_on_worker_lost`` puts the task
of a worker that died back on the queue. Scheduling is the standings' coalescing
publisher (``tournaments.recompute.publisher``): a burst of changes queues one re-rating,
and whatever cannot be published stays in the outbox for ``sweep_ratings``.
"""

from __future__ import annotations

from celery import shared_task

from ratings.selectors import games_with_pending_changes
from ratings.services import ratings_recompute
from tournaments.recompute.publisher import CoalescedRecompute


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def rerate_game(game: str) -> None:
    RATINGS.run(game, lambda: ratings_recompute(game=game))


@shared_task(ignore_result=True)
def sweep_ratings() -> int:
    """Publish a re-rating for every game with changes not yet rated."""
    return sum(RATINGS.publish(game) for game in games_with_pending_changes())


# a submitted sheet's ratings follow within this (a round's tables submitted within it
# are re-rated once)
RATINGS_DEBOUNCE_SECONDS = 2.0
RATINGS = CoalescedRecompute("ratings", rerate_game, delay=RATINGS_DEBOUNCE_SECONDS)
schedule_ratings = RATINGS.schedule
