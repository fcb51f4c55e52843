"""Doppelkopf shown to people: the paper sheet's columns as on a DDV Spielliste (the game,
the Re party, its Augen, the game value) and the per-round foot."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.words import DOPPELKOPF_LEVELS, doppelkopf_phrases
from games.presentation.base import Presentation, register


@register
class DoppelkopfPresentation(Presentation):
    key = "doppelkopf"
    make_phrases = staticmethod(doppelkopf_phrases)
    sheet_columns = (_("Game"), _("Re party"), _("Re Augen"), _("Value"))
    sheet_column_kinds = ("word", "word", "number", "number")
    # an annulled game is dealt again and the time-up line takes a row (games.md 8.1, 8.7)
    sheet_spare_rows = 4
    sheet_note = _("An annulled game is dealt again by the same dealer and takes its own "
                   "row, as does the line where time is called. After a Pflichtsolo the "
                   "same dealer deals again.")
    # the announcement levels in the words of the paper list (keine 90, …)
    form_choice_labels = {f"announcements.{party}": {
        level: _(label) for level, label in DOPPELKOPF_LEVELS.items()
        if level not in {"re", "kontra"} - {party}} for party in ("re", "kontra")}

    def sheet_foot(self, state: dict[str, Any]) -> list[Any]:
        return [_("Total"), _("Pflichtsolo played")]
