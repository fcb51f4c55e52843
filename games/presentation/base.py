"""The interface of a game's presentation and its registry.

Terms: a *presentation* belongs to one engine (``key``); *form template* the tablet's entry
form of one deal; *sheet columns* the game's own columns of a blank paper sheet; *foot*
the rows under a sheet or a paper list (e.g. Skat's Seeger-Fabian rows).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from games.engines import Engine, get_engine
from games.engines.words import Phrase
from games.errors import InternalError
from games.figures import num


class Presentation:
    """Defaults that fit every game; a game's module overrides what differs."""

    key: ClassVar[str]
    # the game's own columns of a blank paper sheet, between the dealer and the players
    sheet_columns: ClassVar[tuple[Any, ...]] = ()
    # what is written in each of those columns, for its printed width: "name" (a player),
    # "word" (a game, a short phrase; the default) or "number" (one figure)
    sheet_column_kinds: ClassVar[tuple[str, ...]] = ()
    # the line under a blank sheet where the engine fixes no number of deals
    # (``Engine.sheet_room`` is None): what its spare rows are for (``blank_rows``)
    sheet_note: ClassVar[Any] = None
    # lower totals win: the paper list and the sheet say so at their foot
    fewer_is_better: ClassVar[bool] = False
    # the words of the figures of a game's totals (``Engine.figures``) in lists and files
    figure_labels: ClassVar[dict[str, Any]] = {
        "game_points": _("Game points"), "won": _("Won"), "lost": _("Lost")}
    # a blank sheet's columns after the players' (Doppelkopf's Pflichtsolo column), and
    # what a player's cell holds when it is more than the score (None: the score)
    sheet_columns_after: ClassVar[tuple[Any, ...]] = ()
    seat_cell_hint: ClassVar[Any] = None
    # the entry form's own label of a choice, where it says more than the description's
    form_choice_labels: ClassVar[dict[str, dict[Any, Any]]] = {}

    @property
    def engine(self) -> Engine:
        return get_engine(self.key)

    @property
    def form_template(self) -> str:
        """The tablet's entry form of a deal."""
        return f"sheet/forms/{self.key}.html"

    def form_context(self, state: dict[str, Any]) -> dict[str, Any]:
        """What the form template needs besides the table state."""
        return {}

    def blank_rows(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows of a blank paper sheet for ``state`` (a table state): ``number``,
        ``dealer`` (a seat, or None where the dealer follows from what is played and
        the players write him in) and ``cards`` (None unless the game deals a varying
        number). As many rows as the sheet can take: ``sheet_length``, and a row more per
        seat where rows that are no game (an annulled game) take a place."""
        engine = self.engine
        players, rules = len(state["seats"]), state["rules"]
        plan = {h["number"]: h for h in engine.deal_plan((), players, rules)}
        last = engine.sheet_length(players, rules)
        if engine.sheet_room((), players, rules) is None:
            last += players
        return [{"number": n, "dealer": plan[n]["dealer"] if n in plan else None,
                 "cards": plan[n].get("cards") if n in plan else None}
                for n in range(1, last + 1)]

    def sheet_foot(self, state: dict[str, Any]) -> list[Any]:
        """The labels of a blank sheet's foot rows."""
        if self.fewer_is_better:
            return [_("Penalty points — fewer is better")]
        return [_("Total")]

    def list_foot(self, state: dict[str, Any]) -> dict[str, Any]:
        """What the paper list shows under its deals (keys of the table state)."""
        return {"seeger_fabian": None, "others_factor": None,
                "fewer_is_better": self.fewer_is_better}

    @staticmethod
    def make_phrases(record: dict[str, Any]) -> list[Phrase]:
        """The game's phrases of a stored record (``games.engines.words``)."""
        raise NotImplementedError

    def phrases(self, record: Any) -> list[Phrase]:
        """A deal in words as (msgid, params) pairs."""
        return self.make_phrases(record if isinstance(record, dict) else {})

    def is_passed(self, record: dict[str, Any]) -> bool:
        """Whether everybody passed the deal (a paper list greys it out)."""
        return bool(record.get("passed"))

    def partner_of(self, record: dict[str, Any]) -> int | None:
        """The declarer's partner, where the record names one (a paper list names it)."""
        return None

    @property
    def summary_entry(self) -> bool:
        """Whether a paper list's totals may be typed in instead of its deals."""
        return self.engine.supports_summary

    # what a summary entry takes per seat: (figure, label, lowest, highest)
    summary_figures: ClassVar[tuple[tuple[str, Any, int, int], ...]] = ()

    def summary_words(self, name: Any, entry: dict[str, Any]) -> str:
        """One seat's summary entry in words (the sheet's history)."""
        return f"{name}: " + ", ".join(f"{label} {num(entry.get(key))}"
                                       for key, label, _low, _high in self.summary_figures)


_REGISTRY: dict[str, Presentation] = {}


def register(cls: type[Presentation]) -> type[Presentation]:
    """Class decorator: the presentation of the engine ``cls.key``."""
    if cls.key in _REGISTRY:
        raise InternalError(f"presentation {cls.key!r} registered twice")
    get_engine(cls.key)  # a presentation belongs to a registered engine
    _REGISTRY[cls.key] = cls()
    return cls


def presentation_of(key: str) -> Presentation:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise InternalError(f"no presentation of game {key!r}") from None


def all_presentations() -> list[Presentation]:
    return list(_REGISTRY.values())
