"""Teams of a tournament's team ranking (games.md §6): create, rename, change, remove.

Rules the director would expect:

- A team has a name (1 to 80 characters, unique in the tournament) and at most the
  tournament's ``team_size`` members; a participant belongs to at most one team.
  Naming a participant who is in another team is refused (400 on ``members.<i>``):
  moving someone is taking him out of one team and putting him into the other.
- Before the first round is drawn, members move freely. From then on a member stays in
  his team (his rounds count for it): taking him out, or removing a team with members,
  is a ``StateConflict``. A participant in no team (a late registration, a team short
  of players) may still join a team that has room.
- A withdrawn participant stays in his team and keeps the figures of the rounds played.
- Every change is written to ``TeamEvent`` with the team before and after.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from clubs.names import name_key
from clubs.uniques import unique_errors
from games.engines.base import is_int
from games.errors import FieldError, UserError
from tournaments.errors import StateConflict
from tournaments.models import Participant, Team, TeamEvent, Tournament
from tournaments.services.actors import Actor
from tournaments.services.lifecycle import lock_open_tournament
from tournaments.text_checks import control_characters, storable

NAME_MAX = 80
MAX_ID = 2**63 - 1


def _snapshot(team: Team) -> dict[str, Any]:
    return {"name": team.name,
            "members": sorted(team.members.values_list("pk", flat=True))}


def _log(team: Team, action: str, actor: Actor | None, before, after) -> None:
    TeamEvent.objects.create(tournament_id=team.tournament_id, team_id_at_time=team.pk,
                             action=action, before=before, after=after,
                             user=actor.user if actor is not None and actor.is_staff else None)


def _clean_name(tournament: Tournament, name: Any, errors: list[FieldError],
                team: Team | None = None) -> str | None:
    if not isinstance(name, str) or not name.strip():
        errors.append(FieldError("name", _("Give the team a name.")))
        return None
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        errors.append(FieldError("name", _("At most %(max)s characters."), {"max": NAME_MAX}))
        return None
    if not storable(name) or control_characters(name):
        errors.append(FieldError("name", _("Contains characters that cannot be stored.")))
        return None
    clash = tournament.teams.filter(name__iexact=name)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    if clash.exists():
        errors.append(FieldError("name", _("Another team of this tournament has this name.")))
        return None
    return name


def _clean_members(tournament: Tournament, members: Any, errors: list[FieldError],
                   team: Team | None = None) -> list[Participant] | None:
    if not isinstance(members, list):
        errors.append(FieldError("members", _("Must be a list of participant ids.")))
        return None
    if len(members) > tournament.team_size:
        errors.append(FieldError("members", _("A team has at most %(size)s members in this "
                                              "tournament."), {"size": tournament.team_size}))
        return None
    ids = [pid for pid in members if _an_id(pid)]
    found = {p.pk: p for p in Participant.objects.filter(tournament=tournament, pk__in=ids)
             .select_related("player", "team")}
    out: list[Participant] = []
    for i, pid in enumerate(members):
        where = f"members.{i}"
        participant = found.get(pid) if _an_id(pid) else None
        if participant is None:
            errors.append(FieldError(where, _("Not a participant of this tournament.")))
        elif participant in out:
            errors.append(FieldError(where, _("Participant %(participant)s is named twice."),
                                     {"participant": pid}))
        elif participant.team_id is not None and (team is None or participant.team_id != team.pk):
            errors.append(FieldError(where, _("%(name)s is already in the team “%(team)s”; "
                                              "take him out of it first."),
                                     {"name": participant.player.name,
                                      "team": participant.team.name}))
        else:
            out.append(participant)
    return out


def _an_id(value: Any) -> bool:
    """A whole number a database key can hold (larger ones would not reach the query)."""
    return is_int(value) and 0 < value <= MAX_ID


def _drawn(tournament: Tournament) -> bool:
    return tournament.rounds.exists()


@transaction.atomic
def team_create(*, tournament_id: int, name: Any, members: Any = None,
                actor: Actor | None = None) -> Team:
    """A new team of the tournament (``UserError`` naming ``name`` or
    ``members.<i>``; nothing stored)."""
    tournament = lock_open_tournament(tournament_id)
    errors: list[FieldError] = []
    clean_name = _clean_name(tournament, name, errors)
    people = _clean_members(tournament, [] if members is None else members, errors)
    if errors:
        raise UserError(errors)
    with unique_errors(Team):  # the lock above makes the check exact; this is the net
        team = Team.objects.create(tournament=tournament, name=clean_name)
    Participant.objects.filter(pk__in=[p.pk for p in people]).update(team=team)
    _log(team, TeamEvent.Action.CREATE, actor, None, _snapshot(team))
    return team


@transaction.atomic
def team_update(*, team_id: int, fields: dict[str, Any], actor: Actor | None = None) -> Team:
    """Rename a team (``fields["name"]``) and/or set its members (``fields["members"]``:
    the whole list); any other field is refused. After the first round a member cannot be
    taken out (``StateConflict``)."""
    team = Team.objects.select_related("tournament").get(pk=team_id)
    tournament = lock_open_tournament(team.tournament_id)
    errors: list[FieldError] = []
    for key in fields:
        if key not in ("name", "members"):
            errors.append(FieldError(str(key), _("Unknown field; only %(fields)s can be "
                                                 "changed."), {"fields": "name, members"}))
    clean_name = (_clean_name(tournament, fields["name"], errors, team)
                  if "name" in fields else team.name)
    people = (_clean_members(tournament, fields["members"], errors, team)
              if "members" in fields else None)
    if errors:
        raise UserError(errors)
    before = _snapshot(team)
    if people is not None:
        keep = {p.pk for p in people}
        leaving = [pid for pid in before["members"] if pid not in keep]
        if leaving and _drawn(tournament):
            raise StateConflict(_("Members stay in their team once the first round is "
                                  "drawn; only players in no team can still join."))
        Participant.objects.filter(team=team).exclude(pk__in=keep).update(team=None)
        Participant.objects.filter(pk__in=keep).update(team=team)
    team.name = clean_name
    with unique_errors(Team):
        team.save()
    after = _snapshot(team)
    if after != before:
        _log(team, TeamEvent.Action.UPDATE, actor, before, after)
    return team


@transaction.atomic
def team_delete(*, team_id: int, actor: Actor | None = None) -> None:
    """Remove a team (its members are then in no team). A team with members cannot be
    removed once the first round is drawn (``StateConflict``)."""
    team = Team.objects.get(pk=team_id)
    tournament = lock_open_tournament(team.tournament_id)
    before = _snapshot(team)
    if before["members"] and _drawn(tournament):
        raise StateConflict(_("A team with members stays once the first round is drawn."))
    _log(team, TeamEvent.Action.DELETE, actor, before, None)
    team.members.update(team=None)
    team.delete()



def _import_line(number: int, raw: str, by_start: dict, by_name: dict,
                 errors: list[FieldError]) -> tuple[str, Participant] | None:
    parts = [" ".join(part.split()) for part in raw.replace("\t", ";").split(";")]
    if len(parts) != 2 or not parts[0] or not parts[1]:
        errors.append(FieldError("lines", _("Line %(line)s: write the team, a semicolon and "
                                            "the player (start number or name)."),
                                 {"line": number}))
        return None
    team_name, player = parts
    if len(team_name) > NAME_MAX or not storable(team_name):
        errors.append(FieldError("lines", _("Line %(line)s: the team's name has at most "
                                            "%(max)s characters."),
                                 {"line": number, "max": NAME_MAX}))
        return None
    matches = ([by_start[player]] if player in by_start
               else by_name.get(name_key(player), []))
    if len(matches) != 1:
        message = (_("Line %(line)s: “%(player)s” is not a participant of this tournament.")
                   if not matches else
                   _("Line %(line)s: several participants are called “%(player)s”; give the "
                     "start number."))
        errors.append(FieldError("lines", message, {"line": number, "player": player}))
        return None
    return team_name, matches[0]


@transaction.atomic
def teams_import(*, tournament_id: int, text: str, actor: Actor | None = None) -> list[Team]:
    """Teams from ``team;player`` lines (the player by start number or name): a new team
    name makes a team, a known one adds to it. All or nothing: every bad line is named
    (``UserError`` on ``lines``), and nothing is stored."""
    tournament = lock_open_tournament(tournament_id)
    people = list(Participant.objects.filter(tournament=tournament)
                  .select_related("player", "team"))
    by_start = {str(p.start_number): p for p in people}
    by_name: dict[str, list[Participant]] = {}
    for person in people:
        by_name.setdefault(name_key(person.player.name), []).append(person)
    existing = {team.name.casefold(): team for team in tournament.teams.all()}
    plan: dict[str, tuple[str, list[Participant]]] = {}
    errors: list[FieldError] = []
    seen: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        read = _import_line(number, raw, by_start, by_name, errors)
        if read is None:
            continue
        team_name, person = read
        key = team_name.casefold()
        current = person.team.name.casefold() if person.team_id else None
        if person.pk in seen:
            errors.append(FieldError("lines", _("Line %(line)s: %(name)s is named already in "
                                                "line %(first)s."),
                                     {"line": number, "name": person.player.name,
                                      "first": seen[person.pk]}))
            continue
        seen[person.pk] = number
        if current is not None and current != key:
            errors.append(FieldError("lines", _("Line %(line)s: %(name)s is already in the "
                                                "team “%(team)s”."),
                                     {"line": number, "name": person.player.name,
                                      "team": person.team.name}))
            continue
        if current != key:
            plan.setdefault(key, (team_name, []))[1].append(person)
    for key, (name, joining) in plan.items():
        had = existing[key].members.count() if key in existing else 0
        if had + len(joining) > tournament.team_size:
            errors.append(FieldError("lines", _("The team “%(team)s” would have %(count)s "
                                                "members; at most %(size)s."),
                                     {"team": name, "count": had + len(joining),
                                      "size": tournament.team_size}))
    if errors:
        raise UserError(errors)
    out = []
    for key, (name, joining) in plan.items():
        team = existing.get(key)
        before = _snapshot(team) if team is not None else None
        if team is None:
            with unique_errors(Team):
                team = Team.objects.create(tournament=tournament, name=name)
        Participant.objects.filter(pk__in=[p.pk for p in joining]).update(team=team)
        team.save()
        _log(team, TeamEvent.Action.UPDATE if before else TeamEvent.Action.CREATE, actor,
             before, _snapshot(team))
        out.append(team)
    return out
