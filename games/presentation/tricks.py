"""The games of bidding tricks exactly (Baptistenskat, La Bâtarde): the cards of each deal
in the sheet's first column."""

from django.utils.translation import gettext_lazy as _

from games.engines.words import baptistenskat_phrases, labatarde_phrases
from games.presentation.base import Presentation, register


class TricksPresentation(Presentation):
    sheet_columns = (_("Cards"), _("Trump"), _("Bids"), _("Tricks"))
    sheet_column_kinds = ("number", "word", "word", "word")


@register
class BaptistenskatPresentation(TricksPresentation):
    key = "baptistenskat"
    make_phrases = staticmethod(baptistenskat_phrases)


@register
class LaBatardePresentation(TricksPresentation):
    key = "labatarde"
    make_phrases = staticmethod(labatarde_phrases)
    fewer_is_better = True
