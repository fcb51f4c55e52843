"""Reading a player's statistics (games.md §11; api.md "Insight"): the stored rows of
``ratings.insight_store`` summed by ``ratings.insight.summarize``.

*Published results only* for the public, as the ratings (``ratings.selectors``): the
player himself (``/me/``) and those who may change him see every result. One query for
the rows — an index range on (player, game, key), the key starting with the date — and
none per row, whatever the length of the history.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from ratings.insight import SheetRow, summarize
from ratings.insight_models import SheetStat
from ratings.selectors import ratings_version


def player_stats(*, player_id: int, game: str, first: datetime.date | None = None,
                 last: datetime.date | None = None, everything: bool = False) -> dict[str, Any]:
    """The answer of ``/players/{id}/stats/`` over the sheets from ``first`` to ``last``
    (both included; None: open)."""
    rows = SheetStat.objects.filter(player_id=player_id, game=game)
    if first is not None:
        rows = rows.filter(key__gte=first.isoformat())
    if last is not None:
        rows = rows.filter(key__lt=(last + datetime.timedelta(days=1)).isoformat())
    if not everything:
        rows = rows.filter(tournament__published=True)
    found = list(rows.order_by("key").values_list(
        "date", "tournament_id", "score", "placement", "expected_placement", "deals",
        Cast("by_role", TextField()), Cast("by_kind", TextField())))
    # the counts as the database's text, parsed at once: one document for the whole
    # history instead of two per sheet (a thousand sheets' decoding was most of the time;
    # summing them in SQL, with jsonb_each, was slower still)
    counts = json.loads("[" + ",".join(f"{role},{kind}" for *_r, role, kind in found) + "]")
    return summarize(game, (SheetRow(*row[:6], counts[2 * n], counts[2 * n + 1])
                            for n, row in enumerate(found)))

def stats_games(*, player_id: int, everything: bool = False) -> list[str]:
    """The games in which the player has a (published) sheet, by key."""
    rows = SheetStat.objects.filter(player_id=player_id)
    if not everything:
        rows = rows.filter(tournament__published=True)
    return list(rows.order_by("game").values_list("game", flat=True).distinct())


def stats_version(game: str) -> str:
    """Changes whenever the stored statistics of ``game`` may have (its re-ratings and
    pending changes, publication included)."""
    return ratings_version(game)
