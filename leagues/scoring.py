"""League points, minus points, Spielpunkte and the league table (games.md §9.5). Pure Python.

Terms:

- *unit*: what league points are given for — a series (Skat) or a matchday's day
  (Doppelkopf, the sum of the day's series).
- *total*: a team's result in a unit (the sum of its players' scores); ``None`` for a team
  that did not appear (absent).
- *scoring*: ``Scoring(unit, base, per_win)``; a team that played gets
  ``base + per_win × (teams with a lower total + ½ × teams with an equal total)``, an
  absent team gets 0 and counts as beaten by every team that played.
- *half-points*: every league figure is kept as an int of half-points (a tie gives halves),
  so ``2.5`` points are ``5``; ``as_points`` turns them into a JSON number.
- *minus points*: for a preset without base (``dskv``, ``ispa``, custom with base 0):
  ``per_win × (g − 1) − points`` per unit, g = the group's teams; ``None`` otherwise
  (``ddv`` tables show Siegpunkte only).
- *Spielpunkte* (game points): the sum of a team's unit totals over the season.
- *table*: league points (more first), then Spielpunkte; teams equal in both share the
  rank (the director decides where it matters, §9.9 no. 5).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.errors import FieldError, InternalError, UserError, _

SERIES, DAY = "series", "day"
UNITS = (SERIES, DAY)
MAX_BASE = 100
MAX_PER_WIN = 100


@dataclass(frozen=True)
class Scoring:
    unit: str
    base: int
    per_win: int
    preset: str = "custom"

    def as_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "unit": self.unit, "base": self.base,
                "per_win": self.per_win}

    @property
    def has_minus_points(self) -> bool:
        return self.base == 0


PRESETS = {
    "dskv": Scoring(SERIES, 0, 1, "dskv"),
    "ispa": Scoring(SERIES, 0, 2, "ispa"),
    "ddv": Scoring(DAY, 1, 1, "ddv"),
}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def scoring_of(value: Any, preset: str = "dskv") -> Scoring:
    """A ``Scoring`` from the API's ``scoring`` (a preset name, a custom object or a stored
    ``as_dict``); ``None`` gives ``preset`` (the game's own, ``LeaguePlay.preset``).
    ``UserError`` on ``scoring.*``."""
    if value is None:
        return PRESETS[preset]
    if isinstance(value, str):
        if value in PRESETS:
            return PRESETS[value]
        raise UserError([FieldError("scoring", _("Unknown scoring “%(value)s”; use one of "
                                                 "%(choices)s or an object."),
                                    {"value": value[:40], "choices": ", ".join(PRESETS)})])
    if not isinstance(value, Mapping):
        raise UserError([FieldError("scoring", _("Give a preset name or an object with "
                                                 "unit, base and per_win."))])
    preset = value.get("preset")
    if isinstance(preset, str) and preset in PRESETS:
        return PRESETS[preset]
    errors = []
    for key in value:
        if key not in ("unit", "base", "per_win", "preset"):
            errors.append(FieldError(f"scoring.{str(key)[:40]}", _("Unknown field.")))
    unit, base, per_win = value.get("unit"), value.get("base"), value.get("per_win")
    if unit not in UNITS:
        errors.append(FieldError("scoring.unit", _("Use “series” or “day”.")))
    if not _whole(base) or not 0 <= base <= MAX_BASE:
        errors.append(FieldError("scoring.base", _("A whole number from %(min)s to %(max)s."),
                                 {"min": 0, "max": MAX_BASE}))
    if not _whole(per_win) or not 1 <= per_win <= MAX_PER_WIN:
        errors.append(FieldError("scoring.per_win",
                                 _("A whole number from %(min)s to %(max)s."),
                                 {"min": 1, "max": MAX_PER_WIN}))
    if errors:
        raise UserError(errors)
    return Scoring(unit, base, per_win, "custom")


def as_points(half: int | None) -> int | float | None:
    """Half-points as a JSON number: 5 → 2.5, 6 → 3."""
    if half is None:
        return None
    return half // 2 if half % 2 == 0 else half / 2


def unit_points(totals: Mapping[Hashable, int | None], scoring: Scoring) -> dict[Hashable, int]:
    """League points of one unit of a group, in half-points, per team (every team of the
    group, ``None`` for an absent one). Asserts the invariant of §9.6 no. 5."""
    played = {team: total for team, total in totals.items() if total is not None}
    absent = len(totals) - len(played)
    points: dict[Hashable, int] = {}
    for team, total in totals.items():
        if total is None:
            points[team] = 0
            continue
        lower = sum(1 for other, t in played.items() if other != team and t < total)
        equal = sum(1 for other, t in played.items() if other != team and t == total)
        points[team] = 2 * scoring.base + scoring.per_win * (2 * (lower + absent) + equal)
    p = len(played)
    expected = 2 * (scoring.base * p + scoring.per_win * (p * (p - 1) // 2)
                    + scoring.per_win * p * absent)
    if sum(points.values()) != expected:
        raise InternalError(f"league points {points} do not sum to {expected} half-points")
    return points


def unit_minus_points(points: Mapping[Hashable, int],
                      scoring: Scoring) -> dict[Hashable, int | None]:
    """Minus points (half-points) of one unit: ``per_win × (g − 1) − points``; None where the
    scoring shows none (a base)."""
    g = len(points)
    return {team: (2 * scoring.per_win * (g - 1) - half if scoring.has_minus_points else None)
            for team, half in points.items()}


@dataclass
class Unit:
    """One unit of one group: its key (e.g. ``(matchday, group, series)``) and the teams'
    totals (None: absent)."""

    matchday: Hashable
    totals: Mapping[Hashable, int | None]


@dataclass
class TeamLine:
    team: Hashable
    points: int = 0  # half-points
    minus: int | None = 0  # half-points; None without minus points
    game_points: int = 0
    matchdays: dict[Hashable, dict[str, Any]] = field(default_factory=dict)
    rank: int = 0


def league_table(teams: Iterable[Hashable], units: Iterable[Unit],
                 scoring: Scoring) -> list[TeamLine]:
    """The table over the given units, best first, with ranks (equal points and Spielpunkte
    share a rank). ``teams`` are every team of the division (those without a unit yet
    stand with 0)."""
    lines = {team: TeamLine(team, minus=0 if scoring.has_minus_points else None)
             for team in teams}
    for unit in units:
        points = unit_points(unit.totals, scoring)
        minus = unit_minus_points(points, scoring)
        for team, half in points.items():
            line = lines.setdefault(team, TeamLine(
                team, minus=0 if scoring.has_minus_points else None))
            day = line.matchdays.setdefault(unit.matchday, {
                "points": 0, "minus": 0 if scoring.has_minus_points else None,
                "game_points": 0})
            total = unit.totals[team] or 0
            line.points += half
            day["points"] += half
            line.game_points += total
            day["game_points"] += total
            if minus[team] is not None:
                line.minus += minus[team]
                day["minus"] += minus[team]
    ordered = sorted(lines.values(), key=lambda line: (-line.points, -line.game_points))
    for index, line in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        if previous is not None and (previous.points, previous.game_points) == (
                line.points, line.game_points):
            line.rank = previous.rank
        else:
            line.rank = index + 1
    return ordered


def day_totals(
        series_totals: Iterable[Mapping[Hashable, int | None]]) -> dict[Hashable, int | None]:
    """A day's totals from its series: the sum of each team's series; None for a team that
    played in no series of the day."""
    result: dict[Hashable, int | None] = {}
    for totals in series_totals:
        for team, total in totals.items():
            if total is None:
                result.setdefault(team, None)
            else:
                result[team] = (result.get(team) or 0) + total
    return result
