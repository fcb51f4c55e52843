"""A deal in words in the request's language (the engines' phrases, translated)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engines.base import fill
from games.presentation import presentation_of


def say(message: str, params: dict[str, Any]) -> str:
    """One phrase: its text parameters are msgids too (a suit, an ace, a trump)."""
    return fill(message, {key: gettext(value) if isinstance(value, str) and value else value
                          for key, value in params.items()}, gettext)


def deal_in_words(game: str, record: Any) -> str:
    """"Kreuz mit 2, Hand, gewonnen" / "eingepasst"."""
    phrases = presentation_of(game).phrases(record)
    return ", ".join(say(message, params) for message, params in phrases)
