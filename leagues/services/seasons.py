"""Creating leagues (seasons), divisions and teams with their rosters (games.md §9.2, §9.6
no. 1).

A roster lists distinct players, at least the division's ``team_size``, at most
``max_substitutes`` substitutes; a player is on one team per league (season and game).
Every error names its field (``roster.2.player``) and is collected, so one answer names
every offending field; nothing is stored on an error.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clubs.models import Club, Player
from clubs.names import clean_name, name_key
from clubs.policies import runs_club
from clubs.services import player_create
from games.choices import game_name, league_game_keys
from games.engines import LeaguePlay, get_engine
from games.engines.base import is_int
from games.errors import Errors, UserError, user_error
from leagues.models import Division, League, LeagueTeam, RosterEntry
from leagues.scoring import scoring_of
from leagues.services.stale import division_mark_stale

MIN_YEAR, MAX_YEAR = 1900, 2999
MAX_LEVEL = 99
MIN_TEAM, MAX_TEAM = 2, 8
MAX_SUBSTITUTES = 20
MAX_SERIES = 8
MAX_MATCHDAYS = 30
MAX_BINDING_DAYS = 365
ROLES = ("regular", "substitute")


def _bounded(errors: Errors, name: str, value: Any, low: int, high: int) -> None:
    if not is_int(value) or not low <= value <= high:
        errors.add(name, _("Must be a whole number from %(min)s to %(max)s."), min=low, max=high)


@transaction.atomic
def league_create(*, name: str, game: str, year: int, user, rules: dict | None = None,
                  scoring: Any = None, club: Club | None = None,
                  binding_after_days: int | None = None) -> League:
    """A season; its creator directs it. ``UserError`` naming ``game``, ``year``,
    ``rules.*``, ``scoring.*`` or ``club`` (one must run the club a league names)."""
    errors = Errors()
    play = league_play(game)
    if play is None:
        errors.add("game", _("A league is played in %(games)s."),
                   games=" / ".join(game_name(key) for key in league_game_keys()))
    _bounded(errors, "year", year, MIN_YEAR, MAX_YEAR)
    if binding_after_days is not None:
        _bounded(errors, "binding_after_days", binding_after_days, 0, MAX_BINDING_DAYS)
    if club is not None and not runs_club(user, club):
        errors.add("club", _("Only the club's admins may name their club."))
    parsed = None
    try:
        parsed = scoring_of(scoring, play.preset if play else "dskv")
    except UserError as exc:
        errors.extend(exc.errors)
    if not errors.has("game"):
        try:
            get_engine(game).options(rules or {})
        except UserError as exc:
            errors.extend(e.at(deal=None, number=None, prefix="rules") for e in exc.errors)
    errors.raise_if_any()
    league = League.objects.create(
        name=name, game=game, year=year, rules=rules or {}, scoring=parsed.as_dict(), club=club,
        binding_after_days=14 if binding_after_days is None else binding_after_days)
    if user is not None and user.is_authenticated:
        league.directors.add(user)
    return league


@transaction.atomic
def division_create(*, league: League, name: str, level: int, series_per_matchday: int,
                    team_size: int = 4, min_players: int | None = None,
                    max_substitutes: int | None = None, matchdays: int = 5,
                    notes: str = "") -> Division:
    errors = Errors()
    _bounded(errors, "level", level, 1, MAX_LEVEL)
    _bounded(errors, "team_size", team_size, MIN_TEAM, MAX_TEAM)
    _bounded(errors, "series_per_matchday", series_per_matchday, 1, MAX_SERIES)
    _bounded(errors, "matchdays", matchdays, 1, MAX_MATCHDAYS)
    if max_substitutes is not None:
        _bounded(errors, "max_substitutes", max_substitutes, 0, MAX_SUBSTITUTES)
    if min_players is None and not errors.has("team_size"):
        # DSkV: a team of four may start with three; DDV: all four play
        min_players = team_size - league_play(league.game).may_miss
    elif min_players is not None:
        high = team_size if is_int(team_size) and MIN_TEAM <= team_size <= MAX_TEAM else MAX_TEAM
        _bounded(errors, "min_players", min_players, 1, high)
    errors.raise_if_any()
    return Division.objects.create(
        league=league, name=name, level=level, team_size=team_size, min_players=min_players,
        max_substitutes=max_substitutes, series_per_matchday=series_per_matchday,
        matchdays=matchdays, notes=notes)


def _clean_roster(division: Division, roster: Any, errors: Errors,
                  team: LeagueTeam | None) -> list[tuple[Player, str]]:
    if not isinstance(roster, list):
        errors.add("roster", _("A list of {player, role}."))
        return []
    ids = []
    for i, entry in enumerate(roster):
        if not isinstance(entry, dict):
            errors.add(f"roster.{i}", _("An object with player and role."))
            continue
        for key in entry:
            if key not in ("player", "role"):
                errors.add(f"roster.{i}.{str(key)[:40]}", _("Unknown field."))
        if not is_int(entry.get("player")) or not 1 <= entry["player"] <= 2**63 - 1:
            errors.add(f"roster.{i}.player", _("A player's id."))
        if entry.get("role", "regular") not in ROLES:
            errors.add(f"roster.{i}.role", _("Use “regular” or “substitute”."))
        ids.append(entry.get("player") if is_int(entry.get("player")) else None)
    players = Player.objects.in_bulk([pid for pid in ids if pid is not None])
    others = dict(RosterEntry.objects.filter(league=division.league, player_id__in=players)
                  .exclude(team=team).values_list("player_id", "team__name"))
    seen: set[int] = set()
    result = []
    for i, pid in enumerate(ids):
        if pid is None or errors.has(f"roster.{i}") or errors.has(f"roster.{i}.player"):
            continue
        if pid not in players:
            errors.add(f"roster.{i}.player", _("There is no player %(player)s."), player=pid)
        elif pid in seen:
            errors.add(f"roster.{i}.player", _("Player %(player)s is on the roster twice."),
                       player=players[pid].name)
        elif pid in others:
            errors.add(f"roster.{i}.player",
                       _("Player %(player)s already plays for “%(team)s” this season."),
                       player=players[pid].name, team=others[pid])
        else:
            result.append((players[pid], roster[i].get("role", "regular")))
        seen.add(pid)
    if len(roster) < division.team_size:
        errors.add("roster", _("A roster lists at least %(size)s players."),
                   size=division.team_size)
    substitutes = sum(1 for entry in roster
                      if isinstance(entry, dict) and entry.get("role") == "substitute")
    if division.max_substitutes is not None and substitutes > division.max_substitutes:
        errors.add("roster", _("At most %(max)s substitutes."), max=division.max_substitutes)
    return result


def _clean_captain(captain: Any, roster: list[tuple[Player, str]], errors: Errors) -> Player | None:
    if captain is None:
        return None
    if not is_int(captain) or captain not in {p.pk for p, _role in roster}:
        if not errors.has("roster"):
            errors.add("captain", _("The captain must be a player of the roster."))
        return None
    return next(p for p, _role in roster if p.pk == captain)


def _store_roster(team: LeagueTeam, roster: list[tuple[Player, str]]) -> None:
    team.roster.all().delete()
    RosterEntry.objects.bulk_create(
        RosterEntry(team=team, league_id=team.division.league_id, player=player, role=role)
        for player, role in roster)


def _name_taken(division: Division, name: str, team: LeagueTeam | None) -> bool:
    return division.teams.filter(name=name).exclude(pk=team.pk if team else None).exists()


@transaction.atomic
def team_create(*, division: Division, name: str, club: Club, roster: Any,
                captain: Any = None) -> LeagueTeam:
    errors = Errors()
    if _name_taken(division, name, None):
        errors.add("name", _("This division already has a team of this name."))
    cleaned = _clean_roster(division, roster, errors, None)
    chosen = _clean_captain(captain, cleaned, errors)
    errors.raise_if_any()
    team = LeagueTeam.objects.create(division=division, name=name, club=club, captain=chosen)
    _store_roster(team, cleaned)
    division_mark_stale(division.pk)
    return team


@transaction.atomic
def team_update(*, team: LeagueTeam, fields: dict[str, Any]) -> LeagueTeam:
    """Change a team: any of ``name``, ``club``, ``captain``, ``roster`` (replaced as a
    whole) and ``withdrawn_on`` (a date or None)."""
    team = LeagueTeam.objects.select_for_update().select_related("division__league").get(
        pk=team.pk)
    division = team.division
    errors = Errors()
    if "name" in fields and _name_taken(division, fields["name"], team):
        errors.add("name", _("This division already has a team of this name."))
    if "roster" in fields:
        cleaned = _clean_roster(division, fields["roster"], errors, team)
    else:
        cleaned = [(e.player, e.role) for e in team.roster.select_related("player")]
    captain = fields.get("captain", team.captain_id)
    chosen = _clean_captain(captain, cleaned, errors)
    withdrawn = fields.get("withdrawn_on", team.withdrawn_on)
    if withdrawn is not None and not isinstance(withdrawn, datetime.date):
        errors.add("withdrawn_on", _("A date or null."))
    errors.raise_if_any()
    for key in ("name", "club"):
        if key in fields:
            setattr(team, key, fields[key])
    team.captain = chosen
    team.withdrawn_on = withdrawn
    team.save()
    if "roster" in fields:
        _store_roster(team, cleaned)
    division_mark_stale(division.pk)
    return team


def league_play(game: object) -> LeaguePlay | None:
    """How ``game``'s league is played (``Engine.league``); None for a game without one
    (or no game)."""
    return get_engine(game).league if game in league_game_keys() else None


def check_league_id(value: Any, field: str) -> int:
    if not is_int(value) or not 1 <= value <= 2**63 - 1:
        raise user_error(field, _("An id."))
    return value


def _names(text: str) -> list[str]:
    return [clean_name(line) for line in (text or "").splitlines() if clean_name(line)]


def _roster_from_names(club: Club, regulars: str, substitutes: str, user) -> list[dict]:
    """A roster given as names, one per line (the console's forms): each name is the
    club's player of that name, or a new player of the club."""
    known = {name_key(p.name): p for p in club.players.all()}
    roster = []
    for role, text in (("regular", regulars), ("substitute", substitutes)):
        for entry in _names(text):
            player = known.get(name_key(entry))
            if player is None:
                player = player_create(name=entry, club=club, created_by=user)
                known[name_key(entry)] = player
            roster.append({"player": player.pk, "role": role})
    return roster


@transaction.atomic
def team_create_from_names(*, division: Division, name: str, club: Club, regulars: str,
                           substitutes: str = "", user=None) -> LeagueTeam:
    """A team whose roster is given as names (``_roster_from_names``)."""
    roster = _roster_from_names(club, regulars, substitutes, user)
    return team_create(division=division, name=name, club=club, roster=roster)


@transaction.atomic
def team_update_from_names(*, team: LeagueTeam, name: str, club: Club, regulars: str,
                           substitutes: str = "", captain: str = "",
                           withdrawn_on: datetime.date | None = None,
                           user=None) -> LeagueTeam:
    """The console's change of a team: its roster as names (``_roster_from_names``), its
    captain by name (one of the roster; empty: none) and its withdrawal date. The
    checks are ``team_update``'s; a refusal stores nothing (new players included)."""
    roster = _roster_from_names(club, regulars, substitutes, user)
    captain_id = None
    if captain.strip():
        names = {name_key(p.name): p.pk for p in Player.objects.filter(
            pk__in=[entry["player"] for entry in roster])}
        captain_id = names.get(name_key(clean_name(captain)))
        if captain_id is None:
            raise user_error("captain", _("The captain must be one of the team's players."))
    return team_update(team=team, fields={
        "name": name, "club": club, "roster": roster, "captain": captain_id,
        "withdrawn_on": withdrawn_on})
