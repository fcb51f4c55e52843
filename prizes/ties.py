"""What the prize page says about players tied at prize places (games.md §6).

The rule book decides the money: tied players share the money of the places they occupy
in equal parts (a remainder cent to the lower start number), unless the director records
a lot, whose order then stands. It does not split a goods prize (*Sachpreis*): without a
lot, ``payout.payouts`` hands the goods of the tied places out in start-number order. So
a note names the tied players, the places they occupy, how the money was decided and,
where goods are at stake, who got which goods prize by start number only, so the
director can hold a lot (or let the players agree) and record its order.

Standard library only: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def tie_notes(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One note per tie at prize places, best first, from ``payout.payouts``' result:
    ``{"players": [payout rows in payout order], "first", "last" (positions the group
    occupies), "prize_places": [positions among them that carry a prize], "decided":
    "lot" | "shared", "goods": [{"position", "goods", "to"}] (the goods prizes of those
    positions and, without a lot, who got each by start number)}``."""
    places = result.get("places", [])
    notes = []
    for group in result.get("ties", []):
        members = set(group)
        rows = [row for row in result["payouts"] if row["participant"] in members]
        if not rows:
            continue
        first = min(row["place"] for row in rows)
        last = first + len(group) - 1
        covered = [p for p in range(first, last + 1) if p <= len(places)]
        by_position = {first + i: row for i, row in enumerate(rows)}
        goods = [{"position": p, "goods": places[p - 1]["goods"], "to": by_position.get(p)}
                 for p in covered if places[p - 1]["goods"]]
        notes.append({"players": rows, "first": first, "last": last,
                      "prize_places": covered,
                      "decided": "lot" if result.get("lot") == "applied" else "shared",
                      "goods": goods})
    return notes
