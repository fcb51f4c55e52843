"""A ranking list (*Rangliste*, games.md §10.2) from placements, as plain data (no Django).

Terms:

- An *event* is one counted tournament: ``{"tournament", "date", "places": {player:
  place}}``, where ``place`` is the player's rank in its final standings (tied players
  share the best place they occupy: "1, 2, 2, 4") and the field ``N`` is the number of
  players placed.
- *Placement points*: with ``points == "field"`` place p of N gets N − p + 1; with a
  list, place p gets its p-th number and places beyond the list 0. Tied players each get
  the points of the best place they share — which is their shared rank.
- A player's *counted* events are the ``best_n`` events with the most points (all when
  ``best_n`` is None); among equal points the better place, then the earlier event
  counts first, so the choice is deterministic.
- *Order*: the sum of the counted points (more first), then more counted events, then
  the better best placement among the counted events, then equal rank (listed by
  player id). Players with fewer than ``min_events`` events are listed after the ranked
  ones, by the same order, with ``rank`` None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Points = str | Sequence[int]


def place_points(place: int, field: int, points: Points) -> int:
    """The points of ``place`` (1 = first) among ``field`` players placed."""
    if points == "field":
        return max(field - place + 1, 0)
    return points[place - 1] if 1 <= place <= len(points) else 0


def _event_key(entry: Mapping[str, Any]) -> tuple:
    return (-entry["points"], entry["place"], entry["order"])


def ranking_list(events: Iterable[Mapping[str, Any]], *, points: Points = "field",
                 best_n: int | None = None, min_events: int = 1) -> list[dict[str, Any]]:
    """The list's rows, best first: ``{"rank", "player", "points", "events": [{"tournament",
    "place", "points", "counted"}]}`` with each player's events in the order given
    (``events`` in date order); ``rank`` None for the unranked (too few events)."""
    per_player: dict[Any, list[dict[str, Any]]] = {}
    for order, event in enumerate(events):
        places = event["places"]
        field = len(places)
        for player, place in places.items():
            per_player.setdefault(player, []).append({
                "tournament": event["tournament"], "place": place,
                "points": place_points(place, field, points), "order": order})
    rows = []
    for player, entries in per_player.items():
        chosen = sorted(entries, key=_event_key)
        counted = chosen if best_n is None else chosen[:best_n]
        counted_orders = {e["order"] for e in counted}
        total = sum(e["points"] for e in counted)
        best_place = min((e["place"] for e in counted), default=0)
        rows.append({
            "player": player, "points": total,
            "qualified": len(entries) >= min_events,
            "key": (-total, -len(counted), best_place),
            "events": [{"tournament": e["tournament"], "place": e["place"],
                        "points": e["points"], "counted": e["order"] in counted_orders}
                       for e in entries],
        })
    rows.sort(key=lambda r: (not r["qualified"], r["key"], r["player"]))
    out: list[dict[str, Any]] = []
    previous, current = None, 0
    for position, row in enumerate(rows, start=1):
        if row["qualified"] and row["key"] != previous:
            previous, current = row["key"], position
        out.append({"rank": current if row["qualified"] else None, "player": row["player"],
                    "points": row["points"], "events": row["events"]})
    return out
