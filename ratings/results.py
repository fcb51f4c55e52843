"""Reading the results that count for a game's ratings (games.md §10.1 *Input*).

A result is a *submitted* table (a tournament round's or a club evening's; a sheet ended
early is submitted too) with at least one deal or a summary. Its players are the seated
players who took part in a deal: at a shortened sheet of fewer deals than seats, a seat
the game's engine had sit out of every deal entered (the dealer at a table of four in
Skat) played nothing and does not count. A withdrawn player's unplayed rounds have no
seat, so they do not exist here. Club evenings count as any tournament: their tables
count once submitted (or ended early), as the evening's standings do; a table still open
counts for nothing yet. Published or not, a submitted sheet counts (a director's
unpublished event was still played); what the public is shown is the readers' choice
(``ratings.selectors``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import BooleanField, Count, ExpressionWrapper, Q
from django.utils import timezone

from games.engines import DealContext, get_engine
from ratings.models import FROM_START, result_key
from ratings.skill import Result
from tournaments.models import Deal, Seat, Table


@dataclass(frozen=True)
class Found:
    """A result with where it came from."""

    result: Result
    table_id: int
    tournament_id: int
    date: datetime.date
    round_number: int
    table_number: int
    # the seat of each of ``result.players`` and the table's size (for the statistics)
    seats: tuple[int, ...] = ()
    size: int = 0

    @property
    def standing(self) -> list[list[int]]:
        result = self.result
        return [[p, s] for p, s in zip(result.players, result.scores, strict=True)]


def event_date(date: datetime.date | None, created_at: datetime.datetime) -> datetime.date:
    """A tournament's date, or the day it was created when it has none."""
    return date if date is not None else timezone.localdate(created_at)


def _tables(game: str, *, since: datetime.date | None = None, tournament_ids=None):
    tables = Table.objects.filter(submitted=True, round__tournament__game=game)
    if since is not None:
        # an undated tournament is keyed by its creation day; a day early covers time zones
        early = datetime.datetime.combine(since - datetime.timedelta(days=1), datetime.time(),
                                          tzinfo=datetime.UTC)
        tables = tables.filter(Q(round__tournament__date__gte=since)
                               | Q(round__tournament__date__isnull=True,
                                   round__tournament__created_at__gte=early))
    if tournament_ids is not None:
        tables = tables.filter(round__tournament_id__in=list(tournament_ids))
    return tables


def result_keys(game: str, tournament_ids) -> dict[int, str]:
    """Tournament → the key of its first result that counts now (submitted tables only)."""
    first: dict[int, str] = {}
    for table_id, number, round_number, tid, date, created in _tables(
            game, tournament_ids=tournament_ids).values_list(
            "pk", "number", "round__number", "round__tournament_id", "round__tournament__date",
            "round__tournament__created_at"):
        key = result_key(event_date(date, created), round_number, number, table_id)
        if tid not in first or key < first[tid]:
            first[tid] = key
    return first


def current_results(game: str, *, start: str = FROM_START) -> list[Found]:
    """The results of ``game`` whose key is ``start`` or later, in rating order."""
    engine = get_engine(game)
    since = datetime.date.fromisoformat(start[:10]) if start > FROM_START else None
    tables = _tables(game, since=since)
    info = {}
    for (table_id, number, round_number, tid, date, created, rules, summary,
         deals) in tables.annotate(
            has_summary=ExpressionWrapper(Q(summary__isnull=False), output_field=BooleanField()),
            deal_count=Count("deals")).values_list(
            "pk", "number", "round__number", "round__tournament_id", "round__tournament__date",
            "round__tournament__created_at", "round__tournament__rules", "has_summary",
            "deal_count"):
        if not summary and not deals:
            continue  # nothing was played at this table
        key = result_key(event_date(date, created), round_number, number, table_id)
        if key >= start:
            info[table_id] = (key, tid, event_date(date, created), round_number, number,
                              rules, summary, deals)
    seats: dict[int, list[tuple[int, int, int]]] = {}
    for table_id, seat, player, score in Seat.objects.filter(
            table__in=tables).order_by().values_list(
            "table_id", "seat", "participant__player_id", "score"):
        if table_id in info:
            seats.setdefault(table_id, []).append((seat, player, score))
    short = [tid for tid, (*_rest, summary, deals) in info.items()
             if not summary and deals < len(seats.get(tid, ()))]
    played = _seats_in_play(engine, short, info, seats) if short else {}
    found = []
    for table_id, (key, tid, date, round_number, number, _rules, _s, _d) in info.items():
        at = sorted(seats.get(table_id, ()))
        if table_id in played:
            at = [s for s in at if s[0] in played[table_id]]
        if len(at) < 2:
            continue
        found.append(Found(Result(key, tuple(p for _s, p, _c in at),
                                  tuple(c for _s, _p, c in at)),
                           table_id, tid, date, round_number, number,
                           tuple(s for s, _p, _c in at), len(seats.get(table_id, ()))))
    found.sort(key=lambda f: f.result.key)
    return found


def _seats_in_play(engine, table_ids, info, seats) -> dict[int, set[int]]:
    """Seats that played at least one deal at each of these short sheets."""
    records: dict[int, list[dict]] = {}
    for table_id, record in Deal.objects.filter(table_id__in=table_ids).order_by(
            "table_id", "number").values_list("table_id", "record"):
        records.setdefault(table_id, []).append(record)
    played = {}
    for table_id in table_ids:
        count = len(seats.get(table_id, ()))
        rules = engine.options(info[table_id][5])
        done = records.get(table_id, [])
        active: set[int] = set()
        for number in range(1, len(done) + 1):
            ctx = DealContext(number, count, rules, previous=tuple(done[:number - 1]))
            active.update(engine.active_seats(ctx))
        played[table_id] = active
    return played
