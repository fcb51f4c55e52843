"""Schafkopf shown to people: the form asks for card points and schwarz in the games a
player may lose (a sie is always won with every trick)."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.schafkopf import PASSED, PLAYED_GAMES, SIE
from games.engines.words import schafkopf_phrases
from games.presentation.base import Presentation, register


@register
class SchafkopfPresentation(Presentation):
    key = "schafkopf"
    make_phrases = staticmethod(schafkopf_phrases)
    sheet_columns = (_("Declarer"), _("Game"), _("Points"), _("Value"))
    sheet_column_kinds = ("name", "word", "number", "number")
    form_choice_labels = {"game": {"wenz_tout": _("Wenz tout"), "solo_tout": _("Solo tout")}}

    def is_passed(self, record: dict[str, Any]) -> bool:
        return record.get("game") == PASSED

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"played_without_sie": "game:" + ",".join(g for g in PLAYED_GAMES if g != SIE)}
