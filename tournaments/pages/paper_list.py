"""The sheet as a paper list reads: per deal the dealer, the declarer (and a called
partner), the game in words and its value, its figures written (``*_shown``: as the
``num``/``signed`` filters and ``{{ n }}`` write them, for the template to put as they are);
at the foot what the game's presentation adds
(Skat's Seeger-Fabian rows, La Bâtarde's note that fewer penalty points are better)."""

from __future__ import annotations

import json
from collections.abc import Container
from typing import Any

from games.engines import DealContext, get_engine
from games.engines.words import declarer_of
from games.figures import Figures
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
    figures = Figures()  # the figures written once here, the language's formats read once
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
        _figures_shown(row, figures)
    state["next_json"] = json.dumps(state.get("next"))  # the next deal's hints
    state.update(shown.list_foot(state))
    for total in state.get("totals") or []:
        total["score_shown"] = figures.num(total["score"])
    for line in state.get("seeger_fabian") or []:
        line.update({f"{key}_shown": write(line[key]) for key, write in (
            ("game_points", figures.num), ("won", figures.plain), ("lost", figures.plain),
            ("won_bonus", figures.signed), ("lost_malus", figures.signed),
            ("others_lost", figures.plain), ("others_bonus", figures.signed),
            ("score", figures.num))})
    if "others_factor" in state:
        state["others_factor_shown"] = figures.plain(state["others_factor"])
    return state


def _figures_shown(row: dict[str, Any], figures: Figures) -> None:
    """A deal's figures as its row shows them (``*_shown``): its number, value, and per
    seat the score and the running total."""
    row["number_shown"] = figures.plain(row["number"])
    row["value_shown"] = figures.signed(row["value"])
    for cell in row.get("cells") or []:
        cell["score_shown"] = figures.signed(cell["score"])
        cell["running_shown"] = figures.num(cell["running"])
