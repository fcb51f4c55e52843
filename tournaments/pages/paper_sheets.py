"""Blank paper sheets per game, laid out like the lists clubs use, for a table whose
tablet fails: per deal the number, the dealer (known in advance), the game's own columns
and a running total per player, and the foot its game's presentation gives (e.g. Skat's
Seeger-Fabian rows); with the table's seats, round and the QR code of its tablet sheet."""

from __future__ import annotations

from typing import Any

from games.engines import DealContext, get_engine
from games.presentation import presentation_of


def paper_sheet(state: dict[str, Any]) -> dict[str, Any]:
    """One table's blank sheet: its rows (number, dealer, cards where the game deals a
    varying number), the game's own columns and the foot rows of its game."""
    engine = get_engine(state["game"])
    shown = presentation_of(state["game"])
    players = len(state["seats"])
    names = {s["seat"]: s["name"] for s in state["seats"]}
    rows = []
    for number in range(1, state["sheet_length"] + 1):
        # a blank sheet: only the first deal's place is known (nothing is played yet)
        hints = engine.deal_hints(DealContext(number, players, state["rules"],
                                              previous=() if number == 1 else None))
        rows.append({"number": number, "dealer": names.get(hints["dealer"], ""),
                     "cards": hints.get("cards")})
    columns = list(shown.sheet_columns)
    return {"state": state, "rows": rows, "columns": columns, "foot": shown.sheet_foot(state),
            "span": 2 + len(columns)}
