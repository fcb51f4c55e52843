"""Re-rating a game (games.md §10.1): the only writer of ratings.

``ratings_recompute`` takes in the game's pending outbox rows, finds the first result
they may touch, and compares the results that count now (``ratings.results``) with the
stored ones from there on: from the first that differs (another sheet, another order,
other players or scores) every stored result and history entry is replaced by replaying
the current ones from the players' states just before it. A change that moved nothing
(a deal on a sheet corrected back, a withdrawal between rounds) rewrites nothing. With
``full`` (the management command, ``recompute_ratings``) the replay starts at the first
result ever: both ways store the same numbers (a property test checks it). The players'
statistics (``ratings.insight_store``) are replaced with the history, from the same result
on.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Min, OuterRef, Subquery
from django.utils import timezone

from clubs.models import Player
from games.engines import get_engine
from ratings.insight_models import SheetStat
from ratings.insight_store import sheet_stats
from ratings.models import FROM_START, RatedResult, Rating, RatingEntry, RatingOutbox, RatingState
from ratings.results import Found, current_results, result_keys
from ratings.skill import NEW, State, replay
from tournaments import freshness


def _start(game: str, rows: list[tuple[str, int | None]]) -> str | None:
    """The first key the pending changes may touch; None when none touches any result."""
    keys = [key for key, _tid in rows if key]
    tournaments = {tid for key, tid in rows if not key and tid is not None}
    if tournaments:
        keys += RatedResult.objects.filter(game=game, tournament_id__in=tournaments).values(
            "tournament_id").annotate(first=Min("key")).values_list("first", flat=True)
        keys += result_keys(game, tournaments).values()
    return min(keys, default=None)


def _states_before(game: str, players: set[int], key: str) -> dict[int, State]:
    """Each player's state after his last result before ``key`` (absent: none). One
    statement; per player an index seek (``player, game, key``) for each figure, whatever
    the length of his history."""
    if key <= FROM_START or not players:
        return {}
    last = RatingEntry.objects.filter(player_id=OuterRef("pk"), game=game,
                                      key__lt=key).order_by("-key")
    rows = Player.objects.filter(pk__in=players).order_by().annotate(
        last_mu=Subquery(last.values("mu")[:1]), last_sigma=Subquery(last.values("sigma")[:1]),
        last_sheets=Subquery(last.values("sheets")[:1])).values_list(
        "pk", "last_mu", "last_sigma", "last_sheets")
    return {player: State(mu, sigma, sheets) for player, mu, sigma, sheets in rows
            if mu is not None}


def _first_difference(stored: list[tuple[str, int, list]], current: list[Found]) -> str | None:
    """The first key where the stored results (key, table, standing) and the current
    ones part; None when they are the same."""
    for index, found in enumerate(current):
        if index >= len(stored):
            return found.result.key
        key, table_id, standing = stored[index]
        if (key, table_id, standing) != (found.result.key, found.table_id, found.standing):
            return min(key, found.result.key)
    return stored[len(current)][0] if len(stored) > len(current) else None


def _rerate(game: str, start: str, *, full: bool = False) -> int:
    """Replace the stored results from the first one (at or after ``start``) that differs
    from the current ones (``full``: every one); the number of results rated."""
    current = current_results(game, start=start)
    stored = list(RatedResult.objects.filter(game=game, key__gte=start).order_by("key")
                  .values_list("key", "table_id", "standing"))
    restart = FROM_START if full else _first_difference(stored, current)
    if restart is None:
        return 0
    todo = [found for found in current if found.result.key >= restart]
    gone = {player for key, _table, standing in stored if key >= restart
            for player, _score in standing}
    RatingEntry.objects.filter(game=game, key__gte=restart).delete()
    SheetStat.objects.filter(game=game, key__gte=restart).delete()
    with connection.cursor() as cursor:  # its entries are gone: one statement, no collector
        cursor.execute(f"DELETE FROM {RatedResult._meta.db_table} WHERE game = %s AND key >= %s",
                       [game, restart])
    players = gone | {p for found in todo for p in found.result.players}
    before = _states_before(game, players, restart)
    lower = get_engine(game).standing_order == "asc"
    found_of = {found.result.key: found for found in todo}
    results, entries, done = [], [], []
    final = dict(before)
    for result, after in replay([found.result for found in todo], before,
                                lower_is_better=lower):
        found = found_of[result.key]
        done.append((found, [final.get(player, NEW) for player in result.players]))
        rated = RatedResult(game=game, key=result.key, table_id=found.table_id,
                            tournament_id=found.tournament_id, date=found.date,
                            round_number=found.round_number, table_number=found.table_number,
                            standing=found.standing)
        results.append(rated)
        for player, state in zip(result.players, after, strict=True):
            entries.append((rated, RatingEntry(
                player_id=player, game=game, key=result.key, mu=state.mu, sigma=state.sigma,
                sheets=state.sheets, rating=state.rating)))
            final[player] = state
    RatedResult.objects.bulk_create(results, batch_size=1000)
    for rated, entry in entries:
        entry.result_id = rated.pk
    RatingEntry.objects.bulk_create([entry for _rated, entry in entries], batch_size=2000)
    # a player's statistics (games.md §11), from the same results and states
    SheetStat.objects.bulk_create(sheet_stats(game, done), batch_size=2000)
    # the personal pages of the events re-rated show the new ratings
    for tournament_id in {found.tournament_id for found in todo}:
        freshness.bump(tournament_id)
    # a player left without any result has no rating; the others' are written in place
    unrated = players - final.keys()
    if unrated:
        Rating.objects.filter(game=game, player_id__in=unrated).delete()
    Rating.objects.bulk_create([
        Rating(player_id=player, game=game, mu=state.mu, sigma=state.sigma,
               sheets=state.sheets, rating=state.rating)
        for player, state in sorted(final.items()) if player in players], batch_size=2000,
        update_conflicts=True, unique_fields=["player", "game"],
        update_fields=["mu", "sigma", "sheets", "rating"])
    return len(results)


def _commit_without_waiting() -> None:
    """Let this transaction's COMMIT return before its WAL reaches the disk (PostgreSQL's
    ``synchronous_commit`` for this transaction only; the flush of a commit was the
    largest single wait of a re-rating). Safe because ratings are derived: a crash that
    loses the commit loses it whole, with the deletion of the outbox rows it took in, so
    those rows are pending again and the beat sweep re-rates them. Only when the
    re-rating is its own transaction (the task, the command): inside a caller's it would
    loosen the caller's writes too."""
    if connection.vendor == "postgresql" and len(connection.atomic_blocks) == 1:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


