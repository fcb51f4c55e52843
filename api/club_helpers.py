"""Shared reading of the club API modules' query parameters (the season's year and game)
and a renderer for CSV downloads."""

import json

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer

from clublife.services.seasons import MAX_YEAR, MIN_YEAR
from clubs.models import Club
from games.choices import GAME_CHOICES

GAMES = {key for key, _label in GAME_CHOICES}


def year_of(raw: str) -> int:
    if not (raw.isascii() and raw.isdigit()) or not MIN_YEAR <= int(raw) <= MAX_YEAR:
        raise ValidationError({"year": [_("The year must be a whole number from %(min)s to "
                                          "%(max)s.") % {"min": MIN_YEAR, "max": MAX_YEAR}]})
    return int(raw)


def game_of(request, club: Club) -> str:
    game = request.query_params.get("game") or club.default_game
    if game not in GAMES:
        raise ValidationError({"game": [_("Unknown game “%(game)s”.") % {"game": game[:40]}]})
    return game


class CSVRenderer(BaseRenderer):
    """Lets a client ask for ``text/csv``; the CSV views answer with the file itself."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data, default=str).encode("utf-8")


