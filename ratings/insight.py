"""A player's statistics and performance against expectation (games.md §11), pure Python
(no Django).

Terms: a *sheet row* (``SheetRow``) is what one finished sheet says about one player —
his score there, his *placement* (his rank at the table by the sheet's ``score``, ties
sharing the better rank, La Bâtarde lowest first), his *expected placement* and his
counts from the deal records; a *summary* (``summarize``) is the answer over many rows.

**Expected placement** (the rating model's own predicted rank, documented here): with
the ratings of the table's players just before the sheet, the model of §10.1 gives each
pair ``P(j finishes ahead of i)`` (``ratings.skill.expected_ranks``: openskill's
Plackett–Luce ``predict_win`` of the two); the expected placement of ``i`` is
``1 + Σ_j P(j ahead of i)`` — the mean rank the model predicts. Four equals expect 2.5
each (games.md I1); it is a fraction, kept to 4 places.

**Counts** come from the deal records only, never typed in: each game's engine says a
seat's part in a deal (``Engine.deal_parts``: role, kind, won); this module adds them up
without naming a game. ``by_role[role] = {"deals", "won", "lost"}``;
``by_kind[kind] = {<counted as>: n, "won", "lost"}`` — "declared" for a declarer's game,
"partner" for a partner's, "played" where everyone at the table plays the kind.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engines import DealContext, Engine
from ratings.skill import State, expected_ranks, ranks

Counts = dict[str, dict[str, int]]


@dataclass(frozen=True)
class SeatCounts:
    """One seat's figures from a sheet's deal records."""

    deals: int = 0
    by_role: Counts = field(default_factory=dict)
    by_kind: Counts = field(default_factory=dict)


@dataclass(frozen=True)
class SheetRow:
    """One finished sheet as one player saw it."""

    date: datetime.date
    tournament: int
    score: int
    placement: int
    expected_placement: float
    deals: int = 0
    by_role: Counts = field(default_factory=dict)
    by_kind: Counts = field(default_factory=dict)


def _count(into: Counts, key: str, what: str, won: bool | None) -> None:
    row = into.setdefault(key, {what: 0, "won": 0, "lost": 0})
    row[what] = row.get(what, 0) + 1
    if won is not None:
        row["won" if won else "lost"] += 1


def sheet_counts(engine: Engine, records: Sequence[dict[str, Any]], players: int,
                 rules: dict[str, Any]) -> dict[int, SeatCounts]:
    """Every seat's deals and counts from a sheet's stored records (in order) at a table
    of ``players`` under validated ``rules``."""
    deals = dict.fromkeys(range(1, players + 1), 0)
    roles: dict[int, Counts] = {seat: {} for seat in deals}
    kinds: dict[int, Counts] = {seat: {} for seat in deals}
    records = tuple(records)
    for number, record in enumerate(records, start=1):
        ctx = DealContext(number, players, rules, previous=records[:number - 1])
        for seat, part in engine.deal_parts(record, ctx, engine.active_seats(ctx)).items():
            deals[seat] += 1
            if part.role is not None:
                _count(roles[seat], part.role, "deals", part.won)
            if part.kind is not None:
                _count(kinds[seat], part.kind, part.counted_as, part.won)
    return {seat: SeatCounts(deals[seat], roles[seat], kinds[seat]) for seat in deals}


def table_figures(scores: Sequence[int], states: Sequence[State], *,
                  lower_is_better: bool) -> list[tuple[int, float]]:
    """(placement, expected placement) of each player at a table, in the order given:
    ``scores`` their sheet scores, ``states`` their ratings just before the sheet."""
    placed = ranks(scores, lower_is_better=lower_is_better)
    expected = expected_ranks(states)
    return [(p, round(e, 4)) for p, e in zip(placed, expected, strict=True)]


def add_counts(into: Counts, more: Mapping[str, Mapping[str, int]]) -> None:
    for key, figures in more.items():
        row = into.get(key)
        if row is None:
            into[key] = dict(figures)
            continue
        for what, n in figures.items():
            row[what] = row.get(what, 0) + n


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def summarize(game: str, rows: Iterable[SheetRow]) -> dict[str, Any]:
    """The answer of api.md "Insight" over ``rows`` (in date order): means rounded to 2
    places (null without a sheet), ``performance = expected_placement_avg −
    placement_avg`` (positive: better than the ratings predicted)."""
    rows = list(rows)
    by_role: Counts = {}
    by_kind: Counts = {}
    for row in rows:
        add_counts(by_role, row.by_role)
        add_counts(by_kind, row.by_kind)
    placement = _mean([r.placement for r in rows])
    expected = _mean([r.expected_placement for r in rows])
    performance = None
    if rows:
        performance = round(sum(r.expected_placement - r.placement for r in rows) / len(rows),
                            2)
    return {
        "game": game, "sheets": len(rows), "deals": sum(r.deals for r in rows),
        "score_avg": _mean([r.score for r in rows]), "placement_avg": placement,
        "expected_placement_avg": expected, "performance": performance,
        "by_kind": by_kind, "by_role": by_role,
        "series": [{"date": r.date, "tournament": r.tournament, "score": r.score,
                    "placement": r.placement, "expected_placement": r.expected_placement}
                   for r in rows],
    }
