"""Schafkopf shown to people: the form asks for card points, schwarz and laufende in the
games a player may lose (a sie is always won with every trick and holds its 8 laufende);
a deal all passed is *zusammengeworfen* (thrown in), the rule text's word
(rules/schafkopf.txt 2.1), on the button, in the list and in the history alike; a
rufspiel's row names the called partner."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.base import _ as mark
from games.engines.schafkopf import PASSED, PLAYED_GAMES, RUFSPIEL, SIE
from games.engines.words import Phrase, schafkopf_phrases
from games.presentation.base import Presentation, register

THROWN_IN = mark("thrown in")


def _phrases(record: dict[str, Any]) -> list[Phrase]:
    if record.get("game") == PASSED:
        return [(THROWN_IN, {})]
    return schafkopf_phrases(record)


@register
class SchafkopfPresentation(Presentation):
    key = "schafkopf"
    make_phrases = staticmethod(_phrases)
    sheet_columns = (_("Declarer"), _("Game"), _("Points"), _("Value"))
    sheet_column_kinds = ("name", "word", "number", "number")
    form_choice_labels = {"game": {"wenz_tout": _("Wenz tout"), "solo_tout": _("Solo tout")}}

    def is_passed(self, record: dict[str, Any]) -> bool:
        return record.get("game") == PASSED

    def partner_of(self, record: dict[str, Any]) -> int | None:
        return record.get("partner") if record.get("game") == RUFSPIEL else None

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"played_without_sie": "game:" + ",".join(g for g in PLAYED_GAMES if g != SIE)}
