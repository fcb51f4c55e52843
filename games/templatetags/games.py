"""Template filters that ask a game's presentation, so that no template names a game:
``{% load games %}{% if t.game|summary_entry %}``."""

from django import template

from games.presentation import presentation_of

register = template.Library()


@register.filter
def summary_entry(game: str) -> bool:
    """Whether the game's paper totals may be typed in instead of its deals."""
    return presentation_of(game).summary_entry
