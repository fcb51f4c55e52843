"""Basler shown to people: the form's rows of melds (by player) and captured sets (by
team)."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.presentation.base import Presentation, register


@register
class BaslerPresentation(Presentation):
    key = "basler"
    sheet_columns = (_("Tricks A : B"), _("Last trick"), _("Card points A : B"), _("Sets"))

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"basler_rows": [("melds", _("Player")), ("captured", _("Team"))]}
