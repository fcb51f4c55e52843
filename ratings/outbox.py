"""The ratings' outbox: a change that may move a game's ratings is noted in the
changing transaction and a re-rating scheduled after the commit (``ratings.tasks``); the
periodic sweep publishes whatever the broker did not take. A deal on a sheet not yet
submitted costs nothing here (no row, no query): such a sheet is not rated.
"""

from __future__ import annotations

from django.db import transaction

from ratings.models import RatedResult, RatingOutbox, result_key
from ratings.results import event_date
from ratings.tasks import schedule_ratings
from tournaments.models import Table, Tournament


def ratings_mark_changed(*, game: str, from_key: str = "",
                         tournament_id: int | None = None) -> None:
    """Note that ``game``'s results from ``from_key`` on (or those of a tournament, when
    no key is given) may have changed; inside the writing transaction."""
    RatingOutbox.objects.create(game=game, from_key=from_key, tournament_id=tournament_id)
    transaction.on_commit(lambda: schedule_ratings(game), robust=True)


def ratings_results_changed(*, tournament_id: int, round_number: int | None,
                            table: Table | None, table_id: int | None) -> None:
    """The hook of ``tournaments``' ``results_changed`` signal."""
    if table is None and table_id is not None:
        table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
        if table is None:
            return
    if table is not None:
        if not table.submitted:
            return  # never rated while open; its submission is the change that counts
        tournament = table.round.tournament
        ratings_mark_changed(game=tournament.game, tournament_id=tournament.pk,
                             from_key=result_key(event_date(tournament.date,
                                                            tournament.created_at),
                                                 table.round.number, table.number, table.pk))
        return
    game = Tournament.objects.filter(pk=tournament_id).values_list("game", flat=True).first()
    if game is not None:
        ratings_mark_changed(game=game, tournament_id=tournament_id)


def ratings_tournament_deleted(*, tournament: Tournament) -> None:
    """A deleted tournament's results go with it: re-rate from its first one."""
    first = (RatedResult.objects.filter(tournament=tournament).order_by("key")
             .values_list("key", flat=True).first())
    if first is not None:
        ratings_mark_changed(game=tournament.game, from_key=first)
