"""A deal in words in the request's language (the engines' phrases, translated)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from games.engines.base import fill
from games.engines.words import Seat
from games.figures import num
from games.presentation import presentation_of


def _word(value: Any, names: Mapping[int, str]) -> Any:
    if isinstance(value, Seat):
        return names.get(int(value)) or gettext("seat %(seat)s") % {"seat": int(value)}
    return gettext(value) if isinstance(value, str) and value else value


def say(message: str, params: dict[str, Any], names: Mapping[int, str] | None = None) -> str:
    """One phrase: its text parameters are msgids too (a suit, an ace, a trump); a seat
    is the player's name from ``names`` where given."""
    return fill(message, {key: _word(value, names or {}) for key, value in params.items()},
                gettext)


def deal_in_words(game: str, record: Any, names: Mapping[int, str] | None = None) -> str:
    """"Kreuz mit 2, Hand, gewonnen" / "eingepasst"; ``names``: the players by seat."""
    phrases = presentation_of(game).phrases(record)
    return ", ".join(say(message, _figures(params), names) for message, params in phrases)


def _figures(params: dict[str, Any]) -> dict[str, Any]:
    """A phrase's numbers as the pages write them: "value −3" with the minus sign, never a
    hyphen (a seat stays a seat: it becomes a name)."""
    return {key: value if isinstance(value, Seat) else num(value)
            for key, value in params.items()}
