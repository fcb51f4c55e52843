"""Summing rows over rounds and ranking them with a game's tie-break key."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

Row = dict[str, Any]


def aggregate(rows: Iterable[Row], figures: Iterable[str]) -> list[Row]:
    """Sum ``score`` and each figure per participant, keeping each round's score.

    The result has one row per participant: ``{"participant", "score", <figures>,
    "rounds": [{"round", "score"}, ...]}`` with rounds in ascending order.
    """
    names = ("score", *figures)
    out: dict[Any, Row] = {}
    for row in rows:
        pid = row["participant"]
        total = out.get(pid)
        played = [{"round": row["round"], "score": row["score"]}] if "round" in row else []
        if total is None:  # a participant's first row starts the sums (0 + x, as below)
            out[pid] = {"participant": pid, **{name: 0 + row.get(name, 0) for name in names},
                        "rounds": played}
            continue
        for name in names:
            total[name] += row.get(name, 0)
        total["rounds"] += played
    by_round = itemgetter("round")
    for total in out.values():
        if len(total["rounds"]) > 1:
            total["rounds"].sort(key=by_round)
    return list(out.values())


def rank(rows: Iterable[Row], key: Callable[[Row], tuple], *,
         ident: str = "participant") -> list[Row]:
    """Rows sorted best first, each with ``rank``; equal keys share the rank.

    Rows with equal keys are listed by their ``ident`` field (the participant id, or a
    team's id for team standings) so the order is stable.
    """
    keyed = sorted(((key(r), r[ident], r) for r in rows), key=lambda t: t[:2])
    ranked: list[Row] = []
    previous, current_rank = None, 0
    for position, (k, _ident, row) in enumerate(keyed, start=1):
        if k != previous:
            current_rank, previous = position, k
        ranked.append({**row, "rank": current_rank})
    return ranked
