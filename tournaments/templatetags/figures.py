"""``{{ n|num }}`` and ``{{ n|signed }}``: a number as people read it on a page — a
negative one with the minus sign (U+2212), which reads as minus and never as a hyphen
that runs two figures together ("32-16"); ``signed`` also marks a positive one with "+"
(a deal's value, a change). Digits and decimals the active language's way. The one
place the pages write a signed figure."""

from decimal import Decimal

from django import template
from django.utils import formats

register = template.Library()

MINUS = "\u2212"


def _figure(value):
    """The number of ``value`` (an int, a float, a Decimal), or None for anything else
    (a dash, an empty cell): that is shown unchanged."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return None
    return value


@register.filter
def num(value):
    figure = _figure(value)
    if figure is None:
        return value
    text = formats.localize(abs(figure), use_l10n=True)
    return f"{MINUS}{text}" if figure < 0 else text


@register.filter
def signed(value):
    figure = _figure(value)
    if figure is None:
        return value
    return num(figure) if figure < 0 else f"+{formats.localize(figure, use_l10n=True)}"
