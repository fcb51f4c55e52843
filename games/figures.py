"""A number as people read it — a negative one with the minus sign (U+2212), which reads
as minus and never as a hyphen that runs two figures together ("32-16"); ``signed`` also
marks a positive one with "+" (a deal's value, a change). Digits and decimals the active
language's way. The one place the app writes a signed figure: the pages' ``num`` and
``signed`` filters and a deal in words (``games.words``) both use it."""

from decimal import Decimal

from django.utils import formats

MINUS = "\u2212"


def _figure(value):
    """The number of ``value`` (an int, a float, a Decimal), or None for anything else
    (a dash, an empty cell): that is shown unchanged."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return None
    return value


def num(value):
    figure = _figure(value)
    if figure is None:
        return value
    text = formats.localize(abs(figure), use_l10n=True)
    return f"{MINUS}{text}" if figure < 0 else text


def signed(value):
    figure = _figure(value)
    if figure is None:
        return value
    return num(figure) if figure < 0 else f"+{formats.localize(figure, use_l10n=True)}"
