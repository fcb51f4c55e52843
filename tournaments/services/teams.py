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

from games.engines.base import EngineUserError, FieldError, is_int
from tournaments.errors import StateConflict
from tournaments.models import Participant, Team, TeamEvent, Tournament
from tournaments.services.actors import Actor
from tournaments.services.lifecycle import check_not_finished
from tournaments.text_checks import storable

NAME_MAX = 80


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
    if not storable(name):
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
    ids = [pid for pid in members if is_int(pid)]
    found = {p.pk: p for p in Participant.objects.filter(tournament=tournament, pk__in=ids)
             .select_related("player", "team")}
    out: list[Participant] = []
    for i, pid in enumerate(members):
        where = f"members.{i}"
        participant = found.get(pid) if is_int(pid) else None
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


def _drawn(tournament: Tournament) -> bool:
    return tournament.rounds.exists()


def _locked_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    check_not_finished(tournament)
    return tournament


@transaction.atomic
def team_create(*, tournament_id: int, name: Any, members: Any = None,
                actor: Actor | None = None) -> Team:
    """A new team of the tournament (``EngineUserError`` naming ``name`` or
    ``members.<i>``; nothing stored)."""
    tournament = _locked_tournament(tournament_id)
    errors: list[FieldError] = []
    clean_name = _clean_name(tournament, name, errors)
    people = _clean_members(tournament, [] if members is None else members, errors)
    if errors:
        raise EngineUserError(errors)
    team = Team.objects.create(tournament=tournament, name=clean_name)
    Participant.objects.filter(pk__in=[p.pk for p in people]).update(team=team)
    _log(team, TeamEvent.Action.CREATE, actor, None, _snapshot(team))
    return team


@transaction.atomic
def team_update(*, team_id: int, actor: Actor | None = None, **fields: Any) -> Team:
    """Rename a team (``name``) and/or set its members (``members``: the whole list).
    After the first round a member cannot be taken out (``StateConflict``)."""
    team = Team.objects.select_related("tournament").get(pk=team_id)
    tournament = _locked_tournament(team.tournament_id)
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
        raise EngineUserError(errors)
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
    tournament = _locked_tournament(team.tournament_id)
    before = _snapshot(team)
    if before["members"] and _drawn(tournament):
        raise StateConflict(_("A team with members stays once the first round is drawn."))
    _log(team, TeamEvent.Action.DELETE, actor, before, None)
    team.members.update(team=None)
    team.delete()

