"""Creating tournaments and registering participants."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max

from clubs.models import Club, Player
from clubs.services import unique_slug
from games.engines import get_engine
from games.engines.base import _
from tournaments import standings_cache
from tournaments.errors import StateConflict
from tournaments.models import Participant, Tournament


@transaction.atomic
def tournament_create(*, name: str, game: str, rules: dict | None = None,
                      club: Club | None = None, date: datetime.date | None = None,
                      director=None, avoid_same_club: bool = False,
                      published: bool = False) -> Tournament:
    """Create a tournament; the game's engine validates the rules first
    (``EngineUserError`` naming ``rules.<option>``, nothing stored)."""
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
                    checked_in: bool = True) -> Participant:
    """Register a player with the next free start number (checked in: registering at
    the desk is the check-in; a director can undo it)."""
    # Lock the tournament row so two registrations never get the same start number.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    last = tournament.participants.aggregate(m=Max("start_number"))["m"] or 0
    return Participant.objects.create(tournament=tournament, player=player,
                                      start_number=last + 1, checked_in=checked_in)


@transaction.atomic
def participant_update(*, participant: Participant, **fields) -> Participant:
    """Check in, check out, withdraw or re-admit a participant between rounds."""
    for name, value in fields.items():
        setattr(participant, name, value)
    participant.save(update_fields=list(fields))
    return participant


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change a tournament; game and rules only before the first round is drawn."""
    if ("game" in fields or "rules" in fields) and tournament.rounds.exists():
        changed = (fields.get("game", tournament.game) != tournament.game
                   or fields.get("rules", tournament.rules) != tournament.rules)
        if changed:
            raise StateConflict(_("Game and rules cannot change once a round is drawn."))
    get_engine(fields.get("game", tournament.game)).options(fields.get("rules", tournament.rules))
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(fields) or None)
    standings_cache.invalidate(tournament.pk)  # publish/unpublish: pollers' snapshots go
    return tournament
