"""Matchdays, their groups and hosts, line-ups, substitutions, series draws and paper
results (games.md §9.2, §9.3, §9.6 nos. 2–4).

- A matchday's groups partition the division's teams that have not withdrawn; without
  groups the schedule of §9.3 is used where it applies (4, 16, 64… teams, matchday
  number within the schedule). A decentral matchday names a host per group (chosen by
  ``leagues.schedule.assign_hosts`` when not given), a central one none.
- A line-up takes players from the team's roster, each once, ``min_players`` to
  ``team_size`` of them (none: the team does not appear); a team that sent none plays
  with its roster in order, regulars first. It is fixed once the first series is
  drawn; then substitutions put another roster player at a position from the next
  series on, and a replaced player does not return that day.
- Drawing a series: the first draw makes the group's tournament (one round per series,
  the line-ups' players as participants, the league teams as its teams) and the day's
  plan from the line-ups (``leagues.schedule.group_plan``); every draw seats the next
  series by that plan (``tournaments.services.round_seat``). More series than the
  division plays are refused (400 on ``series``).
- Paper results: the series totals per player of a group played without the app.
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clubs.models import Player
from games.engines import get_engine
from games.engines.base import is_int
from games.errors import Errors, StateConflict, UserError, user_error
from leagues.models import (
    Division,
    Group,
    GroupTeam,
    LeagueTeam,
    LineUp,
    Matchday,
    RosterEntry,
    SeriesResult,
    Substitution,
)
from leagues.schedule import assign_hosts, group_plan, group_schedule, schedule_power
from leagues.services.seasons import league_play
from leagues.services.stale import division_mark_stale
from leagues.services.table_rows import is_binding, occupants
from tournaments.models import Participant, Round
from tournaments.models import Team as TournamentTeam
from tournaments.services import participant_add, round_seat, tournament_create

MAX_SCORE = 1_000_000
MAX_GROUPS = 200


def _active_teams(division: Division) -> list[int]:
    return list(division.teams.filter(withdrawn_on__isnull=True).order_by("id")
                .values_list("pk", flat=True))


def _scheduled_groups(division: Division, number: int, teams: list[int]) -> list[list[int]]:
    k = schedule_power(len(teams))
    schedule = group_schedule(len(teams)) if k is not None else []
    if number > len(schedule):
        raise user_error("groups", _("Enter the groups: the schedule of 4, 16, 64… teams "
                                     "does not apply to %(count)s teams on matchday "
                                     "%(number)s."), count=len(teams), number=number)
    return [[teams[n - 1] for n in group] for group in schedule[number - 1]]


def _check_groups(division: Division, groups: Any, teams: list[int], errors: Errors) -> None:
    game = division.league.game
    if not isinstance(groups, list) or not groups or len(groups) > MAX_GROUPS:
        errors.add("groups", _("A list of groups, each a list of team ids."))
        return
    seen: dict[int, int] = {}
    for i, group in enumerate(groups):
        if not isinstance(group, list) or not all(is_int(t) for t in group):
            errors.add(f"groups.{i}", _("A list of team ids."))
            continue
        low, high = league_play(game).group_sizes
        if not low <= len(group) <= high:
            errors.add(f"groups.{i}", _("A group has %(low)s to %(high)s teams.")
                       if low != high else _("A group has %(low)s teams."), low=low, high=high)
        for team in group:
            if team not in teams:
                errors.add(f"groups.{i}", _("Team %(team)s is not an active team of this "
                                            "division."), team=team)
            elif team in seen:
                errors.add(f"groups.{i}", _("Team %(team)s is in more than one group."),
                           team=team)
            seen[team] = i
    missing = [t for t in teams if t not in seen]
    if missing and not errors.has("groups"):
        errors.add("groups", _("The groups must hold every active team of the division; "
                               "missing: %(teams)s."), teams=", ".join(map(str, missing)))


def _default_hosts(division: Division, number: int, groups: list[list[int]],
                   teams: list[int]) -> list[int]:
    hosted = list(Group.objects.filter(matchday__division=division, host__isnull=False)
                  .values_list("host_id", flat=True))
    days = [groups]
    if schedule_power(len(teams)) is not None:
        schedule = group_schedule(len(teams))
        # the later matchdays of the schedule but the last (central) may host too
        days += [[[teams[n - 1] for n in g] for g in day]
                 for day in schedule[number:max(number, division.matchdays - 1)]]
    return assign_hosts(days, hosted)[0]


@transaction.atomic
def matchday_create(*, division: Division, number: Any, date: datetime.date, kind: str,
                    venue_name: str = "", venue_address: str = "", groups: Any = None,
                    hosts: Any = None, double_with: Any = None) -> Matchday:
    division = Division.objects.select_for_update().select_related("league").get(
        pk=division.pk)
    errors = Errors()
    if not is_int(number) or not 1 <= number <= division.matchdays:
        errors.add("number", _("Must be a whole number from %(min)s to %(max)s."), min=1,
                   max=division.matchdays)
    elif division.matchday_set.filter(number=number).exists():
        errors.add("number", _("Matchday %(number)s exists already."), number=number)
    partner = None
    if double_with is not None:
        partner = division.matchday_set.filter(pk=double_with).first() if is_int(
            double_with) else None
        if partner is None:
            errors.add("double_with", _("Not a matchday of this division."))
    teams = _active_teams(division)
    if groups is None and not errors.has("number"):
        try:
            groups = _scheduled_groups(division, number, teams)
        except UserError as exc:
            errors.extend(exc.errors)
            groups = None
    if groups is not None:
        _check_groups(division, groups, teams, errors)
    if kind == Matchday.Kind.CENTRAL and hosts:
        errors.add("hosts", _("A central matchday has no hosts."))
    if kind == Matchday.Kind.DECENTRAL and hosts is not None and not errors.has("groups") \
            and groups is not None:
        if not isinstance(hosts, list) or len(hosts) != len(groups):
            errors.add("hosts", _("One host per group."))
        else:
            for i, (host, group) in enumerate(zip(hosts, groups, strict=True)):
                if host not in group:
                    errors.add(f"hosts.{i}", _("The host must be a team of its group."))
    errors.raise_if_any()
    if kind == Matchday.Kind.DECENTRAL and hosts is None:
        hosts = _default_hosts(division, number, groups, teams)
    matchday = Matchday.objects.create(
        division=division, number=number, date=date, kind=kind, venue_name=venue_name,
        venue_address=venue_address, double_with=partner)
    for g, group in enumerate(groups, start=1):
        row = Group.objects.create(matchday=matchday, number=g,
                                   host_id=hosts[g - 1] if kind == "decentral" else None)
        GroupTeam.objects.bulk_create(GroupTeam(group=row, team_id=t, order=i)
                                      for i, t in enumerate(group))
    return matchday


def _group_for_update(group: Group) -> Group:
    return (Group.objects.select_for_update().select_related("matchday__division__league")
            .get(pk=group.pk))


def _series_drawn(group: Group) -> int:
    if group.tournament_id is None:
        return 0
    return Round.objects.filter(tournament_id=group.tournament_id).count()


def _roster(team: LeagueTeam) -> dict[int, str]:
    """The team's roster: each player's name by id (an error names the player)."""
    return dict(team.roster.values_list("player_id", "player__name"))


def player_named(player: Any, names: dict[int, str] | None = None) -> str:
    """A player in an error: the name (from ``names`` or the database), else the id as
    given, cut short."""
    if is_int(player) and 1 <= player <= 2**63 - 1:
        name = (names or {}).get(player) or (
            Player.objects.filter(pk=player).values_list("name", flat=True).first())
        if name:
            return name
    return str(player)[:20]


@transaction.atomic
def lineup_set(*, group: Group, team: LeagueTeam, positions: Any) -> LineUp:
    group = _group_for_update(group)
    division = group.matchday.division
    if _series_drawn(group):
        raise StateConflict(_("The first series is drawn: the line-up is fixed for the day; "
                              "make substitutions instead."))
    errors = Errors()
    if not isinstance(positions, list) or len(positions) != division.team_size:
        # one entry per position, so that a short or empty list never clears a line-up
        raise user_error("positions", _("A list of exactly %(size)s entries, a player or "
                                        "null for each position (all null: the team does "
                                        "not appear)."), size=division.team_size)
    roster = _roster(team)
    seen: set[int] = set()
    for i, player in enumerate(positions):
        if player is None:
            continue
        if not is_int(player) or player not in roster:
            errors.add(f"positions.{i}", _("Player %(player)s is not on the roster of "
                                           "“%(team)s”."), player=player_named(player),
                       team=team.name)
        elif player in seen:
            errors.add(f"positions.{i}", _("Player %(player)s is in the line-up twice."),
                       player=roster[player])
        seen.add(player)
    count = sum(1 for p in positions if p is not None)
    if 0 < count < division.min_players:
        errors.add("positions", _("A line-up has %(min)s to %(max)s players (none: the team "
                                  "does not appear)."), min=division.min_players,
                   max=division.team_size)
    errors.raise_if_any()
    lineup, _created = LineUp.objects.update_or_create(group=group, team=team,
                                                       defaults={"positions": positions})
    return lineup


def _present(group: Group, order: list[int], size: int, minimum: int) -> list[int]:
    """The teams (ids, in the group's order) whose line-up fields at least ``minimum``."""
    lineups = {lu.team_id: lu.positions for lu in group.lineups.all()}
    return [t for t in order
            if sum(1 for p in lineups.get(t, []) if p is not None) >= minimum]


def _default_lineups(group: Group, order: list[int], size: int) -> None:
    """A team without a line-up at the first draw plays with its roster in order,
    regulars first (an empty line-up, sent on purpose, keeps a team out)."""
    sent = set(group.lineups.values_list("team_id", flat=True))
    for team_id in order:
        if team_id in sent:
            continue
        roster = list(RosterEntry.objects.filter(team_id=team_id).order_by("id")
                      .values_list("player_id", "role"))
        players = [p for p, role in roster if role == "regular"]
        players += [p for p, role in roster if role != "regular"]
        chosen = players[:size]
        LineUp.objects.create(group=group, team_id=team_id,
                              positions=chosen + [None] * (size - len(chosen)))


def _make_tournament(group: Group, present: list[int]) -> None:
    matchday = group.matchday
    division = matchday.division
    league = division.league
    host_club = (LeagueTeam.objects.filter(pk=group.host_id).values_list("club_id", flat=True)
                 .first())
    tournament = tournament_create(
        name=f"{league.name} {league.year} · {division.name} · {matchday.number}/{group.number}",
        game=league.game, rules=league.rules, date=matchday.date, published=True,
        club=league.club if host_club is None else LeagueTeam.objects.get(
            pk=group.host_id).club,
        rounds_planned=division.series_per_matchday, team_size=division.team_size)
    tournament.directors.add(*league.directors.all())
    group.tournament = tournament
    group.save(update_fields=["tournament"])
    names = dict(LeagueTeam.objects.filter(pk__in=present).values_list("pk", "name"))
    for team_id in present:
        lineup = group.lineups.get(team_id=team_id)
        t_team = TournamentTeam.objects.create(tournament=tournament, name=names[team_id][:80])
        for player in lineup.positions:
            if player is not None:
                p = participant_add(tournament=tournament, player=Player.objects.get(pk=player))
                Participant.objects.filter(pk=p.pk).update(team=t_team)


def _participant(group: Group, team_id: int, player_id: int) -> int:
    found = (Participant.objects.filter(tournament_id=group.tournament_id, player_id=player_id)
             .values_list("pk", flat=True).first())
    if found is not None:
        return found
    p = participant_add(tournament=group.tournament, player=Player.objects.get(pk=player_id))
    t_team = TournamentTeam.objects.filter(
        tournament_id=group.tournament_id,
        name=LeagueTeam.objects.get(pk=team_id).name[:80]).first()
    Participant.objects.filter(pk=p.pk).update(team=t_team)
    return p.pk


@transaction.atomic
def series_draw(*, group: Group) -> Round:
    """Seat the group's next series (see the module's docstring)."""
    group = _group_for_update(group)
    division = group.matchday.division
    drawn = _series_drawn(group)
    if drawn >= division.series_per_matchday:
        raise user_error("series", _("This matchday has %(count)s series per group; all are "
                                     "drawn."), count=division.series_per_matchday)
    if group.results.filter(source=SeriesResult.Source.PAPER).exists():
        raise StateConflict(_("This group's results were entered from paper."))
    if drawn == 0:
        order = list(group.members.values_list("team_id", flat=True))
        _default_lineups(group, order, division.team_size)
        present = _present(group, order, division.team_size, division.min_players)
        if len(present) < 2:
            raise user_error("lineups", _("At least two teams need a line-up of %(min)s "
                                          "players or more."), min=division.min_players)
        lineups = {lu.team_id: lu.positions for lu in group.lineups.all()}
        matrix = [[p is not None for p in lineups[t]] for t in present]
        engine = get_engine(division.league.game)
        sizes = engine.seating_sizes(engine.options(division.league.rules)).sizes
        seed = secrets.randbits(63)
        kind, plan = group_plan(matrix, division.series_per_matchday, sizes,
                                random.Random(seed))
        group.plan = {"kind": kind, "teams": present,
                      "series": [[[list(slot) for slot in table] for table in tables]
                                 for tables in plan]}
        group.seed = seed
        group.save(update_fields=["plan", "seed"])
        _make_tournament(group, present)
    number = drawn + 1
    seated = occupants(group, number)
    teams = group.plan["teams"]
    tables = []
    for table in group.plan["series"][number - 1]:
        members = [_participant(group, teams[t], seated[(teams[t], p + 1)])
                   for t, p in table if (teams[t], p + 1) in seated]
        if members:
            tables.append(members)
    return round_seat(tournament_id=group.tournament_id, tables=tables, seed=group.seed)


@transaction.atomic
def substitution_add(*, group: Group, team: Any, position: Any, player: Any) -> Substitution:
    group = _group_for_update(group)
    division = group.matchday.division
    drawn = _series_drawn(group)
    if drawn == 0:
        raise StateConflict(_("No series is drawn yet: change the line-up instead."))
    if drawn >= division.series_per_matchday:
        raise StateConflict(_("Every series of this matchday is drawn."))
    errors = Errors()
    teams = (group.plan or {}).get("teams", [])
    if team not in list(group.members.values_list("team_id", flat=True)):
        raise user_error("team", _("Not a team of this group."))
    if team not in teams:
        raise user_error("team", _("This team did not appear on this matchday."))
    if not is_int(position) or not 1 <= position <= division.team_size:
        errors.add("position", _("Must be a whole number from %(min)s to %(max)s."), min=1,
                   max=division.team_size)
    elif not any(teams[t] == team and p + 1 == position
                 for table in group.plan["series"][drawn] for t, p in table):
        errors.add("position", _("The day's seating plan has no seat for this position."))
    roster_entry = (RosterEntry.objects.filter(team_id=team, player_id=player).first()
                    if is_int(player) else None)
    seated = occupants(group, drawn + 1)
    played = set(LineUp.objects.filter(group=group, team_id=team)
                 .values_list("positions", flat=True).first() or [])
    played |= set(group.substitutions.filter(team_id=team).values_list("player_id", flat=True))
    if roster_entry is None:
        errors.add("player", _("Player %(player)s is not on the roster of this team."),
                   player=player_named(player))
    elif player in {pl for (t, _p), pl in seated.items() if t == team}:
        errors.add("player", _("Player %(player)s is already playing for this team."),
                   player=player_named(player))
    elif player in played:
        errors.add("player", _("A replaced player does not return on the same matchday."))
    errors.raise_if_any()
    sub = Substitution.objects.create(group=group, team_id=team, position=position,
                                      player_id=player, from_series=drawn + 1,
                                      replaced_id=seated.get((team, position)))
    return sub


def _objects(items: list, at: str, keys: set[str], message: str,
             errors: Errors) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """The entries of the list ``items`` (at path ``at``) that are objects of no other fields
    than ``keys``, each with its index and path; each other entry is an error, ``message``."""
    for index, item in enumerate(items):
        where = f"{at}.{index}"
        if isinstance(item, dict) and not set(item) - keys:
            yield index, where, item
        else:
            errors.add(where, message)


def _check_paper(group: Group, series: Any, errors: Errors) -> list[SeriesResult]:
    division = group.matchday.division
    count = division.series_per_matchday
    if not isinstance(series, list) or len(series) != count:
        errors.add("series", _("Give the %(count)s series of the matchday."), count=count)
        return []
    members = set(group.members.values_list("team_id", flat=True))
    rosters: dict[int, set[int]] = {}
    for team_id, player_id in RosterEntry.objects.filter(team_id__in=members).values_list(
            "team_id", "player_id"):
        rosters.setdefault(team_id, set()).add(player_id)
    rows, numbers = [], set()
    for _i, at, item in _objects(series, "series", {"number", "teams"},
                                 _("An object with number and teams."), errors):
        number = item.get("number")
        if not is_int(number) or not 1 <= number <= count or number in numbers:
            errors.add(f"{at}.number", _("Series 1 to %(count)s, each once."), count=count)
            continue
        numbers.add(number)
        teams = item.get("teams")
        if not isinstance(teams, list):
            errors.add(f"{at}.teams", _("A list of teams with their players' scores."))
            continue
        seen_teams = set()
        for _j, where, entry in _objects(teams, f"{at}.teams", {"team", "players"},
                                         _("An object with team and players."), errors):
            team = entry.get("team")
            if team not in members or team in seen_teams:
                errors.add(f"{where}.team", _("A team of this group, each once."))
                continue
            seen_teams.add(team)
            players = entry.get("players")
            if not isinstance(players, list) or len(players) > division.team_size:
                errors.add(f"{where}.players", _("At most %(size)s players with their scores."),
                           size=division.team_size)
                continue
            cleaned, seen_players = [], set()
            for k, pat, p in _objects(players, f"{where}.players", {"player", "score"},
                                      _("An object with player and score."), errors):
                if p.get("player") not in rosters.get(team, set()) \
                        or p.get("player") in seen_players:
                    errors.add(f"{pat}.player", _("A player of the team's roster, each once."))
                    continue
                seen_players.add(p["player"])
                score = p.get("score")
                if not is_int(score) or not -MAX_SCORE <= score <= MAX_SCORE:
                    errors.add(f"{pat}.score", _("Must be a whole number from %(min)s to "
                                                 "%(max)s."), min=-MAX_SCORE, max=MAX_SCORE)
                    continue
                cleaned.append({"player": p["player"], "position": k + 1, "score": score})
            if 0 < len(players) < division.min_players:
                errors.add(f"{where}.players", _("A team plays with %(min)s to %(max)s players "
                                                 "(none: it did not appear)."),
                           min=division.min_players, max=division.team_size)
            if cleaned and len(cleaned) == len(players):
                rows.append(SeriesResult(group=group, series=number, team_id=team,
                                         total=sum(p["score"] for p in cleaned),
                                         players=cleaned, source=SeriesResult.Source.PAPER))
    return rows


@transaction.atomic
def results_record(*, group: Group, series: Any) -> list[SeriesResult]:
    """Key in a paper matchday: replaces the group's series results."""
    group = _group_for_update(group)
    league = group.matchday.division.league
    if _series_drawn(group):
        raise StateConflict(_("This group is played on the app: its results come from "
                              "its sheets."))
    if group.results.exists() and is_binding(group.matchday, league.binding_after_days):
        raise StateConflict(_("The results of matchday %(number)s are binding; a director "
                              "must reopen it first."), number=group.matchday.number)
    errors = Errors()
    rows = _check_paper(group, series, errors)
    errors.raise_if_any()
    group.results.all().delete()
    SeriesResult.objects.bulk_create(rows)
    division_mark_stale(group.matchday.division_id)
    return rows


@transaction.atomic
def matchday_reopen(*, matchday: Matchday, reopened: bool) -> Matchday:
    """Reopen a matchday's binding results for corrections (``reopened`` True), or
    make them binding again (False)."""
    matchday = Matchday.objects.select_for_update().get(pk=matchday.pk)
    if matchday.reopened == reopened:
        raise StateConflict(_("Matchday %(number)s is already reopened.") if reopened
                            else _("Matchday %(number)s is not reopened."),
                            number=matchday.number)
    matchday.reopened = reopened
    matchday.save(update_fields=["reopened"])
    division_mark_stale(matchday.division_id)
    return matchday
