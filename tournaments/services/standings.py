"""A tournament's standings computed from its seats' sheet totals.

Each seat holds its sheet's standing figure (``score``) and the game's other figures;
standings sum them per participant over rounds and rank with the game's tie-break.
"""

from __future__ import annotations

from typing import Any

from games.engines import get_engine
from tournaments.models import Seat, Tournament
from tournaments.standings import aggregate, rank


def seat_rows(tournament: Tournament, *, round_number: int | None = None) -> list[dict[str, Any]]:
    """One plain row per seat played: participant, round, score and figures."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if round_number is not None:
        seats = seats.filter(table__round__number=round_number)
    return [
        {"participant": pid, "round": number, "score": score, **figures}
        for pid, number, score, figures in seats.values_list(
            "participant_id", "table__round__number", "score", "figures")
    ]


def compute_standings(tournament: Tournament, *,
                      round_number: int | None = None) -> list[dict[str, Any]]:
    """Ranked rows ``{"rank", "participant", "score", <figures>, "rounds"}``."""
    engine = get_engine(tournament.game)
    rows = aggregate(seat_rows(tournament, round_number=round_number), engine.figures)
    return rank(rows, engine.rank_key)
