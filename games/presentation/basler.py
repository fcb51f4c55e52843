"""Basler shown to people: the form's rows of melds (by player) and captured sets (by
team)."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.words import basler_phrases
from games.presentation.base import Presentation, register
from games.presentation.labels import label_text


@register
class BaslerPresentation(Presentation):
    key = "basler"
    make_phrases = staticmethod(basler_phrases)
    sheet_columns = (_("Tricks A : B"), _("Last trick"), _("Card points A : B"), _("Sets"))
    sheet_column_kinds = ("word", "number", "word", "word")
    # the form names one card of a rank, the grid the set ("kings")
    form_choice_labels = {"rank": {"king": _("King"), "ober": _("Ober"), "seven": _("Seven"),
                                   "two": _("Two"), "unter": _("Unter"), "banner": _("Banner")}}

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        sets = {sub.name: sub for sub in self.engine.record_field("melds").fields}
        return {"basler_rows": [("melds", _("Player")), ("captured", _("Team"))],
                "rank_choices": [(v, self.form_choice_labels["rank"].get(v) or label_text(label))
                                 for v, label in sets["rank"].choices],
                "count_choices": sets["count"].choices}
