"""Shared look-ups of the club API modules: the club, the season's year and game, who may
change a player, and a renderer for CSV downloads."""

import json

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.renderers import BaseRenderer

from api.permissions import is_staff, runs_club
from clubs.models import Club
from games.choices import GAME_CHOICES
from tournaments.models import Participant
from tournaments.services.seasons import MAX_YEAR, MIN_YEAR

GAMES = {key for key, _label in GAME_CHOICES}


def club_or_404(club_id: int) -> Club:
    return get_object_or_404(Club, pk=club_id)


def run_club_or_403(request, club_id: int) -> Club:
    club = club_or_404(club_id)
    if not runs_club(request.user, club):
        raise PermissionDenied(_("Only the club's admins may do this."))
    return club


def year_of(raw: str) -> int:
    if not raw.isdigit() or not MIN_YEAR <= int(raw) <= MAX_YEAR:
        raise ValidationError({"year": [_("The year must be a whole number from %(min)s to "
                                          "%(max)s.") % {"min": MIN_YEAR, "max": MAX_YEAR}]})
    return int(raw)


def game_of(request, club: Club) -> str:
    game = request.query_params.get("game") or club.default_game
    if game not in GAMES:
        raise ValidationError({"game": [_("Unknown game “%(game)s”.") % {"game": game[:40]}]})
    return game


def may_change_player(user, player) -> bool:
    """Superusers, the player's creator, his club's admins and — for a player without a
    club (a guest) — the staff who run a tournament he played in."""
    if not is_staff(user):
        return False
    if user.is_superuser or player.created_by_id == user.pk or runs_club(user, player.club):
        return True
    return player.club_id is None and Participant.objects.filter(player=player).filter(
        Q(tournament__directors=user) | Q(tournament__club__admins=user)).exists()


class CSVRenderer(BaseRenderer):
    """Lets a client ask for ``text/csv``; the CSV views answer with the file itself."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data, default=str).encode("utf-8")


def csv_response(text: str, filename: str):
    from django.http import HttpResponse

    return HttpResponse(text, content_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
