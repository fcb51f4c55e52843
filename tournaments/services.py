"""Writers for tournaments (the only code that creates or changes them).

Each function takes keyword-only arguments and runs in one transaction.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max

from clubs.models import Club, Player
from clubs.services import unique_slug
from games.engines import get_engine
from tournaments.models import Participant, Tournament


@transaction.atomic
def tournament_create(*, name: str, game: str, rules: dict | None = None,
                      club: Club | None = None, date: datetime.date | None = None,
                      director=None, avoid_same_club: bool = False,
                      published: bool = False) -> Tournament:
    """Create a tournament; the game's engine validates the rules first
    (``EngineUserError`` on bad rules, nothing stored)."""
    engine = get_engine(game)
    engine.options(rules or {})
    tournament = Tournament.objects.create(
        name=name, slug=unique_slug(Tournament, name), game=game, rules=rules or {},
        club=club, date=date, avoid_same_club=avoid_same_club, published=published,
    )
    if director is not None:
        tournament.directors.add(director)
    return tournament


@transaction.atomic
def participant_add(*, tournament: Tournament, player: Player,
                    checked_in: bool = False) -> Participant:
    """Register a player with the next free start number."""
    # Lock the tournament row so two registrations never get the same start number.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    last = tournament.participants.aggregate(m=Max("start_number"))["m"] or 0
    return Participant.objects.create(tournament=tournament, player=player,
                                      start_number=last + 1, checked_in=checked_in)
