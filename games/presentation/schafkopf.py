"""Schafkopf shown to people."""

from django.utils.translation import gettext_lazy as _

from games.presentation.base import Presentation, register


@register
class SchafkopfPresentation(Presentation):
    key = "schafkopf"
    sheet_columns = (_("Declarer"), _("Game"), _("Points"), _("Value"))
