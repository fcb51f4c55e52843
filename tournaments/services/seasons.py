"""A club's season rankings: which evenings count, recomputing and storing them.

A *season* is one club's ranking of one game over one calendar year; its *evenings* are
the club's tournaments flagged ``club_evening`` in that game, dated in that year. The
ranking itself is pure (``tournaments.standings.season``) over the evenings' seats.

Staleness and recomputation follow the tournament standings: every change that can
move a season writes a ``SeasonOutbox`` row in the changing transaction and schedules a
recompute after the commit; the recompute takes the pending rows in. The change that
matters is an evening's standings being recomputed (``season_evening_changed``, called at
the end of ``standings_recompute``), so an evening's sheets reach its season through its
own standings. A season also reads as stale while one of its evenings has sheet changes
not yet in that evening's standings.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clubs.models import Club, Season, SeasonOutbox, SeasonRow
from games.engines import all_engines, get_engine
from games.engines.base import _, is_int, user_error
from tournaments.models import Seat, StandingsOutbox, Tournament
from tournaments.standings.season import season_ranking

MIN_YEAR, MAX_YEAR = 1900, 2999
MAX_EVENINGS = 366


def check_year(year: Any) -> int:
    if not is_int(year) or not MIN_YEAR <= year <= MAX_YEAR:
        raise user_error("year", _("The year must be a whole number from %(min)s to %(max)s."),
                         min=MIN_YEAR, max=MAX_YEAR)
    return year


def check_game(game: Any) -> str:
    if not isinstance(game, str) or game not in {e.key for e in all_engines()}:
        raise user_error("game", _("Unknown game “%(game)s”."), game=str(game)[:40])
    return game


def evenings_of(club_id: int, game: str, year: int):
    """The season's evenings (a queryset), oldest first."""
    return (Tournament.objects.filter(club_id=club_id, club_evening=True, game=game,
                                      date__year=year).order_by("date", "id"))


def season_find(*, club: Club, game: str, year: int) -> Season | None:
    return Season.objects.filter(club=club, game=game, year=year).first()


@transaction.atomic
def season_get_or_create(*, club: Club, game: str, year: int) -> Season:
    """The season, created with the club's ranking defaults when it is new."""
    check_game(game)
    check_year(year)
    season, _created = Season.objects.get_or_create(
        club=club, game=game, year=year,
        defaults={"best_n": club.season_best_n, "min_evenings": club.season_min_evenings})
    return season


def season_mark_stale(season: Season) -> None:
    """Note a change of the season and have it recomputed (inside the writing transaction)."""
    from tournaments.season_tasks import schedule_season

    SeasonOutbox.objects.create(season=season)
    transaction.on_commit(lambda: schedule_season(season.pk), robust=True)


def season_evening_changed(*, tournament: Tournament) -> None:
    """The hook called when a tournament's standings were recomputed: a club evening's
    season is marked stale and recomputed after the commit."""
    if (not tournament.club_evening or tournament.club_id is None or tournament.date is None
            or not MIN_YEAR <= tournament.date.year <= MAX_YEAR):
        return  # never fail the standings over a date no season can hold
    season = season_get_or_create(club=tournament.club, game=tournament.game,
                                  year=tournament.date.year)
    season_mark_stale(season)


def seasons_of_tournaments(tournament_ids) -> list[Season]:
    """Existing or new seasons that count any of these tournaments (club evenings only)."""
    keys = {(club_id, game, date.year) for club_id, game, date in Tournament.objects.filter(
        pk__in=list(tournament_ids), club_evening=True, club__isnull=False, date__isnull=False)
        .values_list("club_id", "game", "date") if MIN_YEAR <= date.year <= MAX_YEAR}
    clubs = Club.objects.in_bulk({club_id for club_id, _game, _year in keys})
    return [season_get_or_create(club=clubs[club_id], game=game, year=year)
            for club_id, game, year in sorted(keys)]


@transaction.atomic
def season_update(*, season: Season, best_n: int | None, min_evenings: int) -> Season:
    """Change how a season counts (best N evenings, attendance minimum) and recompute it."""
    if best_n is not None and (not is_int(best_n) or not 1 <= best_n <= MAX_EVENINGS):
        raise user_error("best_n", _("Must be empty or a whole number from 1 to %(max)s."),
                         max=MAX_EVENINGS)
    if not is_int(min_evenings) or not 0 <= min_evenings <= MAX_EVENINGS:
        raise user_error("min_evenings", _("Must be a whole number from 0 to %(max)s."),
                         max=MAX_EVENINGS)
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.best_n, season.min_evenings = best_n, min_evenings
    season.save(update_fields=["best_n", "min_evenings"])
    season_mark_stale(season)
    return season


def season_seat_rows(season: Season) -> list[dict[str, Any]]:
    """One plain row per seat played on the season's evenings."""
    seats = Seat.objects.filter(
        table__round__tournament__in=evenings_of(season.club_id, season.game, season.year))
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
                          best_n=season.best_n, min_evenings=season.min_evenings)


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
                   attended=row["attended"], counted=row["counted"], results=row["results"])
         for position, row in enumerate(rows, start=1)], batch_size=2000)
    SeasonOutbox.objects.filter(season=season, id__lte=upto).delete()
    season.evenings = evenings_of(season.club_id, season.game, season.year).count()
    season.computed_at = timezone.now()
    season.outbox_upto = upto
    season.recomputes += 1
    season.save()
    return season


def season_pending(season: Season | None, *, club_id: int, game: str, year: int) -> str:
    """A fingerprint of the changes not yet in the season ("" when none): its own outbox
    and its evenings' standings outboxes."""
    own = (SeasonOutbox.objects.filter(season=season).aggregate(m=Max("id"))["m"]
           if season is not None else None)
    evenings = (StandingsOutbox.objects.filter(
        tournament__club_id=club_id, tournament__club_evening=True, tournament__game=game,
        tournament__date__gte=datetime.date(year, 1, 1),
        tournament__date__lte=datetime.date(year, 12, 31)).aggregate(m=Max("id"))["m"])
    if own is None and evenings is None:
        return ""
    return f"{own or 0}.{evenings or 0}"


def seasons_with_pending_changes() -> list[int]:
    return list(SeasonOutbox.objects.values_list("season_id", flat=True).distinct())
