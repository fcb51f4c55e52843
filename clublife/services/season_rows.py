"""A season's stored ranking: computing it from the evenings' seats and writing its rows.

Called by the thin task ``clublife.tasks.recompute_season``; idempotent.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clublife.models import Season, SeasonOutbox, SeasonRow
from clublife.season_ranking import season_ranking
from clublife.selectors import ranked_evenings_of
from games.engines import get_engine
from tournaments.models import Seat


def season_seat_rows(season: Season) -> list[dict[str, Any]]:
    """One plain row per seat played on the season's evenings."""
    seats = Seat.objects.filter(
        table__round__tournament__in=ranked_evenings_of(season.club_id, season.game, season.year))
    return [
        {"player": player, "evening": evening, "date": date.isoformat(), "score": score,
         **figures}
        for player, evening, date, score, figures in seats.values_list(
            "participant__player_id", "table__round__tournament_id",
            "table__round__tournament__date", "score", "figures")
    ]


def compute_season(season: Season) -> list[dict[str, Any]]:
    engine = get_engine(season.game)
    return season_ranking(season_seat_rows(season), engine.figures, engine.rank_key,
                          best_n=season.best_n, min_evenings=season.min_evenings,
                          ranked_by=season.ranked_by)


@transaction.atomic
def season_recompute(*, season_id: int) -> Season:
    """Recompute and store a season's ranking; idempotent, safe to run twice (the season
    row is locked for the run, the stored rows are replaced in one transaction)."""
    season = Season.objects.select_for_update().get(pk=season_id)
    upto = (SeasonOutbox.objects.filter(season=season).aggregate(m=Max("id"))["m"]
            or season.outbox_upto)
    figures = get_engine(season.game).figures
    rows = compute_season(season)
    SeasonRow.objects.filter(season=season).delete()
    SeasonRow.objects.bulk_create(
        [SeasonRow(season=season, player_id=row["player"], position=position, rank=row["rank"],
                   score=row["score"], figures={name: row[name] for name in figures},
                   attended=row["attended"], counted=row["counted"], rounds=row["rounds"],
                   results=row["results"])
         for position, row in enumerate(rows, start=1)], batch_size=2000)
    SeasonOutbox.objects.filter(season=season, id__lte=upto).delete()
    season.evenings = ranked_evenings_of(season.club_id, season.game, season.year).count()
    season.computed_at = timezone.now()
    season.outbox_upto = upto
    season.recomputes += 1
    season.save()
    return season
