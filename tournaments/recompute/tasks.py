"""Celery tasks of the standings: thin wrappers that take an id and call a service.

Both are idempotent and safe to run twice; ``acks_late`` with ``reject_on_worker_lost``
puts a task whose worker died back on the queue. ``schedule_standings`` publishes one
through the coalescing publisher.
"""

import logging

from celery import shared_task
from django.core.cache import cache

from tournaments.models import Participant, Tournament
from tournaments.recompute.publisher import CoalescedRecompute
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.selectors import tournaments_with_pending_changes

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_standings() -> int:
    """Publish a recompute for every tournament with changes not yet in its standings."""
    return sum(STANDINGS.publish(tid) for tid in tournaments_with_pending_changes())


# A sheet change waits at least this long for its recompute, so that a room of tablets
# entering deals at once (issue 26: 20 tablets, each a deal every second or faster) costs
# about one recompute a second instead of one after another, each taking the CPU the
# entry needs; the board shows a deal within the wait plus one recompute.
STANDINGS_DEBOUNCE_SECONDS = 1.0
# A larger field waits longer (``standings_debounce``): a championship's computation is
# a new answer for every phone (the board part of 3,000 rows, each player's rank), and
# the board polls every 5 s (``templates/board/page.html``) — a computation a second
# there is four renders nobody sees. One more second per this many players, up to the
# board's poll interval.
PLAYERS_PER_SECOND = 600
STANDINGS_DEBOUNCE_MAX_SECONDS = 5.0
_FIELD_SECONDS = 24 * 3600


def debounce_for(players: int) -> float:
    """The seconds a recompute of a field of ``players`` waits after a change."""
    return min(STANDINGS_DEBOUNCE_MAX_SECONDS,
               max(STANDINGS_DEBOUNCE_SECONDS, players / PLAYERS_PER_SECOND))


def _field_key(tournament_id: int) -> str:
    return f"standings:field:{tournament_id}"


def standings_debounce(tournament_id: int) -> float:
    """The wait for this tournament: by its field as its last recompute counted it (in
    the cache, so that publishing asks no database), the shortest before its first."""
    try:
        players = cache.get(_field_key(tournament_id))
    except Exception:  # the publisher treats its own failure as the broker's
        players = None
    return debounce_for(players or 0)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    if not STANDINGS.run(tournament_id, lambda: standings_recompute(tournament_id=tournament_id),
                         Tournament.DoesNotExist):
        return
    players = Participant.objects.filter(tournament_id=tournament_id).count()
    try:
        cache.set(_field_key(tournament_id), players, _FIELD_SECONDS)
    except Exception:  # the next recompute waits the shortest debounce
        log.warning("field size of %s not kept", tournament_id, exc_info=True)


STANDINGS = CoalescedRecompute("standings", recompute_standings, delay=standings_debounce)
schedule_standings = STANDINGS.schedule
