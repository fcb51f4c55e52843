"""A tournament's stored standings rows: computed from its seats' sheet totals, written by
the recompute (``standings_recompute``, run by ``tournaments.recompute.tasks``).

Each seat holds its sheet's standing figure (``score``) and the game's other figures;
standings sum them per participant over rounds and rank with the game's tie-break.

Two ways to the same rows:

- *full*: every seat of the tournament is read, summed and ranked; per round and overall.
- *incremental*, when every pending change names its round (``StandingsOutbox``
  ``round_number``) and the standings were computed before: only the changed rounds'
  seats are read and their per-round rows rewritten; the overall rows are the stored ones
  with those rounds' old contributions (their stored per-round rows) taken out and the new
  ones put in, ranked again, and only the rows whose rank or figures moved are rewritten.
  A round drawn since the last recompute counts as changed. Both give equal rows (a
  property test compares them after random changes).
"""

from __future__ import annotations

import json
import time
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from games.engines import get_engine
from tournaments.models import (
    Seat,
    StandingRow,
    StandingsOutbox,
    StandingsState,
    Tournament,
)
from tournaments.recompute import snapshots
from tournaments.recompute.signals import standings_recomputed
from tournaments.standings import aggregate, rank


def seat_rows(tournament: Tournament, *, round_number: int | None = None,
              round_numbers=None) -> list[dict[str, Any]]:
    """One plain row per seat played: participant, round, score and figures (of one
    round, of some rounds, or of all)."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if round_number is not None:
        seats = seats.filter(table__round__number=round_number)
    if round_numbers is not None:
        seats = seats.filter(table__round__number__in=round_numbers)
    return [
        {"participant": pid, "round": number, "score": score, **figures}
        for pid, number, score, figures in seats.values_list(
            "participant_id", "table__round__number", "score", "figures")
    ]


def compute_standings(tournament: Tournament, *,
                      round_number: int | None = None) -> list[dict[str, Any]]:
    """Ranked rows ``{"rank", "participant", "score", <figures>, "rounds"}``."""
    engine = get_engine(tournament.game)
    rows = aggregate(seat_rows(tournament, round_number=round_number), engine.figures)
    return rank(rows, engine.rank_key)


def _store_rows(tournament: Tournament, rows: list[dict[str, Any]], round_number: int,
                figures: tuple[str, ...]) -> list[tuple]:
    """Plain tuples in ``STORED_COLUMNS`` order, one per ranked row."""
    tid = tournament.pk
    return [
        (tid, round_number, row["participant"], row["rank"], row["score"],
         {name: row[name] for name in figures}, row.get("rounds", []))
        for row in rows
    ]


STORED_COLUMNS = ("tournament_id", "round_number", "participant_id", "rank", "score",
                  "figures", "rounds")


def _write_rows(stored: list[tuple]) -> None:
    """Insert the rows: one ``COPY`` on PostgreSQL (a tenth of ``bulk_create``'s time for
    12,000 rows), ``bulk_create`` elsewhere. Runs inside the caller's transaction."""
    if connection.vendor == "postgresql":
        table = StandingRow._meta.db_table
        with connection.cursor() as cursor:
            raw = cursor.cursor  # the psycopg 3 cursor under Django's wrapper
            with raw.copy(f"COPY {table} ({', '.join(STORED_COLUMNS)}) FROM STDIN") as copy:
                dumps = json.dumps
                for tid, number, pid, rank_, score, figures, rounds in stored:
                    copy.write_row((tid, number, pid, rank_, score, dumps(figures),
                                    dumps(rounds)))
        return
    StandingRow.objects.bulk_create(
        [StandingRow(**dict(zip(STORED_COLUMNS, row, strict=True))) for row in stored],
        batch_size=2000)


def _full(tournament: Tournament, figures: tuple[str, ...], rank_key) -> None:
    all_rows = seat_rows(tournament)
    stored = _store_rows(tournament, rank(aggregate(all_rows, figures), rank_key), 0, figures)
    by_round: dict[int, list[dict[str, Any]]] = {}
    for row in all_rows:
        by_round.setdefault(row["round"], []).append(row)
    for number, rows in sorted(by_round.items()):
        stored += _store_rows(tournament, rank(aggregate(rows, figures), rank_key), number,
                              figures)
    StandingRow.objects.filter(tournament=tournament).delete()
    _write_rows(stored)


def _changed_rounds(tournament: Tournament, upto: int) -> set[int] | None:
    """The rounds the pending changes name, and the rounds drawn since the last
    recompute; None when a change names no round (the whole tournament then)."""
    pending = set(StandingsOutbox.objects.filter(tournament=tournament, id__lte=upto)
                  .values_list("round_number", flat=True))
    if None in pending:
        return None
    drawn = set(tournament.rounds.values_list("number", flat=True))
    ranked = set(StandingRow.objects.filter(tournament=tournament, round_number__gt=0)
                 .order_by().values_list("round_number", flat=True).distinct())
    return pending | (drawn - ranked)


