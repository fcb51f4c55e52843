"""Open event documents written directly, no database: a finished Skat tournament of a
chosen size with every sheet full (36 declared games at tables of three). Used by the
import tests and by ``bench.bench_bodies`` (the largest document under the body bound).
"""

from __future__ import annotations

import json
from typing import Any

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand")
AT = "2026-12-06T12:00:00Z"


def _deal(number: int) -> dict[str, Any]:
    return {"number": number, "declarer": 1 + number % 3, "game": GAMES[number % 5],
            "won": number % 3 != 0, "matadors": 1 + number % 3}


def _table(number: int, seated: list[int]) -> dict[str, Any]:
    return {"number": number, "submitted": True, "submitted_at": AT,
            "seats": [{"seat": i + 1, "participant": p} for i, p in enumerate(seated)],
            "deals": [_deal(n) for n in range(1, 37)], "history_head": ""}


def skat_event(*, players: int, rounds: int) -> dict[str, Any]:
    """``players`` (a multiple of three) at ``players // 3`` tables in each of ``rounds``
    rounds, seated anew each round."""
    tables = players // 3
    return {
        "format": "stichliste-event", "version": 1,
        "tournament": {"name": "Großes Turnier", "slug": "gross", "game": "skat", "rules": {},
                       "date": "2026-12-06", "status": "finished", "published": True,
                       "avoid_same_club": False, "club_evening": False,
                       "loss_fee_cents": None, "loss_fee_from": None,
                       "loss_fee_high_cents": None, "club": None, "created_at": AT},
        "clubs": [],
        "participants": [{"start_number": n, "checked_in": True, "withdrawn": False,
                          "player": {"name": f"Spieler {n}", "member_number": "",
                                     "club": None}} for n in range(1, players + 1)],
        "rounds": [{"number": r, "method": "random", "seed": r, "closed": True,
                    "created_at": AT,
                    # seat i of table t: one of the i-th third of the players, shifted
                    # by the round, so nobody sits twice in a round
                    "tables": [_table(t + 1, [1 + i * tables + (t + r * i) % tables
                                              for i in range(3)]) for t in range(tables)]}
                   for r in range(1, rounds + 1)],
        "standings": []}


def encoded(document: dict[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()


def largest_skat_event(size: int, rounds: int = 3) -> bytes:
    """The largest ``skat_event`` of ``rounds`` rounds whose body has at most ``size``
    bytes."""
    def body(players: int) -> bytes:
        return encoded(skat_event(players=players, rounds=rounds))

    small, large = len(body(30)), len(body(60))
    players = 30 + 30 * (size - small) // (large - small) // 3 * 3
    while len(out := body(players)) > size:
        players -= 3
    return out
