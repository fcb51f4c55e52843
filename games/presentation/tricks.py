"""The games of bidding tricks exactly (Baptistenskat, La Bâtarde): the cards of each deal
in the sheet's first column."""

from django.utils.translation import gettext_lazy as _

from games.presentation.base import Presentation, register


class TricksPresentation(Presentation):
    sheet_columns = (_("Cards"), _("Trump"), _("Bids"), _("Tricks"))


@register
class BaptistenskatPresentation(TricksPresentation):
    key = "baptistenskat"


@register
class LaBatardePresentation(TricksPresentation):
    key = "labatarde"
    fewer_is_better = True
