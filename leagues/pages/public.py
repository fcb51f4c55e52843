"""The leagues' public pages (server-rendered; the consoles are ``leagues.pages.console``).

- ``/leagues/``: the leagues and their divisions.
- ``/leagues/divisions/<id>/``: the league table (provisional or binding) and the schedule
  with venues and hosts; ``…/print/`` (A4) and ``…/table.csv``.
- ``/leagues/matchdays/<id>/``: the results by group and series.
- ``/leagues/teams/<id>/``: the roster with each player's series scores.

Every read is a fixed number of queries (``leagues.selectors``); every change goes
through a service, whose errors are shown in the reader's language.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from clubs.publication import shown_player
from leagues.models import Division, League, LeagueTeam, Matchday
from leagues.policies import runs_league
from leagues.selectors import matchday_detail, table_rows, table_status, table_version
from tournaments.csv_files import csv_download, write_csv


def league_list(request):
    leagues = League.objects.prefetch_related("divisions")[:200]
    return render(request, "leagues/list.html", {"leagues": leagues})


def _schedule(division: Division) -> list[dict]:
    names = dict(division.teams.values_list("pk", "name"))
    days = []
    for m in division.matchday_set.prefetch_related("groups__members").order_by("number"):
        days.append({"matchday": m, "groups": [
            {"number": g.number, "host": names.get(g.host_id),
             "teams": [names.get(x.team_id, "") for x in g.members.all()]}
            for g in m.groups.all()]})
    return days


def _division(pk: int) -> Division:
    return get_object_or_404(Division.objects.select_related("league"), pk=pk)


def _table_context(division: Division) -> dict:
    computed, pending = table_version(division)
    return {"division": division, "league": division.league, "rows": table_rows(division),
            "status": table_status(division), "stale": bool(pending), "computed_at": computed,
            "minus": division.league.scoring.get("base", 0) == 0}


def division_page(request, pk: int):
    division = _division(pk)
    context = _table_context(division)
    context["schedule"] = _schedule(division)
    context["admin"] = runs_league(request.user, division.league)
    return render(request, "leagues/division.html", context)


def division_print(request, pk: int):
    division = _division(pk)
    context = _table_context(division)
    context["schedule"] = _schedule(division)
    return render(request, "leagues/print.html", context)


def _number(value) -> str:
    return "" if value is None else str(value).replace(".", ",")


def division_csv(request, pk: int):
    division = _division(pk)
    header = [_("Rank"), _("Team"), _("League points"), _("Minus points"), _("Game points")]
    rows = [[r["rank"], r["name"], _number(r["points"]), _number(r["minus_points"]),
             r["game_points"]] for r in table_rows(division)]
    return csv_download(write_csv(header, rows), f"league-table-{division.pk}.csv")


def matchday_page(request, pk: int):
    matchday = get_object_or_404(Matchday.objects.select_related("division__league"), pk=pk)
    division = matchday.division
    names = dict(division.teams.values_list("pk", "name"))
    detail = matchday_detail(matchday)
    for group in detail["groups"]:
        group["team_names"] = [names.get(t, "") for t in group["teams"]]
        group["host_name"] = names.get(group["host"])
        for series in group["series"]:
            for total in series["totals"]:
                total["name"] = names.get(total["team"], "")
        for total in group.get("day", []):
            total["name"] = names.get(total["team"], "")
    return render(request, "leagues/matchday.html", {
        "matchday": matchday, "division": division, "league": division.league,
        "detail": detail, "admin": runs_league(request.user, division.league)})


def team_page(request, pk: int):
    """The roster's season (series played, total) and, per matchday, each player's series
    scores — a table per matchday, so the width stays that of a day's series."""
    team = get_object_or_404(LeagueTeam.objects.select_related("division__league", "club"),
                             pk=pk)
    full = runs_league(request.user, team.division.league)
    roster = list(team.roster.select_related("player"))
    names = {e.player_id: shown_player(e.player, full=full) for e in roster}
    days: dict[int, dict] = {}
    season = {e.player_id: {"series": 0, "total": 0} for e in roster}
    for r in team.results.select_related("group__matchday").order_by(
            "group__matchday__number", "series"):
        day = days.setdefault(r.group.matchday.number, {
            "number": r.group.matchday.number, "matchday": r.group.matchday_id,
            "series": [], "scores": {}})
        day["series"].append(r.series)
        for p in r.players:
            day["scores"].setdefault(p["player"], {})[r.series] = p["score"]
            line = season.setdefault(p["player"], {"series": 0, "total": 0})
            line["series"] += 1
            line["total"] += p["score"]
    matchdays = []
    for day in days.values():
        series = sorted(set(day["series"]))
        rows = [{"name": names.get(player, ""),
                 "cells": [scores.get(s) for s in series],
                 "total": sum(scores.values())}
                for player, scores in day["scores"].items()]
        matchdays.append({**day, "series": series, "rows": rows})
    totals = [{"name": names.get(e.player_id, ""), "role": e.get_role_display(),
               **season[e.player_id]} for e in roster]
    return render(request, "leagues/team.html", {
        "team": team, "division": team.division, "totals": totals, "matchdays": matchdays})
