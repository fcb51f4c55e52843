"""Skat shown to people: the Seeger-Fabian rows at the foot of a sheet and a paper list,
and a summary entry (a paper list's totals: per seat the game points and the won and lost
declarer games)."""

from __future__ import annotations

from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engines.skat import (
    MAX_MATADORS,
    MAX_SUMMARY_GAME_POINTS,
    opponent_bonus,
    seeger_fabian_lines,
)
from games.engines.words import skat_phrases
from games.figures import num
from games.presentation.base import Presentation, register


def _seeger_fabian(state: dict[str, Any]) -> bool:
    return state["rules"].get("scoring") == "seeger_fabian"


@register
class SkatPresentation(Presentation):
    key = "skat"
    make_phrases = staticmethod(skat_phrases)
    sheet_columns = (_("Declarer"), _("Game"), _("Value"))
    sheet_column_kinds = ("name", "word", "number")
    form_choice_labels = {"game": {
        "diamonds": format_lazy("♦ {}", _("Diamonds")),
        "hearts": format_lazy("♥ {}", _("Hearts")),
        "spades": format_lazy("♠ {}", _("Spades")),
        "clubs": format_lazy("♣ {}", pgettext_lazy("card suit", "Clubs"))}}

    summary_figures = (
        ("game_points", _("Game points"), -MAX_SUMMARY_GAME_POINTS, MAX_SUMMARY_GAME_POINTS),
        ("won", _("Games won"), 0, MAX_SUMMARY_GAME_POINTS),
        ("lost", _("Games lost"), 0, MAX_SUMMARY_GAME_POINTS))

    def summary_words(self, name: Any, entry: dict[str, Any]) -> str:
        return gettext("%(name)s: %(points)s game points, %(won)s won, %(lost)s lost") % {
            "name": name, "points": num(entry.get("game_points")), "won": entry.get("won"),
            "lost": entry.get("lost")}

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        # the matadors' bound by game, rendered as data attributes for the form's script
        return {"matadors_max": MAX_MATADORS["suit"],
                "matadors_max_by": f"grand:{MAX_MATADORS['grand']}"}

    def sheet_foot(self, state: dict[str, Any]) -> list[Any]:
        if not _seeger_fabian(state):
            return super().sheet_foot(state)
        factor = opponent_bonus(len(state["seats"]))
        return [_("Game points"), _("Games won"), _("Games lost"), _("+50 per game won"),
                _("−50 per game lost"), _("Others' lost games × %(f)s") % {"f": factor},
                _("Score (Seeger-Fabian)")]

    def list_foot(self, state: dict[str, Any]) -> dict[str, Any]:
        players = len(state["seats"])
        shown = _seeger_fabian(state) and all("lost" in t for t in state["totals"])
        return {"seeger_fabian": seeger_fabian_lines(state["totals"], players) if shown
                else None, "others_factor": opponent_bonus(players), "fewer_is_better": False}
