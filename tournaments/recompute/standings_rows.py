"""A tournament's stored standings: computed from its seats' sheet totals, written by
the recompute (``standings_recompute``, run by ``tournaments.recompute.tasks``) as pages
of JSON rows (``StandingsPage``: overall, and each round; ranked on read).

Each seat holds its sheet's standing figure (``score``) and the game's other figures;
standings sum them per participant over rounds (the game's tie-break ranks them when
read).

Two ways to the same pages:

- *full*: every seat of the tournament is read and summed; per round and overall.
- *incremental*, when every pending change names its round (``StandingsOutbox``
  ``round_number``) and the standings were computed before: a change that names its
  table (a sheet re-totalled, submitted or ended: the table's players unchanged) has
  only that table's seats read, and only the pages of its players rewritten, in the
  round's list and overall — the same work at 300 players as at 30,000. A change that
  names only the round, and a round drawn since the last recompute, has the whole round
  read. The overall rows are the stored ones with the replaced rows' old contributions
  taken out and the new ones put in. Both ways give equal pages (a property test
  compares them after random changes).
"""

from __future__ import annotations

import functools
import gc
import time
from contextlib import contextmanager
from typing import Any

import orjson
from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engines import get_engine
from tournaments import freshness
from tournaments.models import (
    Seat,
    StandingsOutbox,
    StandingsPage,
    StandingsState,
    Tournament,
)
from tournaments.recompute.signals import standings_recomputed
from tournaments.selectors import keep_ranks
from tournaments.standings import aggregate, rank
from tournaments.statements import insert_rows

Row = dict[str, Any]


def _page(participant: int) -> int:
    return participant // StandingsPage.PAGE_SIZE


def seat_rows(tournament: Tournament, *, round_number: int | None = None,
              table_ids=None) -> list[Row]:
    """One plain row per seat played: participant, round, score and figures (of one
    round, of some tables, or of all)."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if round_number is not None:
        seats = seats.filter(table__round__number=round_number)
    if table_ids is not None:
        seats = seats.filter(table_id__in=table_ids)
    return [_seat_row(*seat) for seat in _seat_values(seats)]


def _seat_values(seats):
    """(participant, round, score, figures as JSON text): the text is decoded by orjson
    in ``_seat_row``, a third of the time Django's JSON field takes for the same rows."""
    return seats.annotate(figures_text=Cast("figures", TextField())).values_list(
        "participant_id", "table__round__number", "score", "figures_text")


def _seat_row(pid: int, number: int, score: int, figures: str) -> Row:
    return {"participant": pid, "round": number, "score": score, **orjson.loads(figures)}


def compute_standings(tournament: Tournament, *, round_number: int | None = None) -> list[Row]:
    """Ranked rows ``{"rank", "participant", "score", <figures>, "rounds"}``."""
    engine = get_engine(tournament.game)
    rows = aggregate(seat_rows(tournament, round_number=round_number), engine.figures)
    return rank(rows, engine.rank_key)


def _write(tournament: Tournament, pages: dict[tuple[int, int], list[Row]], *,
           cleared: bool = False) -> None:
    """Replace the given pages ((round, page) → rows, in participant order); an empty
    page is removed. The old ones go in one statement (none when ``cleared``), the new
    ones come in one ``executemany`` (a bulk insert would have the driver escape each
    document as an array element). orjson: encoding and decoding the pages is most of a recompute's
    Python time, and it does both about five times faster than the standard library."""
    by_round: dict[int, list[int]] = {}
    for number, page in pages:
        by_round.setdefault(number, []).append(page)
    doomed = Q()
    for number, numbers in by_round.items():
        doomed |= Q(round_number=number, page__in=numbers)
    if pages and not cleared:
        StandingsPage.objects.filter(doomed, tournament=tournament).delete()
    insert_rows(StandingsPage, ("tournament", "round_number", "page", "rows"),
                [(tournament.pk, number, page, orjson.dumps(
                    sorted(rows, key=lambda r: r["participant"])).decode())
                 for (number, page), rows in sorted(pages.items()) if rows])


# pages gathered before a full recompute writes them: bounds its memory
FULL_BATCH_PAGES = 64


def _full(tournament: Tournament, figures: tuple[str, ...]) -> None:
    """Every seat, streamed in participant order: a page's participants are summed
    (overall and per round) and written once the next page begins, so memory holds a
    batch of pages, never the whole field."""
    StandingsPage.objects.filter(tournament=tournament).delete()
    seats = _seat_values(Seat.objects.filter(table__round__tournament=tournament)
                         .order_by("participant_id")).iterator(chunk_size=2000)
    pages: dict[tuple[int, int], list[Row]] = {}
    rows: list[Row] = []
    for seat in seats:
        if rows and _page(seat[0]) != _page(rows[-1]["participant"]):
            _add_pages(pages, rows, figures)
            rows = []
            if len(pages) >= FULL_BATCH_PAGES:
                _write(tournament, pages, cleared=True)
                pages = {}
        rows.append(_seat_row(*seat))
    _add_pages(pages, rows, figures)
    _write(tournament, pages, cleared=True)


def _add_pages(pages: dict[tuple[int, int], list[Row]], rows: list[Row],
               figures: tuple[str, ...]) -> None:
    """The overall and per-round rows of one page's participants."""
    if not rows:
        return
    page = _page(rows[0]["participant"])
    pages[(0, page)] = aggregate(rows, figures)
    by_round: dict[int, list[Row]] = {}
    for row in rows:
        by_round.setdefault(row["round"], []).append(row)
    for number, found in by_round.items():
        pages[(number, page)] = aggregate(found, figures)


