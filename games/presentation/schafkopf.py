"""Schafkopf shown to people: the form asks for card points and schwarz in the games a
player may lose (a sie is always won with every trick)."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.schafkopf import PLAYED_GAMES, SIE
from games.presentation.base import Presentation, register


@register
class SchafkopfPresentation(Presentation):
    key = "schafkopf"
    sheet_columns = (_("Declarer"), _("Game"), _("Points"), _("Value"))
    form_choice_labels = {"game": {"wenz_tout": _("Wenz tout"), "solo_tout": _("Solo tout")}}

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"played_without_sie": "game:" + ",".join(g for g in PLAYED_GAMES if g != SIE)}
