"""The games a tournament, league, club or ranking list can be played in: the engines'.

The engine registry is the one list. Model fields store a game's key with ``validate_game``
as their validator (no ``choices=``: a new engine needs no migration); forms offer
``game_choices`` (a callable, read when the form is made), the API ``game_keys`` and the
OpenAPI enums name ``game_keys`` and ``league_game_keys``.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.engines import all_engines, get_engine
from games.engines.base import _ as msgid
from games.engines.base import user_error

# the game a new club plays until it picks one, and the first one offered
DEFAULT_GAME = "skat"


def game_keys() -> list[str]:
    """The registered games' keys: the default game first, then by key."""
    return sorted((engine.key for engine in all_engines()),
                  key=lambda key: (key != DEFAULT_GAME, key))


def league_game_keys() -> list[str]:
    """The keys of the games that have a league (``Engine.league``, games.md §9)."""
    return [key for key in game_keys() if get_engine(key).league is not None]


def game_name(key: str) -> str:
    """The game's name in the active language (the engine's own); an unknown key as is."""
    if key not in {engine.key for engine in all_engines()}:
        return key
    engine = get_engine(key)
    return engine.name_de if (get_language() or "de").startswith("de") else engine.name_en


game_label = lazy(game_name, str)


def game_choices() -> list[tuple[str, Any]]:
    """``(key, name)`` of every registered game, for a form's select."""
    return [(key, game_label(key)) for key in game_keys()]


def league_game_choices() -> list[tuple[str, Any]]:
    return [(key, game_label(key)) for key in league_game_keys()]


def validate_game(value: Any) -> None:
    """A model field's validator: ``value`` names a registered engine."""
    _validate(value, game_keys())


def validate_league_game(value: Any) -> None:
    """A league's game's validator: ``value`` names a registered game that has a league."""
    _validate(value, league_game_keys())


def _validate(value: Any, keys: list[str]) -> None:
    if value not in keys:
        raise ValidationError(_("Unknown game “%(game)s”."), code="unknown_game",
                              params={"game": str(value)[:40]})


class HasGame:
    """For a model with a ``game`` field: the game's name, as ``choices=`` would give it."""

    game: str

    def get_game_display(self) -> str:
        return game_name(self.game)


def check_game(game: Any) -> str:
    """``game`` if it names a registered engine, else a user error on the field ``game``."""
    if not isinstance(game, str) or game not in game_keys():
        raise user_error("game", msgid("Unknown game “%(game)s”."), game=str(game)[:40])
    return game
