"""Writing ranking lists (games.md §10.2): the only writer of ``RankingList``."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clubs.models import Club
from games.errors import Errors
from ratings.list_models import MAX_POINT_VALUE, MAX_POINTS, RankingList


def check_points(value: Any, errors: Errors) -> Any:
    """``"field"`` or a list of at most ``MAX_POINTS`` whole numbers 0..``MAX_POINT_VALUE``
    (place 1 first); else an error on ``points``."""
    if value == "field":
        return value
    if (not isinstance(value, list) or len(value) > MAX_POINTS
            or not all(isinstance(v, int) and not isinstance(v, bool)
                       and 0 <= v <= MAX_POINT_VALUE for v in value)):
        errors.add("points", _('Give "field" or a list of at most %(max)s whole numbers '
                               'from 0 to %(high)s (the points of place 1, 2, …).'),
                   max=MAX_POINTS, high=MAX_POINT_VALUE)
    return value


@transaction.atomic
def ranking_list_create(*, club: Club, name: str, game: str, first: datetime.date,
                        last: datetime.date, clubs: list[int] | None = None,
                        best_n: int | None = None, min_events: int = 1,
                        points: Any = "field", user=None) -> RankingList:
    """A club's new ranking list. ``clubs`` (ids) are the clubs whose tournaments count,
    the club itself when none are given. ``UserError`` naming every offending field
    (``last`` before ``first``, an unknown club, a bad points table); nothing stored."""
    errors = Errors()
    if first > last:
        errors.add("last", _("The last day must not be before the first."))
    check_points(points, errors)
    ids = list(dict.fromkeys(clubs or [club.pk]))
    found = set(Club.objects.filter(pk__in=ids).values_list("pk", flat=True))
    missing = [i for i in ids if i not in found]
    if missing:
        errors.add("clubs", _("Unknown club: %(ids)s."),
                   ids=", ".join(str(i) for i in missing[:10]))
    errors.raise_if_any()
    ranking = RankingList.objects.create(
        club=club, name=name, game=game, first=first, last=last, best_n=best_n,
        min_events=min_events, points=points, created_by=user)
    ranking.clubs.set(ids)
    return ranking


@transaction.atomic
def ranking_list_delete(*, ranking: RankingList) -> None:
    ranking.delete()
