"""A number as people read it — a negative one with the minus sign (U+2212), which reads
as minus and never as a hyphen that runs two figures together ("32-16"); ``signed`` also
marks a positive one with "+" (a deal's value, a change). Digits and decimals the active
language's way. The one place the app writes a signed figure: the pages' ``num`` and
``signed`` filters, a deal in words (``games.words``) and the paper list's figures
(``Figures``: the same for the many figures of a page, the language's formats read
once) all use it."""

from decimal import Decimal

from django.utils import formats, numberformat
from django.utils.translation import get_language

MINUS = "\u2212"


def _figure(value):
    """The number of ``value`` (an int, a float, a Decimal), or None for anything else
    (a dash, an empty cell): that is shown unchanged."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return None
    return value


def _written(value, text, *, plus: bool = False):
    """``value`` as ``text`` writes a number, with the minus sign (and with ``plus`` the
    "+" of one not below zero); anything not a number unchanged."""
    figure = _figure(value)
    if figure is None:
        return value
    if plus and not figure < 0:
        return f"+{text(figure)}"
    shown = text(abs(figure))
    return f"{MINUS}{shown}" if figure < 0 else shown


def _localized(figure) -> str:
    return formats.localize(figure, use_l10n=True)


def num(value):
    return _written(value, _localized)


def signed(value):
    return _written(value, _localized, plus=True)


class Figures:
    """``num``, ``signed`` and ``plain`` (a number as a template writes ``{{ n }}``) of
    many figures in the language active when made: what ``num``, ``signed`` and
    ``formats.localize`` write — Django's ``number_format`` — with the language's
    formats read once, not for each figure."""

    def __init__(self) -> None:
        language = get_language()
        self._formats = tuple(formats.get_format(name, language, use_l10n=True)
                              for name in ("DECIMAL_SEPARATOR", "NUMBER_GROUPING",
                                           "THOUSAND_SEPARATOR"))

    def _text(self, figure) -> str:
        decimal, grouping, thousand = self._formats
        return numberformat.format(figure, decimal, None, grouping, thousand, use_l10n=True)

    def plain(self, value):
        figure = _figure(value)
        return value if figure is None else self._text(figure)

    def num(self, value):
        return _written(value, self._text)

    def signed(self, value):
        return _written(value, self._text, plus=True)
