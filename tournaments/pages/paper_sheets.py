"""Blank paper sheets per game, laid out like the lists clubs use, for a table whose
tablet fails: per deal the number, the dealer (known in advance), the game's own columns
and a running total per player; for Skat the Seeger-Fabian rows at the foot; with the
table's seats, round and the QR code of its tablet sheet."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines import DealContext, get_engine
from games.engines.skat import opponent_bonus

# The game's own columns between the dealer and the players' running totals.
GAME_COLUMNS = {
    "skat": [_("Declarer"), _("Game"), _("Value")],
    "schafkopf": [_("Declarer"), _("Game"), _("Points"), _("Value")],
    "baptistenskat": [_("Cards"), _("Trump"), _("Bids"), _("Tricks")],
    "labatarde": [_("Cards"), _("Trump"), _("Bids"), _("Tricks")],
    "basler": [_("Tricks A : B"), _("Last trick"), _("Card points A : B"), _("Sets")],
}


def paper_sheet(state: dict[str, Any]) -> dict[str, Any]:
    """One table's blank sheet: its rows (number, dealer, cards where the game deals a
    varying number) and the foot rows of its game."""
    game = state["game"]
    engine = get_engine(game)
    players = len(state["seats"])
    names = {s["seat"]: s["name"] for s in state["seats"]}
    rows = []
    for number in range(1, state["sheet_length"] + 1):
        hints = engine.deal_hints(DealContext(number, players, state["rules"]))
        rows.append({"number": number, "dealer": names.get(hints["dealer"], ""),
                     "cards": hints.get("cards")})
    foot: list[Any] = [_("Total")]
    if game == "skat" and state["rules"].get("scoring") == "seeger_fabian":
        factor = opponent_bonus(players)
        foot = [_("Game points"), _("Games won"), _("Games lost"), _("+50 per game won"),
                _("−50 per game lost"),
                _("Others' lost games × %(f)s") % {"f": factor}, _("Score (Seeger-Fabian)")]
    elif game == "labatarde":
        foot = [_("Penalty points — fewer is better")]
    columns = GAME_COLUMNS[game]
    return {"state": state, "rows": rows, "columns": columns, "foot": foot,
            "span": 2 + len(columns)}
