"""The door desk (walk-in mode, issue 56): a name typed by the director checks its player
in — the tournament's participant of that name, else a member of the club or a guest
who played its tournaments before (``player_for_name``), else a new guest — in one
transaction, never twice."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clubs.models import Player
from clubs.names import clean_name, name_key
from games.errors import user_error
from signup.services.registrations import NAME_MAX
from tournaments.errors import StateConflict
from tournaments.models import Participant, RegistrationStatus, Tournament
from tournaments.services.entries import participant_add, participant_update, player_for_name
from tournaments.services.lifecycle import lock_open_tournament

SUGGESTIONS_MAX = 1000


@transaction.atomic
def door_check_in(*, tournament_id: int, name: str, by=None) -> tuple[Participant, bool]:
    """Check the named player in: ``(participant, added)``, ``added`` when they were not
    registered yet. A second check-in of the same name is harmless. ``UserError`` on
    ``name`` for a blank or overlong name; ``StateConflict`` for one on the waiting
    list or cancelled, and once the tournament is finished."""
    cleaned = clean_name(name) if isinstance(name, str) else ""
    if not cleaned:
        raise user_error("name", _("The name must not be blank."))
    if len(cleaned) > NAME_MAX:
        raise user_error("name", _("At most %(max)s characters."), max=NAME_MAX)
    tournament = lock_open_tournament(tournament_id)
    key = name_key(cleaned)
    for participant in (tournament.participants.select_related("player")
                        .order_by("start_number")):
        if name_key(participant.player.name) == key:
            if participant.status != RegistrationStatus.REGISTERED:
                raise StateConflict(_("%(name)s has no place (waiting list or cancelled)."),
                                    name=participant.player.name)
            if not participant.checked_in:
                participant = participant_update(participant=participant, checked_in=True)
            return participant, False
    player = player_for_name(tournament=tournament, name=cleaned, by=by)
    return participant_add(tournament=tournament, player=player, checked_in=True), True


def door_suggestions(tournament: Tournament) -> list[str]:
    """The names the desk suggests: the club's members and the guests who played its
    tournaments before, and everyone registered for this one (three queries)."""
    names = set(tournament.participants.values_list("player__name", flat=True))
    if tournament.club_id is not None:
        names.update(Player.objects.filter(club_id=tournament.club_id, erased_at=None)
                     .values_list("name", flat=True)[:SUGGESTIONS_MAX])
        names.update(Player.objects.filter(
            club=None, erased_at=None, participations__tournament__club_id=tournament.club_id)
            .values_list("name", flat=True).distinct()[:SUGGESTIONS_MAX])
    return sorted(names, key=name_key)[:SUGGESTIONS_MAX]
