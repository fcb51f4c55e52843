"""The games a tournament can be played in, as stored in the database.

Kept as a literal list so migrations stay stable; a system check (games.E001) fails
when it and the engine registry disagree.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines import all_engines
from games.engines.base import _ as msgid
from games.engines.base import user_error

GAME_CHOICES = [
    ("skat", _("Skat")),
    ("schafkopf", _("Bavarian Schafkopf")),
    ("baptistenskat", _("Baptistenskat")),
    ("basler", _("Basler (48 cards)")),
    ("labatarde", _("La Bâtarde")),
    ("doppelkopf", _("Doppelkopf")),
]


def check_game(game: Any) -> str:
    """``game`` if it names a registered engine, else a user error on the field ``game``."""
    if not isinstance(game, str) or game not in {e.key for e in all_engines()}:
        raise user_error("game", msgid("Unknown game “%(game)s”."), game=str(game)[:40])
    return game
