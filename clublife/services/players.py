"""Merging a duplicate player into the one kept (his history is ``clublife.selectors``').

A *merge* moves every participation of the duplicate (``remove``) to the player kept,
takes over the duplicate's membership when the kept player has none, deletes the
duplicate and records it all in a ``PlayerMerge``. It is refused when both played the
same tournament (a tournament has one entry per player) or when they are members of
different clubs, or of one club under different member numbers (then they are likely
two people).
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext_noop as _

from clublife.models import PlayerMerge
from clublife.services.seasons import season_mark_stale, seasons_of_tournaments
from clubs.models import Player
from clubs.names import clean_name
from clubs.uniques import unique_errors
from games.errors import user_error
from tournaments.errors import StateConflict
from tournaments.models import Participant
from tournaments.policies import visible_tournaments
from tournaments.recompute.outbox import sheet_changed


def _check_mergeable(keep: Player, remove: Player, by) -> None:
    if keep.pk == remove.pk:
        raise user_error("remove", _("A player cannot be merged with himself."))
    shared = Participant.objects.filter(player=remove, tournament__participants__player=keep)
    if shared.exists():
        # named only where the merging user may see the tournament (tournaments.policies)
        if by is not None:
            shared = shared.filter(visible_tournaments(by, via="tournament__"))
        names = list(shared.values_list("tournament__name", flat=True)[:5])
        if not names:
            raise StateConflict(_("Both players played in the same tournament; a tournament "
                                  "has one entry per player, so they cannot be merged."))
        raise StateConflict(_("Both players played in %(tournaments)s; a tournament has one "
                              "entry per player, so they cannot be merged."),
                            tournaments=", ".join(names))
    if keep.club_id and remove.club_id and keep.club_id != remove.club_id:
        raise StateConflict(_("The players are members of different clubs; they may be two "
                              "people. Change one membership first."))
    if (keep.club_id and keep.club_id == remove.club_id and keep.member_number
            and remove.member_number and keep.member_number != remove.member_number):
        raise StateConflict(_("The players have different member numbers; they may be two "
                              "people. Change one member number first."))


@transaction.atomic
def player_merge(*, keep: Player, remove: Player, by=None) -> PlayerMerge:
    """Merge the duplicate ``remove`` into ``keep``; every result is kept."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(
        pk__in=[keep.pk, remove.pk]).order_by("pk")}
    keep, remove = locked.get(keep.pk, keep), locked.get(remove.pk, remove)
    if remove.pk not in locked or keep.pk not in locked:
        raise Player.DoesNotExist()
    _check_mergeable(keep, remove, by)
    tournament_ids = list(Participant.objects.filter(player=remove)
                          .values_list("tournament_id", flat=True))
    club_id, number, removed_pk = remove.club_id, remove.member_number, remove.pk
    try:
        with transaction.atomic():
            moved = Participant.objects.filter(player=remove).update(player=keep)
            remove.delete()
    except (IntegrityError, ProtectedError):  # registered for a tournament meanwhile
        raise StateConflict(_("One of the players was registered meanwhile; try again.")) \
            from None
    record = PlayerMerge.objects.create(
        kept=keep, kept_name=keep.name, removed_id=removed_pk, removed_name=remove.name,
        removed_club_id=club_id, removed_member_number=number, participations=moved, by=by)
    changed = []
    if keep.club_id is None and club_id is not None:
        keep.club_id, keep.member_number = club_id, number
        changed = ["club", "member_number"]
    elif keep.club_id == club_id and not keep.member_number and number:
        keep.member_number = number
        changed = ["member_number"]
    if changed:
        with unique_errors(Player):  # the number given meanwhile to a player added alone
            keep.save(update_fields=changed)
    names_changed(tournament_ids)
    return record


def names_changed(tournament_ids) -> None:
    """A player's name (or how it is shown) changed: the stored standings and seasons of
    his tournaments are marked changed, which renews their cached answers and ETags."""
    for tid in tournament_ids:
        sheet_changed(tid)
    for season in seasons_of_tournaments(tournament_ids):
        season_mark_stale(season)


@transaction.atomic
def player_rename(*, player: Player, name: Any, by=None) -> Player:
    """Correct a player's name — the one renaming service (pages and API). The previous
    name stays in the change history (the admin's history of the player), and the stored
    standings and season rankings that show it are redone."""
    if not isinstance(name, str) or not clean_name(name):
        raise user_error("name", _("Enter a name."))
    name = clean_name(name)
    limit = Player._meta.get_field("name").max_length
    if len(name) > limit or any(ord(c) < 32 for c in name):
        raise user_error("name", _("A name has at most %(max)s characters, no control "
                                   "characters."), max=limit)
    old = player.name
    if name == old:
        return player
    player.name = name
    player.save(update_fields=["name"])
    if by is not None and getattr(by, "pk", None):
        LogEntry.objects.log_actions(
            user_id=by.pk, queryset=[player], action_flag=CHANGE,
            change_message=f"name: {old} → {name}", single_object=True)
    names_changed(Participant.objects.filter(player=player)
                  .values_list("tournament_id", flat=True))
    return player
