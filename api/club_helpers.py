"""Shared reading of the club API modules' parameters (the season's year and game, defined
in ``api.query``) and a renderer for CSV downloads."""

import json

from rest_framework.renderers import BaseRenderer

from api.query import GAME, YEAR
from clubs.models import Club


def year_of(raw: str) -> int:
    """The ``{year}`` of a path, by the one definition of a year (``api.query.YEAR``)."""
    return YEAR.parse(raw)


def game_of(request, club: Club) -> str:
    return GAME.read(request, default=club.default_game)


class CSVRenderer(BaseRenderer):
    """Lets a client ask for ``text/csv``; the CSV views answer with the file itself."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data, default=str).encode("utf-8")


