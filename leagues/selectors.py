"""Reads of league data for the API and the pages: a fixed number of queries each,
however many teams, matchdays or series (league figures leave here as JSON numbers:
half-points become ``2.5``)."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.utils import timezone

from leagues.models import (
    Division,
    DivisionState,
    Group,
    GroupTeam,
    LeagueOutbox,
    LeagueTeam,
    Matchday,
    SeriesResult,
    TableRow,
)
from leagues.scoring import DAY, as_points, day_totals, scoring_of, unit_minus_points, unit_points
from leagues.services.table_rows import is_binding


def team_by_captain_token(token: str) -> LeagueTeam | None:
    return (LeagueTeam.objects.select_related("division__league").filter(captain_token=token)
            .first() if token else None)


def table_status(division: Division) -> str:
    """``binding`` when every matchday with results is binding, else ``provisional``."""
    days = Matchday.objects.filter(division=division, groups__results__isnull=False).distinct()
    days = list(days)
    today = timezone.localdate()
    if days and all(is_binding(d, division.league.binding_after_days, today) for d in days):
        return "binding"
    return "provisional"


def table_version(division: Division) -> tuple[datetime.datetime | None, int]:
    """When the table was last computed, and how many changes are not yet in it."""
    computed = (DivisionState.objects.filter(division=division)
                .values_list("computed_at", flat=True).first())
    return computed, LeagueOutbox.objects.filter(division=division).count()


def table_rows(division: Division) -> list[dict]:
    rows = TableRow.objects.filter(division=division).select_related("team").order_by("position")
    return [{"rank": r.rank, "team": r.team_id, "name": r.team.name,
             "points": as_points(r.points), "minus_points": as_points(r.minus),
             "game_points": r.game_points,
             "matchdays": [{"matchday": d["matchday"], "number": d["number"],
                            "points": as_points(d["points"]),
                            "minus_points": as_points(d["minus"]),
                            "game_points": d["game_points"]} for d in r.matchdays]}
            for r in rows]


def matchday_detail(matchday: Matchday) -> dict:
    """The matchday with its groups, their teams and each series' totals and points (for
    a ``day`` scoring, a series' points are null and the group's ``day`` carries them)."""
    league = matchday.division.league
    scoring = scoring_of(league.scoring)
    groups = list(Group.objects.filter(matchday=matchday).order_by("number"))
    members = defaultdict(list)
    for group_id, team_id in GroupTeam.objects.filter(group__in=groups).order_by(
            "order").values_list("group_id", "team_id"):
        members[group_id].append(team_id)
    results = defaultdict(dict)
    players = defaultdict(dict)
    for r in SeriesResult.objects.filter(group__in=groups):
        results[(r.group_id, r.series)][r.team_id] = r.total
        players[(r.group_id, r.series)][r.team_id] = r.players
    spm = matchday.division.series_per_matchday
    out = []
    for group in groups:
        teams = members[group.pk]
        series, played = [], []
        for s in range(1, spm + 1):
            totals = {t: results[(group.pk, s)].get(t) for t in teams}
            if not results[(group.pk, s)]:
                series.append({"number": s, "totals": []})
                continue
            played.append(totals)
            points = unit_points(totals, scoring) if scoring.unit != DAY else {}
            minus = unit_minus_points(points, scoring) if points else {}
            series.append({"number": s, "totals": [
                {"team": t, "total": totals[t],
                 "points": as_points(points[t]) if points else None,
                 "minus_points": as_points(minus.get(t)),
                 "players": players[(group.pk, s)].get(t, [])} for t in teams]})
        entry = {"number": group.number, "teams": teams, "host": group.host_id,
                 "tournament": group.tournament_id, "series": series}
        if scoring.unit == DAY and played:
            day = day_totals(played)
            totals = {t: day.get(t) for t in teams}
            points = unit_points(totals, scoring)
            entry["day"] = [{"team": t, "total": totals[t], "points": as_points(points[t])}
                            for t in teams]
        out.append(entry)
    return {"id": matchday.pk, "division": matchday.division_id, "number": matchday.number,
            "date": matchday.date, "kind": matchday.kind,
            "venue": {"name": matchday.venue_name, "address": matchday.venue_address},
            "double_with": matchday.double_with_id, "reopened": matchday.reopened,
            "binding": is_binding(matchday, league.binding_after_days),
            "groups": out}
