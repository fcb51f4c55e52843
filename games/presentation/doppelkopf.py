"""Doppelkopf shown to people: the blank sheet's columns as on a DDV Spielliste (the game
and its value, the plus players marked in their columns, the Pflichtsolo column), the
per-round foot and the entry form's words."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.words import DOPPELKOPF_LEVELS, doppelkopf_phrases
from games.presentation.base import Presentation, register


@register
class DoppelkopfPresentation(Presentation):
    key = "doppelkopf"
    make_phrases = staticmethod(doppelkopf_phrases)
    # the DDV Spielliste (TSR 7.3): per game its value, the plus players marked in their
    # column with their running score, and the Pflichtsolo column (who played it)
    figure_labels = {"solos": _("Solos")}
    sheet_columns = (_("Game"), _("Value"))
    sheet_column_kinds = ("word", "number")
    sheet_columns_after = (_("Pflichtsolo"),)
    seat_cell_hint = _("Mark the plus players; write the running score.")
    sheet_note = _("An annulled game is dealt again by the same dealer and takes its own "
                   "row, as does the line where time is called. After a Pflichtsolo the "
                   "same dealer deals again.")
    # the announcement levels in the words of the paper list (keine 90, …)
    form_choice_labels = {f"announcements.{party}": {
        level: _(label) for level, label in DOPPELKOPF_LEVELS.items()
        if level not in {"re", "kontra"} - {party}} for party in ("re", "kontra")}

    def sheet_foot(self, state: dict[str, Any]) -> list[Any]:
        return [_("Total"), _("Pflichtsolo played")]
