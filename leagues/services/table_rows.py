"""The league table, recomputed off the request (games.md §9.5), and what makes it stale.

The pattern is the standings' (``tournaments.recompute``): every change that can move a
division's table writes a ``LeagueOutbox`` row in the changing transaction and schedules
a recompute after the commit (``leagues.services.stale``, ``leagues.tasks``); the
recompute below takes the pending rows in.
A group tournament's sheets reach the league through its standings: the
``standings_recomputed`` signal (``leagues.receivers``) marks the group's division stale.

The recompute reads each group's series results from its tournament — a series counts
once every sheet of its round is final (submitted, or complete by its game's rules, or
entered as a summary, or ended early); a team's total is the sum of its players' seat
scores — and stores them (``SeriesResult``), then the table (``TableRow``).

*Binding*: a matchday's results become binding ``binding_after_days`` after its date
(the day after, with 0), unless a director reopened it. Binding results stay as stored: a
later sheet correction does not reach the table (a series played later is still added),
and keying in paper results again is refused (``StateConflict``) until a director
reopens the matchday. The division's table is ``binding`` when every matchday with
results is.
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.engines import get_engine
from leagues.models import (
    Division,
    DivisionState,
    Group,
    GroupTeam,
    LeagueOutbox,
    Matchday,
    SeriesResult,
    TableRow,
)
from leagues.scoring import DAY, Unit, day_totals, league_table, scoring_of
from tournaments.models import Seat, Table


def is_binding(matchday: Matchday, binding_after_days: int,
               today: datetime.date | None = None) -> bool:
    """Whether the matchday's results are binding now (see the module's docstring)."""
    today = today or timezone.localdate()
    return (not matchday.reopened
            and today > matchday.date + datetime.timedelta(days=binding_after_days))


def occupants(group: Group, series: int) -> dict[tuple[int, int], int]:
    """Who plays at (team id, position 1..) in ``series``: the line-up with the
    substitutions made before it."""
    seated = {}
    for lineup in group.lineups.all():
        for position, player in enumerate(lineup.positions, start=1):
            if player is not None:
                seated[(lineup.team_id, position)] = player
    for sub in group.substitutions.all():
        if sub.from_series <= series:
            seated[(sub.team_id, sub.position)] = sub.player_id
    return seated


def _finished(table_id: int) -> bool:
    """A sheet not (yet) submitted whose deals are all in (complete by its game's rules),
    or entered as a summary, or ended early: its scores are final."""
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    if table.summary is not None or table.shortened:
        return True
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    records = list(table.deals.order_by("number").values_list("record", flat=True))
    return bool(records) and engine.sheet_complete(records, table.seats.count(),
                                                   engine.options(tournament.rules))


def _results_from_sheets(group: Group, keep: set[int]) -> None:
    """Store the group's complete series from its tournament's sheets, leaving the series
    in ``keep`` as they are."""
    seats = (Seat.objects.filter(table__round__tournament_id=group.tournament_id)
             .values_list("table__round__number", "table_id", "table__submitted",
                          "participant__player_id", "score"))
    rounds: dict[int, list[tuple[int, int]]] = defaultdict(list)
    unsubmitted: dict[int, set[int]] = defaultdict(set)
    for number, table_id, submitted, player, score in seats:
        rounds[number].append((player, score))
        if not submitted:
            unsubmitted[number].add(table_id)
    open_rounds = {number for number, tables in unsubmitted.items()
                   if not all(_finished(table_id) for table_id in tables)}
    SeriesResult.objects.filter(group=group, source=SeriesResult.Source.SHEETS).exclude(
        series__in=keep).delete()
    rows = []
    for number, scores in sorted(rounds.items()):
        if number in open_rounds or number in keep:
            continue
        where = {player: key for key, player in occupants(group, number).items()}
        teams: dict[int, list[dict]] = defaultdict(list)
        for player, score in scores:
            if player in where:
                team, position = where[player]
                teams[team].append({"player": player, "position": position, "score": score})
        rows.extend(SeriesResult(group=group, series=number, team_id=team,
                                 total=sum(p["score"] for p in players),
                                 players=sorted(players, key=lambda p: p["position"]),
                                 source=SeriesResult.Source.SHEETS)
                    for team, players in teams.items())
    SeriesResult.objects.bulk_create(rows)


@transaction.atomic
def division_recompute(*, division_id: int) -> None:
    """Read the groups' sheets and store the division's table. Idempotent."""
    state, _created = DivisionState.objects.get_or_create(division_id=division_id)
    state = DivisionState.objects.select_for_update().get(pk=state.pk)
    division = Division.objects.select_related("league").get(pk=division_id)
    upto = LeagueOutbox.objects.filter(division=division).aggregate(m=Max("id"))["m"] or 0
    league = division.league
    scoring = scoring_of(league.scoring)
    groups = list(Group.objects.filter(matchday__division=division)
                  .select_related("matchday").prefetch_related("lineups", "substitutions"))
    stored = defaultdict(set)
    for group_id, series in SeriesResult.objects.filter(
            group__in=groups).values_list("group_id", "series"):
        stored[group_id].add(series)
    for group in groups:
        if group.tournament_id is None:
            continue
        binding = is_binding(group.matchday, league.binding_after_days)
        _results_from_sheets(group, stored[group.pk] if binding else set())
    members = defaultdict(list)
    for group_id, team_id in GroupTeam.objects.filter(group__in=groups).values_list(
            "group_id", "team_id"):
        members[group_id].append(team_id)
    results = defaultdict(dict)
    for r in SeriesResult.objects.filter(group__in=groups):
        results[(r.group_id, r.series)][r.team_id] = r.total
    units = []
    for group in groups:
        series = [{team: results[(group.pk, s)].get(team) for team in members[group.pk]}
                  for s in sorted({s for g, s in results if g == group.pk})]
        if not series:
            continue
        if scoring.unit == DAY:
            day = day_totals(series)
            units.append(Unit(group.matchday_id, {t: day.get(t) for t in members[group.pk]}))
        else:
            units.extend(Unit(group.matchday_id, totals) for totals in series)
    teams = list(division.teams.values_list("pk", flat=True))
    lines = league_table(teams, units, scoring)
    numbers = dict(Matchday.objects.filter(division=division).values_list("pk", "number"))
    TableRow.objects.filter(division=division).delete()
    TableRow.objects.bulk_create(
        TableRow(division=division, team_id=line.team, position=position, rank=line.rank,
                 points=line.points, minus=line.minus, game_points=line.game_points,
                 matchdays=[{"matchday": mid, "number": numbers.get(mid), **figures}
                            for mid, figures in sorted(line.matchdays.items(),
                                                       key=lambda kv: numbers.get(kv[0], 0))])
        for position, line in enumerate(lines, start=1))
    LeagueOutbox.objects.filter(division=division, id__lte=upto).delete()
    state.computed_at = timezone.now()
    state.outbox_upto = upto
    state.recomputes += 1
    state.save()
