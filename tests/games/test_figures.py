"""``games.figures``: a page's many figures (``Figures``) are written as the ``num`` and
``signed`` filters and a template's ``{{ n }}`` write each, in German and English."""

from decimal import Decimal

import pytest
from django.utils import formats, translation

from games.figures import Figures, num, signed

VALUES = [0, 7, -7, 1234567, -1234567, 2.5, -0.25, Decimal("-12.50"), Decimal("3"),
          True, None, "", "—", "12"]


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("thousands", [False, True])
def test_a_pages_figures_read_as_each_figure_alone(language, thousands, settings):
    settings.USE_THOUSAND_SEPARATOR = thousands
    with translation.override(language):
        figures = Figures()
        for value in VALUES:
            assert figures.num(value) == num(value)
            assert figures.signed(value) == signed(value)
            shown = figures.plain(value)
            assert (shown if isinstance(shown, str) else formats.localize(shown)) \
                == formats.localize(value)
