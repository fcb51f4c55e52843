"""A club's season ranking (*Jahreswertung*) as pure functions over plain rows.

Terms:

- *evening*: one club evening of the season (a tournament of any number of rounds),
  identified by an id and dated by an ISO date string (``"2026-03-05"``).
- *seat row*: one seat a player held on an evening — ``{"player", "evening", "date",
  "score", ...game figures}`` as the game's engine totals a sheet.
- *evening result*: a player's sums over all his seats of one evening.
- *attended*: the number of evenings a player holds a seat in.
- *best N of M*: with ``best_n`` set, only a player's ``best_n`` best evening results
  count (best by the game's ``rank_key``; of equal ones the earlier evening); otherwise
  every evening counts.
- *minimum attendance*: a player who attended fewer than ``min_evenings`` evenings is
  listed after the ranked players, without a rank.

- *rounds*: the seats a player held (one per round he played); *average per round*
  (*Rundenschnitt*): his counted score divided by his counted rounds.
- *ranked by*: ``"sum"`` (the default: the counted score) or ``"average"`` (the average
  per round, as the DDV's Doppelkopf ranking list does; games.md §8.8).

The season's figures are the sums of the counted evening results; they are ranked with
the game's ``rank_key`` (ascending order is best first, equal keys share a rank), applied
to the average in place of the score when ranked by the average.
Standard library only: no Django, no engines (the caller passes ``rank_key``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Row = dict[str, Any]
RankKey = Callable[[Row], tuple]


def evening_results(rows: Iterable[Row], figures: Iterable[str]) -> list[Row]:
    """Sum seat rows per (player, evening): ``{"player", "evening", "date", "rounds",
    "score", <figures>}``, in order of player, date and evening."""
    names = ("score", *figures)
    out: dict[tuple[Any, Any], Row] = {}
    for row in rows:
        key = (row["player"], row["evening"])
        total = out.get(key)
        if total is None:
            total = out[key] = {"player": row["player"], "evening": row["evening"],
                                "date": row.get("date") or "", "rounds": 0,
                                **{name: 0 for name in names}}
        for name in names:
            total[name] += row.get(name, 0)
        total["rounds"] += 1
    return sorted(out.values(), key=lambda r: (r["player"], r["date"], r["evening"]))


def _counted(results: list[Row], rank_key: RankKey, best_n: int | None) -> set[Any]:
    """The evenings of one player that count towards his season figures."""
    if best_n is None or len(results) <= best_n:
        return {r["evening"] for r in results}
    best = sorted(results, key=lambda r: (rank_key(r), r["date"], r["evening"]))[:best_n]
    return {r["evening"] for r in best}


def _ranked(rows: list[Row], rank_key: RankKey) -> list[Row]:
    ordered = sorted(rows, key=lambda r: (rank_key(r), r["player"]))
    out: list[Row] = []
    previous: tuple | None = None
    for position, row in enumerate(ordered, start=1):
        key = rank_key(row)
        rank = out[-1]["rank"] if out and key == previous else position
        out.append({**row, "rank": rank})
        previous = key
    return out


RANKED_BY = ("sum", "average")


def average_per_round(score: int, rounds: int) -> float:
    """The score per round, to two decimals (0 without a round)."""
    return round(score / rounds, 2) if rounds else 0.0


def season_ranking(rows: Iterable[Row], figures: Iterable[str], rank_key: RankKey, *,
                   best_n: int | None = None, min_evenings: int = 0,
                   ranked_by: str = "sum") -> list[Row]:
    """The season's rows, ranked players first, then those below the attendance minimum.

    Each row: ``{"player", "rank" (None when not ranked), "qualified", "score",
    <figures>, "rounds", "average", "attended", "counted", "results": [{"evening",
    "date", "score", "counted"}, ...]}`` with ``results`` in date order; ``ranked_by``
    one of ``RANKED_BY``.
    """
    if best_n is not None and best_n < 1:
        raise ValueError("best_n must be at least 1")
    if ranked_by not in RANKED_BY:
        raise ValueError(f"ranked_by must be one of {RANKED_BY}")
    final_key = rank_key
    if ranked_by == "average":
        def final_key(row: Row) -> tuple:
            return rank_key({**row, "score": row["average"]})
    figures = tuple(figures)
    names = ("score", *figures)
    by_player: dict[Any, list[Row]] = {}
    for result in evening_results(rows, figures):
        by_player.setdefault(result["player"], []).append(result)
    season: list[Row] = []
    for player, results in by_player.items():
        counted = _counted(results, rank_key, best_n)
        total: Row = {"player": player, "rounds": 0, **{name: 0 for name in names}}
        for result in results:
            if result["evening"] in counted:
                for name in (*names, "rounds"):
                    total[name] += result[name]
        total["average"] = average_per_round(total["score"], total["rounds"])
        total.update(
            qualified=len(results) >= min_evenings, attended=len(results),
            counted=len(counted),
            results=[{"evening": r["evening"], "date": r["date"], "score": r["score"],
                      "counted": r["evening"] in counted} for r in results])
        season.append(total)
    ranked = _ranked([r for r in season if r["qualified"]], final_key)
    unranked = sorted((r for r in season if not r["qualified"]),
                      key=lambda r: (final_key(r), r["player"]))
    return ranked + [{**r, "rank": None} for r in unranked]
