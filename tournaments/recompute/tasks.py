"""Celery tasks of the standings: thin wrappers that take an id and call a service.

Both are idempotent and safe to run twice; ``acks_late`` with ``reject_on_worker_lost``
puts a task whose worker died back on the queue. ``schedule_standings`` publishes one
through the coalescing publisher.
"""

from celery import shared_task

from tournaments.models import Tournament
from tournaments.recompute.publisher import CoalescedRecompute
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.selectors import tournaments_with_pending_changes


@shared_task(ignore_result=True)
def sweep_standings() -> int:
    """Publish a recompute for every tournament with changes not yet in its standings."""
    return sum(STANDINGS.publish(tid) for tid in tournaments_with_pending_changes())


# A sheet change waits this long for its recompute, so that a room of tablets entering
# deals at once (issue 26: 20 tablets, each a deal every second or faster; a
# championship's 60 deals a second) costs about one recompute a second instead of one
# after another, each taking the CPU the entry needs; the board shows a deal within the
# wait plus one recompute. What a computation makes new for the phones is shared (the
# board's part and the players' ranks parts, kept by the proxy), so a large field waits
# no longer than a small one.
STANDINGS_DEBOUNCE_SECONDS = 1.0


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    STANDINGS.run(tournament_id, lambda: standings_recompute(tournament_id=tournament_id),
                  Tournament.DoesNotExist)


STANDINGS = CoalescedRecompute("standings", recompute_standings,
                               delay=STANDINGS_DEBOUNCE_SECONDS)
schedule_standings = STANDINGS.schedule
