"""The sheet as a paper list reads: per deal the dealer, the declarer (and a called
partner), the game in words and its value; at the foot what the game's presentation adds
(Skat's Seeger-Fabian rows, La Bâtarde's note that fewer penalty points are better)."""

from __future__ import annotations

import json
from collections.abc import Container
from typing import Any

from games.engines import DealContext, get_engine
from games.engines.words import declarer_of
from games.presentation import presentation_of
from games.words import deal_in_words


def paper_list(state: dict[str, Any], *, known: Container[int] = ()) -> dict[str, Any]:
    """``state`` (a table state with its deals) with the paper list's words added, but
    to the deals numbered in ``known`` (whose row the caller has rendered already)."""
    game = state["game"]
    engine, shown = get_engine(game), presentation_of(game)
    names = {s["seat"]: s["name"] for s in state["seats"]}
    players = len(state["seats"])
    previous: list[dict[str, Any]] = []
    for row in state.get("deals") or []:
        record = row["record"]
        hints = engine.deal_hints(DealContext(row["number"], players, state["rules"],
                                              previous=tuple(previous)))
        previous.append(record)
        if row["number"] in known:
            continue
        declarer = declarer_of(record)
        row["dealer_name"] = names.get(hints["dealer"], "")
        row["declarer_name"] = names.get(declarer, "") if declarer else ""
        partner = shown.partner_of(record)
        row["partner_name"] = names.get(partner, "") if partner else ""
        row["hints_json"] = json.dumps(hints)  # a correction greys the deal's dealer
        row["words"] = deal_in_words(game, record, names)
        # the declarer's score, or the game's own value where it has no declarer (a
        # Doppelkopf game's value, as the DDV list writes it)
        row["value"] = row["scores"][declarer - 1] if declarer \
            else (row.get("extra") or {}).get("value")
        row["passed"] = shown.is_passed(record)
    state["next_json"] = json.dumps(state.get("next"))  # the next deal's hints
    state.update(shown.list_foot(state))
    return state
