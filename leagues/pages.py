"""The leagues' public pages and the director's matchday console (server-rendered).

- ``/leagues/``: the leagues and their divisions.
- ``/leagues/divisions/<id>/``: the league table (provisional or binding) and the schedule
  with venues and hosts; ``…/print/`` (A4) and ``…/table.csv``.
- ``/leagues/matchdays/<id>/``: the results by group and series.
- ``/leagues/teams/<id>/``: the roster with each player's series scores.
- ``/leagues/matchdays/<id>/groups/<g>/console/``: for those who run the league, the
  line-ups of a group, the next series' draw and substitutions between series (the
  tables are then run in the group's tournament console).

Every read is a fixed number of queries (``leagues.selectors``); every change goes
through a service, whose errors are shown in the reader's language.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.publication import shown_player
from games.errors import StateConflict, UserError
from games.messages import render as error_text
from leagues.models import Division, Group, League, LeagueTeam, Matchday
from leagues.policies import runs_league
from leagues.selectors import matchday_detail, table_rows, table_status, table_version
from leagues.services.matchdays import lineup_set, series_draw, substitution_add
from tournaments.csv_files import csv_download, write_csv
from tournaments.text_checks import whole_number


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


@login_required
@require_http_methods(["GET", "POST"])
def group_console(request, pk: int, g: int):
    matchday = get_object_or_404(Matchday.objects.select_related("division__league"), pk=pk)
    division = matchday.division
    if not runs_league(request.user, division.league):
        raise Http404()
    group = get_object_or_404(Group, matchday=matchday, number=g)
    teams = [m.team for m in group.members.select_related("team")]
    if request.method == "POST":
        try:
            if request.POST.get("draw"):
                rnd = series_draw(group=group)
                messages.success(request, _("Series %(number)s is drawn.") % {
                    "number": rnd.number})
            elif request.POST.get("substitute"):
                sub = substitution_add(
                    group=group, team=whole_number(request.POST.get("team", "")),
                    position=whole_number(request.POST.get("position", ""), low=1, high=99),
                    player=whole_number(request.POST.get("player", "")))
                messages.success(request, _("From series %(number)s the substitute plays at "
                                            "position %(position)s.") % {
                    "number": sub.from_series, "position": sub.position})
            else:
                team = next((t for t in teams
                             if str(t.pk) == request.POST.get("team", "")), None)
                if team is None:
                    raise Http404()
                positions = [whole_number(request.POST.get(f"position-{n}", ""), low=1,
                                          high=2**63 - 1)
                             for n in range(1, division.team_size + 1)]
                lineup_set(group=group, team=team, positions=positions)
                messages.success(request, _("The line-up of %(team)s is saved.") % {
                    "team": team.name})
        except UserError as exc:
            messages.error(request, "; ".join(error_text(e) for e in exc.errors))
        except StateConflict as exc:
            messages.error(request, exc.render(gettext))
        return redirect(request.path)
    lineups = {lu.team_id: lu.positions for lu in group.lineups.all()}
    forms = []
    for team in teams:
        roster = [(e.player_id, shown_player(e.player, full=True))
                  for e in team.roster.select_related("player")]
        chosen = lineups.get(team.pk, []) + [None] * division.team_size
        forms.append({"team": team, "roster": roster,
                      "positions": [(n, chosen[n - 1])
                                    for n in range(1, division.team_size + 1)]})
    drawn = group.tournament.rounds.count() if group.tournament_id else 0
    return render(request, "leagues/group_console.html", {
        "matchday": matchday, "division": division, "group": group, "forms": forms,
        "drawn": drawn, "series": division.series_per_matchday})
