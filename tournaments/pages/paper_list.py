"""The sheet as a paper list reads: per deal the dealer, the declarer, the game in words
and its value; for Skat the Seeger-Fabian rows at the foot; for La Bâtarde the note that
fewer penalty points are better."""

from __future__ import annotations

from typing import Any

from games.engines import DealContext, get_engine
from games.engines.skat import opponent_bonus, seeger_fabian_lines
from games.engines.words import declarer_of
from games.words import deal_in_words


def paper_list(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` (a table state with its deals) with the paper list's words added."""
    game = state["game"]
    engine = get_engine(game)
    names = {s["seat"]: s["name"] for s in state["seats"]}
    players = len(state["seats"])
    for row in state.get("deals") or []:
        record = row["record"]
        hints = engine.deal_hints(DealContext(row["number"], players, state["rules"]))
        declarer = declarer_of(record)
        row["dealer_name"] = names.get(hints["dealer"], "")
        row["declarer_name"] = names.get(declarer, "") if declarer else ""
        row["words"] = deal_in_words(game, record)
        row["value"] = row["scores"][declarer - 1] if declarer else None
        row["passed"] = bool(record.get("passed")) or record.get("game") == "passed"
    seeger_fabian = (game == "skat" and state["rules"].get("scoring") == "seeger_fabian"
                     and all("lost" in t for t in state["totals"]))
    state["seeger_fabian"] = (seeger_fabian_lines(state["totals"], players)
                              if seeger_fabian else None)
    state["others_factor"] = opponent_bonus(players) if game == "skat" else None
    state["fewer_is_better"] = game == "labatarde"
    return state