def _incremental(tournament: Tournament, rounds: set[int], figures: tuple[str, ...],
                 rank_key) -> bool:
    """Redo ``rounds`` and the overall rows from the stored ones; False (nothing
    written) when the stored rows do not fit together, so a full recompute must run."""
    names = ("score", *figures)
    columns = ("round_number", "participant_id", "rank", "score", "figures", "rounds")
    stored = {row[1]: _Stored(*row) for row in StandingRow.objects.filter(
        tournament=tournament, round_number=0).values_list(*columns)}
    old_rows = [_Stored(*row) for row in StandingRow.objects.filter(
        tournament=tournament, round_number__in=rounds).values_list(*columns)]
    if any(old.participant_id not in stored for old in old_rows):
        return False
    totals: dict[int, dict[str, Any]] = {
        pid: {"participant": pid, "score": row.score, **row.figures, "rounds": row.rounds}
        for pid, row in stored.items()}
    touched: set[int] = set()
    for old in old_rows:
        total = totals[old.participant_id]
        values = {"score": old.score, **old.figures}
        for name in names:
            total[name] -= values.get(name, 0)
        total["rounds"] = [r for r in total["rounds"] if r["round"] != old.round_number]
        touched.add(old.participant_id)
    per_round: dict[int, list[dict[str, Any]]] = {number: [] for number in rounds}
    for row in seat_rows(tournament, round_numbers=rounds):
        per_round[row["round"]].append(row)
        pid = row["participant"]
        total = totals.setdefault(pid, {"participant": pid, **{n: 0 for n in names},
                                        "rounds": []})
        for name in names:
            total[name] += row.get(name, 0)
        total["rounds"] = sorted([*total["rounds"], {"round": row["round"],
                                                     "score": row["score"]}],
                                 key=lambda r: r["round"])
        touched.add(pid)
    # a participant left with no round at all has no overall row (as in a full recompute)
    gone = {(0, pid) for pid in touched if not totals[pid]["rounds"]}
    for _number, pid in gone:
        del totals[pid]
    previous = {(0, pid): row for pid, row in stored.items()}
    previous.update({(old.round_number, old.participant_id): old for old in old_rows})
    lists = {0: rank(totals.values(), rank_key)}
    for number in rounds:
        lists[number] = rank(aggregate(per_round[number], figures), rank_key)
        seated = {row["participant"] for row in per_round[number]}
        gone |= {(number, old.participant_id) for old in old_rows
                 if old.round_number == number and old.participant_id not in seated}
    rows, moved = [], set()
    for number, ranked in lists.items():
        changed = [row for row in ranked if (number, row["participant"]) not in previous
                   or _differs(previous[(number, row["participant"])], row, figures)]
        moved |= {(number, row["participant"]) for row in changed}
        rows += _store_rows(tournament, changed, number, figures)
    for number in lists:
        out = [pid for n, pid in moved | gone if n == number]
        if out:
            StandingRow.objects.filter(tournament=tournament, round_number=number,
                                       participant_id__in=out).delete()
    _write_rows(rows)
    return True


class _Stored(NamedTuple):
    """A stored standings row as the incremental recompute reads it."""

    round_number: int
    participant_id: int
    rank: int
    score: int
    figures: dict[str, Any]
    rounds: list[dict[str, Any]]


def _differs(stored: _Stored, row: dict[str, Any], figures: tuple[str, ...]) -> bool:
    return (stored.rank != row["rank"] or stored.score != row["score"]
            or stored.rounds != row["rounds"]
            or stored.figures != {name: row[name] for name in figures})


@transaction.atomic
def standings_recompute(*, tournament_id: int, full: bool = False) -> StandingsState:
    """Recompute and store a tournament's standings, overall and per round.

    Idempotent and safe to run twice: the state row is locked for the whole run, so two
    recomputes of one tournament never overlap, and the stored rows are replaced in one
    transaction — a run that dies leaves the previous standings untouched. Incremental
    where the pending changes allow it (see the module's docstring); ``full`` forces the
    whole recompute (the management command, the sweep after an outage).
    """
    tournament = Tournament.objects.get(pk=tournament_id)
    state, _created = StandingsState.objects.get_or_create(tournament=tournament)
    state = StandingsState.objects.select_for_update().get(pk=state.pk)
    upto = (StandingsOutbox.objects.filter(tournament=tournament)
            .aggregate(m=Max("id"))["m"] or state.outbox_upto)
    pause = getattr(settings, "STANDINGS_FAULT_INJECTION_PAUSE", 0)
    if pause:
        time.sleep(pause)  # lets the fault-injection tests kill a worker mid-recompute
    engine = get_engine(tournament.game)
    figures = tuple(engine.figures)
    rounds = None if full or state.computed_at is None else _changed_rounds(tournament, upto)
    if rounds is None or (rounds and not _incremental(tournament, rounds, figures,
                                                       engine.rank_key)):
        _full(tournament, figures, engine.rank_key)
    StandingsOutbox.objects.filter(tournament=tournament, id__lte=upto).delete()
    state.computed_at = timezone.now()
    state.outbox_upto = upto
    state.recomputes += 1
    state.save()
    snapshots.invalidate(tournament_id)  # pollers' snapshots go after the commit
    # the floors above follow (club life marks a club evening's season stale)
    standings_recomputed.send(sender=Tournament, tournament=tournament)
    return state
