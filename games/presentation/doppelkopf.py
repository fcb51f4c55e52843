"""Doppelkopf shown to people: the paper sheet's columns as on a DDV Spielliste (the game,
the Re party, its Augen, the game value) and the per-round foot."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.words import doppelkopf_phrases
from games.presentation.base import Presentation, register


@register
class DoppelkopfPresentation(Presentation):
    key = "doppelkopf"
    make_phrases = staticmethod(doppelkopf_phrases)
    sheet_columns = (_("Game"), _("Re party"), _("Re Augen"), _("Value"))

    def sheet_foot(self, state: dict[str, Any]) -> list[Any]:
        return [_("Total"), _("Pflichtsolo played")]
