"""Reading ratings: leaderboards, a player's ratings and history, pending work."""

from __future__ import annotations

from ratings.models import RatingOutbox


def games_with_pending_changes() -> list[str]:
    return list(RatingOutbox.objects.order_by("game").values_list("game", flat=True).distinct())