@transaction.atomic
def ratings_recompute(*, game: str, full: bool = False) -> RatingState:
    """Bring a game's ratings up to date with its results (see the module docstring).

    Idempotent and safe to run twice: the game's state row is locked for the run, so two
    re-ratings of one game never overlap, and it takes in only the outbox rows pending
    when it began (a change made meanwhile queues the next run)."""
    get_engine(game)  # an unknown game is a programming error here
    _commit_without_waiting()
    state, _created = RatingState.objects.select_for_update().get_or_create(game=game)
    # exactly the rows read are taken in and deleted: a change committed meanwhile (even
    # with a smaller id) stays pending for the run its own commit schedules
    pending = list(RatingOutbox.objects.filter(game=game).values_list("id", "from_key",
                                                                     "tournament_id"))
    upto = max((row[0] for row in pending), default=state.outbox_upto)
    # a row from the very start asks for a full re-rating (ratings 0005: the statistics'
    # first fill on a database of the last release)
    full = full or any(key == FROM_START for _id, key, _tid in pending)
    if full or state.computed_at is None:
        start: str | None = FROM_START
    else:
        start = _start(game, [(key, tid) for _id, key, tid in pending])
    rerated = 0 if start is None else _rerate(game, start, full=full)
    if pending:
        RatingOutbox.objects.filter(id__in=[row[0] for row in pending]).delete()
    state.computed_at = timezone.now()
    state.outbox_upto = upto
    state.recomputes += 1
    state.last_rerated = rerated
    state.save()
    return state
