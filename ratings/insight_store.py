"""Writing a player's statistics (games.md §11) beside the ratings' history: the re-rating
(``ratings.services``) hands over the results it rated, each with its players' states
just before it, and gets one ``SheetStat`` per player and result — placement, expected
placement (``ratings.insight``) and the counts from the table's deal records.

The seats come with the results (``ratings.results.Found``); the tables' deals and rules
are read in batches of ``BATCH`` results: two queries per batch (one while no table of
it has deals), whatever the length of the history.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engines import get_engine
from ratings.insight import SeatCounts, sheet_counts, table_figures
from ratings.insight_models import SheetStat
from ratings.results import Found
from ratings.skill import State
from tournaments.models import Deal, Table

BATCH = 500
NOTHING = SeatCounts()


def sheet_stats(game: str, done: Sequence[tuple[Found, list[State]]]) -> list[SheetStat]:
    """The rows of ``done`` (each rated result with its players' states before it)."""
    engine = get_engine(game)
    lower = engine.standing_order == "asc"
    rules_of: dict[int, dict] = {}
    rows = []
    for start in range(0, len(done), BATCH):
        batch = done[start:start + BATCH]
        table_ids = [found.table_id for found, _states in batch]
        records: dict[int, list[dict]] = {}
        for table_id, record in Deal.objects.filter(table_id__in=table_ids).order_by(
                "table_id", "number").values_list("table_id", "record"):
            records.setdefault(table_id, []).append(record)
        rules = dict(Table.objects.filter(pk__in=list(records)).values_list(
            "pk", "round__tournament__rules"))
        for found, states in batch:
            result = found.result
            counts: dict[int, SeatCounts] = {}
            if found.table_id in records:
                if found.tournament_id not in rules_of:
                    rules_of[found.tournament_id] = engine.options(rules[found.table_id])
                counts = sheet_counts(engine, records[found.table_id], found.size,
                                      rules_of[found.tournament_id])
            figures = table_figures(result.scores, states, lower_is_better=lower)
            for player, seat, score, (placement, expected) in zip(
                    result.players, found.seats, result.scores, figures, strict=True):
                mine = counts.get(seat, NOTHING)
                rows.append(SheetStat(
                    player_id=player, game=game, key=result.key,
                    tournament_id=found.tournament_id, date=found.date, score=score,
                    placement=placement, expected_placement=expected, deals=mine.deals,
                    by_role=mine.by_role, by_kind=mine.by_kind))
    return rows
