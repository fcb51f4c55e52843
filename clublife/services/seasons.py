"""A club's season rankings: creating seasons, changing how they count, marking them stale.

A *season* is one club's ranking of one game over one calendar year; its *evenings* are
the club's tournaments flagged ``club_evening`` in that game, dated in that year. The
ranking itself is pure (``clublife.season_ranking``) over the evenings' seats; storing it
is ``clublife.services.season_rows``'s, reading it ``clublife.selectors``'.

Staleness and recomputation follow the tournament standings: every change that can
move a season writes a ``SeasonOutbox`` row in the changing transaction and schedules a
recompute after the commit; the recompute takes the pending rows in. The change that
matters is an evening's standings being recomputed (``season_evening_changed``, connected
in ``clublife.apps`` to the ``standings_recomputed`` signal that ``standings_recompute``
sends), so an evening's sheets reach its season through its
own standings. A season also reads as stale while one of its evenings has sheet changes
not yet in that evening's standings.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clublife.models import Season, SeasonOutbox
from clublife.season_ranking import RANKED_BY
from clublife.tasks import schedule_season
from clubs.models import Club
from games.choices import check_game
from games.engines.base import is_int
from games.errors import user_error
from tournaments.models import Tournament

MIN_YEAR, MAX_YEAR = 1900, 2999
MAX_EVENINGS = 366


def check_year(year: Any) -> int:
    if not is_int(year) or not MIN_YEAR <= year <= MAX_YEAR:
        raise user_error("year", _("The year must be a whole number from %(min)s to %(max)s."),
                         min=MIN_YEAR, max=MAX_YEAR)
    return year


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
def season_update(*, season: Season, best_n: int | None, min_evenings: int,
                  ranked_by: str | None = None) -> Season:
    """Change how a season counts (best N evenings, attendance minimum, ranked by the sum or
    the average per round; ``ranked_by`` None keeps the season's) and recompute it."""
    if best_n is not None and (not is_int(best_n) or not 1 <= best_n <= MAX_EVENINGS):
        raise user_error("best_n", _("Must be empty or a whole number from 1 to %(max)s."),
                         max=MAX_EVENINGS)
    if not is_int(min_evenings) or not 0 <= min_evenings <= MAX_EVENINGS:
        raise user_error("min_evenings", _("Must be a whole number from 0 to %(max)s."),
                         max=MAX_EVENINGS)
    if ranked_by is not None and ranked_by not in RANKED_BY:
        raise user_error("ranked_by", _("Ranked by: choose the sum of the points (\"sum\") "
                                        "or the average per round (\"average\")."))
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.best_n, season.min_evenings = best_n, min_evenings
    if ranked_by is not None:
        season.ranked_by = ranked_by
    season.save(update_fields=["best_n", "min_evenings", "ranked_by"])
    season_mark_stale(season)
    return season
