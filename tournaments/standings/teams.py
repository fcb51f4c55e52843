"""Team standings (*Mannschaftswertung*; a *Tandem* is a team of two) from player rows.

Rules (games.md §6):

- A team's ``score`` is the sum of its members' standing figure ``score``; the game's
  other figures (``won``, ``lost``, …) are summed alongside.
- Ranking: highest sum first; for a game whose standings run lowest first
  (``standing_order == "asc"``, La Bâtarde) the lowest sum first. A game may break ties by
  its figures (``tie_break``, the engine's ``team_tie_break``): Skat's ``("won", "lost")``
  is more won games of the members together, then fewer lost ones; every other game
  leaves equal sums at equal rank ("1, 2, 2, 4"). Equal teams are listed by team id.
- A member who withdrew keeps the figures of the rounds played: his standing row is
  summed like any other (and he is marked ``withdrawn``). A member without a standing
  row (no round played yet) counts 0.
- A team with fewer members than ``team_size`` is ranked with the members it has and
  marked ``complete: False`` (with ``missing``, the number of empty places), so a
  director sees at a glance why its sum is low (or, lowest-first, suspiciously good).
  A team with more members than ``team_size``, or a participant in two teams, is a bug
  of the caller (the write path refuses both) and raises ``ValueError``.

Inputs are plain data: the teams as the teams API answers them (``{"id", "name",
"members": [{"participant", "name"}]}``) and the overall standing rows of the players
(``{"participant", "score", <figures>, "rank"?, "withdrawn"?}``). Standard library
only: no Django, no engines (the caller passes ``tie_break``, ``standing_order`` and
``figures`` from the game's engine).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tournaments.standings.ranking import rank

Row = dict[str, Any]

# the tournament option ``team_size``: default 4, a tandem is 2; the option's bounds
TEAM_SIZE_DEFAULT = 4
TEAM_SIZE_MIN = 2
TEAM_SIZE_MAX = 8

# the one tie-break of team sums a game may ask for (games.md §6): the members' won games
# together, more first, then their lost games, fewer first
WON_LOST = ("won", "lost")


def team_rank_key(tie_break: tuple[str, ...], standing_order: str) -> Callable[[Row], tuple]:
    """The sort key of a team row: ascending order is best first. ``tie_break`` is
    ``()`` (equal sums rank equal) or ``("won", "lost")``."""
    sign = 1 if standing_order == "asc" else -1
    if tuple(tie_break) == WON_LOST:
        return lambda row: (sign * row["score"], -row["won"], row["lost"])
    if tie_break:
        raise ValueError(f"unknown team tie-break {tie_break!r}")
    return lambda row: (sign * row["score"],)


def _member_order(member: Row) -> tuple:
    rank_ = member.get("rank")
    return (rank_ is None, rank_ if rank_ is not None else 0, member["participant"])


def team_standings(teams: Iterable[Mapping[str, Any]], rows: Iterable[Mapping[str, Any]], *,
                   tie_break: tuple[str, ...] = (), standing_order: str, team_size: int,
                   figures: Iterable[str] = ()) -> list[Row]:
    """Ranked team rows, best first.

    Each row: ``{"rank", "team", "name", "score", <figures>, "complete", "missing",
    "members": [{"participant", "name", "score", "rank", "withdrawn"}]}``; members in
    the order of their own standing (members without a standing row last).
    ``figures`` are the game's figures besides ``score`` (the engine's ``figures``);
    A ``("won", "lost")`` tie-break needs ``won`` and ``lost`` among them.
    """
    figures = tuple(figures)
    if not set(tie_break) <= set(figures):
        raise ValueError("the team tie-break needs its figures: " + ", ".join(tie_break))
    names = ("score", *figures)
    by_participant = {row["participant"]: row for row in rows}
    seen: dict[Any, Any] = {}
    out: list[Row] = []
    for team in teams:
        members = list(team["members"])
        if len(members) > team_size:
            raise ValueError(
                f"team {team['id']} has {len(members)} members, team_size is {team_size}")
        total: Row = {"team": team["id"], "name": team["name"], **{n: 0 for n in names}}
        shown: list[Row] = []
        for member in members:
            pid = member["participant"]
            if pid in seen:
                raise ValueError(f"participant {pid} is in teams {seen[pid]} and {team['id']}")
            seen[pid] = team["id"]
            row = by_participant.get(pid, {})
            for n in names:
                total[n] += row.get(n, 0)
            shown.append({"participant": pid, "name": member.get("name", ""),
                          "score": row.get("score", 0), "rank": row.get("rank"),
                          "withdrawn": bool(row.get("withdrawn", False))})
        total["members"] = sorted(shown, key=_member_order)
        total["complete"] = len(members) == team_size
        total["missing"] = team_size - len(members)
        out.append(total)
    return rank(out, team_rank_key(tie_break, standing_order), ident="team")

