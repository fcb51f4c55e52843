"""Club ranking (*Vereinswertung*, games.md §10.4) from player rows, as plain data.

- With the tournament's ``k`` (1..10), every club with at least ``k`` players in the
  standings is ranked by the sum of ``score`` of its best ``k`` players — best by the
  players' own ranks, i.e. the game's order: highest first, La Bâtarde
  (``standing_order == "asc"``) lowest first; the club's sum is then ranked the same way.
- Tie-break: Skat's ``("won", "lost")`` (the engine's ``team_tie_break``) is more won
  games of those ``k`` together, then fewer lost; every other game leaves equal sums at
  equal rank ("1, 2, 2, 4"; listed by club id).
- Clubs with fewer than ``k`` players are listed after, unranked (``rank`` None), with
  the sum of the players they have, by the same order. Players without a club count for
  none.

A player's club is the caller's decision (the participant's club at registration).
Inputs: ``rows`` ranked standing rows (``{"participant", "name", "score", <figures>,
"rank"}``), ``clubs``: participant → club id (None: no club), ``names``: club id → name.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tournaments.standings.teams import team_rank_key

Row = dict[str, Any]


def club_standings(rows: Iterable[Mapping[str, Any]], clubs: Mapping[Any, Any],
                   names: Mapping[Any, str], *, k: int, standing_order: str,
                   tie_break: tuple[str, ...] = ()) -> list[Row]:
    """Ranked club rows, best first: ``{"rank", "club", "name", "score", <tie-break
    figures>, "players": [{"participant", "name", "score"}]}``; ``players`` are the
    counted ones (all of them for an unranked club), best first."""
    if k < 1:
        raise ValueError("k must be at least 1")
    members: dict[Any, list[Mapping[str, Any]]] = {}
    ordered = sorted(rows, key=lambda r: (r["rank"], r["participant"]))
    for row in ordered:
        club = clubs.get(row["participant"])
        if club is not None:
            members.setdefault(club, []).append(row)
    key = team_rank_key(tie_break, standing_order)
    ranked: list[Row] = []
    unranked: list[Row] = []
    for club, players in members.items():
        counted = players[:k]
        total: Row = {"club": club, "name": names.get(club, ""),
                      "score": sum(p["score"] for p in counted)}
        for figure in tie_break:
            total[figure] = sum(p.get(figure, 0) for p in counted)
        total["players"] = [{"participant": p["participant"], "name": p.get("name", ""),
                             "score": p["score"]} for p in counted]
        (ranked if len(players) >= k else unranked).append(total)
    out: list[Row] = []
    previous, current = None, 0
    for position, row in enumerate(sorted(ranked, key=lambda r: (key(r), r["club"])), 1):
        if key(row) != previous:
            previous, current = key(row), position
        out.append({"rank": current, **row})
    out += [{"rank": None, **row} for row in sorted(unranked, key=lambda r: (key(r), r["club"]))]
    return out
