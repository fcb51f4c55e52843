"""Query (and path) parameters, read strictly, each defined once with its bounds.

A *parameter definition* (``IntParam``, ``ChoiceParam``) names a parameter and what it
may hold; the same object reads it from a request (``read``) and describes it in the
OpenAPI schema (``parameter``, with ``minimum``/``maximum`` or ``enum``), so the schema
cannot say other bounds than the server enforces.

- A whole number is ASCII digits only, within its bounds
  (``tournaments.text_checks.whole_number``, which the pages use too): ``str.isdigit``
  accepts "²" (which ``int`` refuses) and ``int`` reads "٣" as 3.
- A parameter that is present but empty (``?limit=``, ``?year=``) is refused: leaving it
  out is how a client asks for the default.
Anything else is a 400 naming the parameter.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError

from clublife.services.seasons import MAX_YEAR, MIN_YEAR
from games.choices import game_keys
from tournaments.bounds import MAX_ID, MAX_OFFSET, MAX_PAGE, MAX_ROUND
from tournaments.text_checks import whole_number


def _refuse(name: str, message: str):
    raise ValidationError({name: [message]})


def _present(raw: str | None, name: str) -> str | None:
    if raw == "":
        _refuse(name, _("Give a value or leave the parameter out."))
    return raw


@dataclass(frozen=True)
class IntParam:
    """A whole number ``low..high`` (ASCII digits only)."""

    name: str
    low: int
    high: int
    description: str = ""

    def parse(self, raw: str | None) -> int | None:
        """``raw`` as an int; None when absent; else a 400 naming the parameter."""
        if _present(raw, self.name) is None:
            return None
        value = whole_number(raw, low=self.low, high=self.high)
        if value is None:
            _refuse(self.name, _("Must be a whole number from %(low)s to %(high)s "
                                 "(digits 0-9 only).") % {"low": self.low, "high": self.high})
        return value

    def read(self, request, default: int | None = None) -> int | None:
        value = self.parse(request.query_params.get(self.name))
        return default if value is None else value

    def schema(self) -> dict:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}

    def parameter(self, location: str = OpenApiParameter.QUERY) -> OpenApiParameter:
        return OpenApiParameter(self.name, self.schema(), location,
                                required=location == OpenApiParameter.PATH,
                                description=self.description)


@dataclass(frozen=True)
class ChoiceParam:
    """One of ``choices``."""

    name: str
    choices: tuple[str, ...]
    description: str = ""

    def parse(self, raw: str | None) -> str | None:
        if _present(raw, self.name) is None:
            return None
        if raw not in self.choices:
            _refuse(self.name, _("Unknown value “%(value)s”; one of: %(choices)s.")
                    % {"value": raw[:40], "choices": ", ".join(self.choices)})
        return raw

    def read(self, request, default: str | None = None) -> str | None:
        value = self.parse(request.query_params.get(self.name))
        return default if value is None else value

    def schema(self) -> dict:
        return {"type": "string", "enum": list(self.choices)}

    def parameter(self, location: str = OpenApiParameter.QUERY) -> OpenApiParameter:
        return OpenApiParameter(self.name, self.schema(), location,
                                required=location == OpenApiParameter.PATH,
                                description=self.description)


LIMIT = IntParam("limit", 1, MAX_PAGE, "Number of results to return per page (default 100).")
OFFSET = IntParam("offset", 0, MAX_OFFSET, "The initial index from which to return the "
                                           "results.")
ROUND = IntParam("round", 1, MAX_ROUND, "Only this round (its number).")
YEAR = IntParam("year", MIN_YEAR, MAX_YEAR, "A calendar year.")
CLUB = IntParam("club", 1, MAX_ID, "Only the players of this club (its id).")
GAME = ChoiceParam("game", tuple(game_keys()),
                   "The game; default: the club's game.")
BY = ChoiceParam("by", ("evening", "player"),
                 "One line per player per evening, or the season's totals per player.")


@dataclass(frozen=True)
class DateParam:
    """A calendar date ``YYYY-MM-DD`` (ISO 8601, digits 0-9 only)."""

    name: str
    description: str = ""

    def parse(self, raw: str | None) -> datetime.date | None:
        if _present(raw, self.name) is None:
            return None
        value = None
        if len(raw) == 10 and raw.isascii():
            try:
                value = datetime.date.fromisoformat(raw)
            except ValueError:
                value = None
        if value is None:
            _refuse(self.name, _("Must be a date as YYYY-MM-DD."))
        return value

    def read(self, request) -> datetime.date | None:
        return self.parse(request.query_params.get(self.name))

    def parameter(self) -> OpenApiParameter:
        return OpenApiParameter(self.name, {"type": "string", "format": "date"},
                                OpenApiParameter.QUERY, description=self.description)