def _changes(tournament: Tournament, upto: int) -> dict[int, set[int] | None] | None:
    """Round → the tables whose sheets changed (None: the whole round), from the pending
    changes and the rounds drawn since the last recompute; None when a change names no
    round or a stored round is gone (the whole tournament then)."""
    changes: dict[int, set[int] | None] = {}
    for number, table_id in StandingsOutbox.objects.filter(
            tournament=tournament, id__lte=upto).values_list("round_number", "table_id"):
        if number is None:
            return None
        if table_id is None:
            changes[number] = None
        elif changes.get(number, set()) is not None:
            changes.setdefault(number, set()).add(table_id)
    drawn = set(tournament.rounds.values_list("number", flat=True))
    stored = set(StandingsPage.objects.filter(tournament=tournament, round_number__gt=0)
                 .order_by().values_list("round_number", flat=True).distinct())
    if stored - drawn:
        return None
    changes.update({number: None for number in drawn - stored})
    return changes


def _load(tournament: Tournament, which: Q) -> dict[tuple[int, int], dict[int, Row]]:
    """Stored pages: (round, page) → participant → row."""
    return {(number, page): {row["participant"]: row for row in orjson.loads(text)}
            for number, page, text in StandingsPage.objects.filter(
                which, tournament=tournament).values_list("round_number", "page", "rows")}


def _incremental(tournament: Tournament, changes: dict[int, set[int] | None],
                 figures: tuple[str, ...]) -> bool:
    """Redo the changed rows of the changed rounds and of the overall list from the
    stored pages; False (nothing written) when the stored pages do not fit together, so
    a full recompute must run."""
    names = ("score", *figures)
    fresh = {number: aggregate(seat_rows(tournament, round_number=number) if tables is None
                               else seat_rows(tournament, table_ids=tables), figures)
             for number, tables in changes.items()}
    which = Q()
    for number, tables in changes.items():
        if tables is None:
            which |= Q(round_number=number)
        else:
            which |= Q(round_number=number,
                       page__in={_page(row["participant"]) for row in fresh[number]})
    stored = _load(tournament, which) if changes else {}
    # participant → (round → its old row, which its new one replaces)
    replaced: dict[int, dict[int, Row]] = {}
    for number, tables in changes.items():
        if tables is not None and not any(n == number for n, _ in stored):
            return False
        old = {pid: row for (n, _), rows in stored.items() if n == number
               for pid, row in rows.items()}
        out = old if tables is None else {row["participant"]: old.get(row["participant"])
                                          for row in fresh[number]}
        for pid, row in out.items():
            replaced.setdefault(pid, {})[number] = row
        for row in fresh[number]:
            replaced.setdefault(row["participant"], {}).setdefault(number, None)
    overall = _load(tournament, Q(round_number=0, page__in={_page(pid) for pid in replaced}))
    if not overall and replaced:
        return False
    pages: dict[tuple[int, int], list[Row]] = {}
    totals: dict[int, Row] = {pid: row for rows in overall.values()
                              for pid, row in rows.items()}
    for pid, rounds in replaced.items():
        total = totals.get(pid)
        for number, old in rounds.items():
            if old is None:
                continue
            if total is None:
                return False
            for name in names:
                total[name] -= old.get(name, 0)
            total["rounds"] = [r for r in total["rounds"] if r["round"] != number]
    for rows in fresh.values():
        for row in rows:
            pid = row["participant"]
            total = totals.get(pid)
            if total is None:
                total = totals[pid] = {"participant": pid, **{n: 0 for n in names},
                                       "rounds": []}
            for name in names:
                total[name] += row.get(name, 0)
            total["rounds"] = sorted([*total["rounds"], *row["rounds"]],
                                     key=lambda r: r["round"])
    # every loaded or touched page is written again: rounds' with the fresh rows in place
    # of the replaced ones, overall's with the totals (a participant left with no round at
    # all has no overall row, as in a full recompute)
    for (number, page), rows in stored.items():
        pages[(number, page)] = [row for pid, row in rows.items()
                                 if pid not in replaced or number not in replaced[pid]]
    for number, rows in fresh.items():
        for row in rows:
            pages.setdefault((number, _page(row["participant"])), []).append(row)
    for pid, total in totals.items():
        pages.setdefault((0, _page(pid)), [])
        if total["rounds"]:
            pages[(0, _page(pid))].append(total)
    _write(tournament, pages)
    return True


@contextmanager
def _cycle_collector_paused():
    """The recompute builds tens of thousands of short-lived dicts and lists that hold no
    reference cycles; the collector passes they set off walk every object of the worker
    (measured: up to 20 ms of a 35-ms recompute after one change). Paused for the run;
    reference counting still frees everything at once."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@_cycle_collector_paused()
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
    changes = None if full or state.computed_at is None else _changes(tournament, upto)
    if changes is None or (changes and not _incremental(tournament, changes, figures)):
        _full(tournament, figures)
    StandingsOutbox.objects.filter(tournament=tournament, id__lte=upto).delete()
    state.computed_at = timezone.now()
    state.outbox_upto = upto
    state.recomputes += 1
    state.save()
    # a new version of the stored standings after the commit, its ranks kept for the
    # players' pages under it first
    version = freshness.new_version()
    transaction.on_commit(functools.partial(keep_ranks, tournament_id, state.recomputes,
                                            version), robust=True)
    freshness.bump(tournament_id, computation=True, version=version)
    # the floors above follow (club life marks a club evening's season stale)
    standings_recomputed.send(sender=Tournament, tournament=tournament)
    return state
