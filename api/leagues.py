"""Leagues (seasons), divisions and teams (api.md "Leagues", games.md §9.2).

- ``GET|POST /api/v1/leagues/``, ``GET /api/v1/leagues/{id}/``: anyone reads; any staff
  user creates a league and directs it (``leagues.policies.runs_league``: its directors,
  its club's admins, superusers).
- ``GET|POST /api/v1/leagues/{id}/divisions/``, ``GET /api/v1/divisions/{id}/``.
- ``GET|POST /api/v1/divisions/{id}/teams/``, ``GET|PATCH /api/v1/teams/{tid}/``: a team
  with its roster; staff who run the league also read its ``captain_token`` (the captain
  sends line-ups with ``Authorization: Captain <token>``).

The league's endpoint bases live here too (``LeagueEndpoint``): they load the object the
path names, find its league and ask ``runs_league`` for every write.
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from api.endpoints import ParentEndpoint
from api.games import GameField
from api.pagination import BoundedLimitOffsetPagination
from api.permissions import STAFF, StaffWritesAnyoneReads
from api.strict import StrictSerializer
from clubs.models import Club
from clubs.publication import shown_player
from games.errors import user_error
from leagues.models import Division, League, LeagueTeam, Matchday
from leagues.policies import runs_league
from leagues.services.seasons import (
    MAX_BINDING_DAYS,
    MAX_LEVEL,
    MAX_MATCHDAYS,
    MAX_SERIES,
    MAX_SUBSTITUTES,
    MAX_TEAM,
    MAX_YEAR,
    MIN_TEAM,
    MIN_YEAR,
    division_create,
    league_create,
    team_create,
    team_update,
)

MAX_ID = 2**63 - 1
MAX_ROSTER = 40


# ---- access


class LeagueAccess(StaffWritesAnyoneReads):
    """Anyone reads a league; those who run it (``runs_league``) change it."""

    message = _("Only the league's directors may do this.")

    def who(self, method: str, view) -> tuple[bool, str]:
        if method in SAFE_METHODS:
            return True, "anyone, also without credentials"
        if getattr(view, "creates_league", False):
            return False, STAFF
        return False, "the league's directors and its club's admins (staff)"

    def has_object_permission(self, request, view, obj):
        if request.method in SAFE_METHODS:
            return True
        return runs_league(request.user, view.league_of(obj))


def captain_of(request):
    """The team whose captain token authenticated the request, or None."""
    return request.auth if isinstance(request.auth, LeagueTeam) else None


class LeagueEndpoint(ParentEndpoint):
    """Loads the object the path names (``model`` by ``lookup``) and checks the league's
    access; ``self.league`` is its league."""

    permission_classes = [LeagueAccess]
    via = ""  # the path from the object to its league ("" for a league itself)

    def parent_queryset(self):
        return (self.model.objects.select_related(self.via) if self.via
                else self.model.objects.all())

    def league_of(self, obj):
        for part in self.via.split("__") if self.via else []:
            obj = getattr(obj, part)
        return obj

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.league = self.league_of(getattr(self, self.attribute))

    @property
    def staff(self) -> bool:
        return runs_league(self.request.user, self.league)


# ---- shapes


@extend_schema_field({"oneOf": [
    {"type": "string", "enum": ["dskv", "ispa", "ddv"]},
    {"type": "object", "additionalProperties": False, "required": ["unit", "base", "per_win"],
     "properties": {"unit": {"type": "string", "enum": ["series", "day"]},
                    "base": {"type": "integer", "minimum": 0, "maximum": 100},
                    "per_win": {"type": "integer", "minimum": 1, "maximum": 100}}}]})
class ScoringField(serializers.JSONField):
    """A preset name or a custom object; the service checks it (``leagues.scoring``)."""


class RulesField(serializers.DictField):
    pass


class LeagueWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=160, label=_("name"))
    game = GameField(league=True, label=_("game"))
    year = serializers.IntegerField(min_value=MIN_YEAR, max_value=MAX_YEAR, label=_("year"))
    rules = serializers.DictField(required=False, label=_("rules"),
                                  help_text="the game's options (games.md)")
    scoring = ScoringField(required=False, label=_("scoring"),
                           help_text='"dskv", "ispa", "ddv" or {"unit", "base", "per_win"}; '
                                     "left out: the game's preset")
    club = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    max_value=MAX_ID, label=_("club"),
                                    help_text="a club whose admins run the league too")
    binding_after_days = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_BINDING_DAYS, label=_("binding after days"),
        help_text="days after a matchday when its table becomes binding (default 14)")


class ScoringSerializer(StrictSerializer):
    preset = serializers.CharField()
    unit = serializers.CharField()
    base = serializers.IntegerField()
    per_win = serializers.IntegerField()


class DivisionBriefSerializer(StrictSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField()


class LeagueSerializer(StrictSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    year = serializers.IntegerField()
    rules = serializers.DictField()
    scoring = ScoringSerializer()
    binding_after_days = serializers.IntegerField()
    club = serializers.IntegerField(allow_null=True)
    divisions = DivisionBriefSerializer(many=True)


def league_body(league: League) -> dict:
    return {"id": league.pk, "name": league.name, "game": league.game, "year": league.year,
            "rules": league.rules, "scoring": league.scoring,
            "binding_after_days": league.binding_after_days, "club": league.club_id,
            "divisions": [{"id": d.pk, "name": d.name, "level": d.level}
                          for d in league.divisions.all()]}


def club_or_400(club_id, field: str = "club") -> Club | None:
    if club_id is None:
        return None
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise user_error(field, _("There is no club %(club)s."), club=club_id)
    return club


class LeagueList(GenericAPIView):
    """Leagues, newest year first, in limit/offset pages as the other lists."""

    permission_classes = [LeagueAccess]
    pagination_class = BoundedLimitOffsetPagination
    serializer_class = LeagueSerializer
    creates_league = True

    def get_queryset(self):
        return League.objects.prefetch_related("divisions")

    @extend_schema(responses=LeagueSerializer(many=True))
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([league_body(lg) for lg in page])

    @extend_schema(request=LeagueWriteSerializer, responses={201: LeagueSerializer})
    def post(self, request):
        serializer = LeagueWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data["club"] = club_or_400(data.get("club"))
        league = league_create(user=request.user, **data)
        return Response(league_body(league), status=status.HTTP_201_CREATED)


class LeagueDetail(LeagueEndpoint):
    model, lookup, attribute = League, "league_id", "league_obj"

    @extend_schema(responses=LeagueSerializer)
    def get(self, request, league_id: int):
        return Response(league_body(self.league))


# ---- divisions


class DivisionWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=160, label=_("name"))
    level = serializers.IntegerField(min_value=1, max_value=MAX_LEVEL, label=_("level"))
    team_size = serializers.IntegerField(required=False, min_value=MIN_TEAM,
                                         max_value=MAX_TEAM, label=_("team size"))
    min_players = serializers.IntegerField(required=False, min_value=1, max_value=MAX_TEAM,
                                           label=_("minimum players"),
                                           help_text="default: Skat team_size − 1, "
                                                     "Doppelkopf team_size")
    max_substitutes = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                               max_value=MAX_SUBSTITUTES,
                                               label=_("maximum substitutes"))
    series_per_matchday = serializers.IntegerField(min_value=1, max_value=MAX_SERIES,
                                                   label=_("series per matchday"))
    matchdays = serializers.IntegerField(required=False, min_value=1, max_value=MAX_MATCHDAYS,
                                         label=_("matchdays"))
    notes = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                  label=_("notes"))


class LeagueTeamBriefSerializer(StrictSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField()
    withdrawn_on = serializers.DateField(allow_null=True)


class VenueSerializer(StrictSerializer):
    name = serializers.CharField(max_length=160, allow_blank=True, required=False)
    address = serializers.CharField(max_length=300, allow_blank=True, required=False)


class MatchdayBriefSerializer(StrictSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField()
    kind = serializers.CharField()
    venue = VenueSerializer()


class DivisionSerializer(StrictSerializer):
    id = serializers.IntegerField()
    league = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField()
    team_size = serializers.IntegerField()
    min_players = serializers.IntegerField()
    max_substitutes = serializers.IntegerField(allow_null=True)
    series_per_matchday = serializers.IntegerField()
    matchdays = serializers.IntegerField()
    notes = serializers.CharField(allow_blank=True)
    teams = LeagueTeamBriefSerializer(many=True)
    schedule = MatchdayBriefSerializer(many=True)


def matchday_brief(m: Matchday) -> dict:
    return {"id": m.pk, "number": m.number, "date": m.date, "kind": m.kind,
            "venue": {"name": m.venue_name, "address": m.venue_address}}


def division_body(division: Division) -> dict:
    return {"id": division.pk, "league": division.league_id, "name": division.name,
            "level": division.level, "team_size": division.team_size,
            "min_players": division.min_players, "max_substitutes": division.max_substitutes,
            "series_per_matchday": division.series_per_matchday,
            "matchdays": division.matchdays, "notes": division.notes,
            "teams": [{"id": t.pk, "name": t.name, "club": t.club_id,
                       "withdrawn_on": t.withdrawn_on} for t in division.teams.all()],
            "schedule": [matchday_brief(m) for m in division.matchday_set.all()]}


class DivisionList(LeagueEndpoint):
    model, lookup, attribute = League, "league_id", "league_obj"

    @extend_schema(responses=DivisionSerializer(many=True))
    def get(self, request, league_id: int):
        divisions = self.league.divisions.prefetch_related("teams", "matchday_set")
        return Response([division_body(d) for d in divisions])

    @extend_schema(request=DivisionWriteSerializer, responses={201: DivisionSerializer})
    def post(self, request, league_id: int):
        serializer = DivisionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        division = division_create(league=self.league, **serializer.validated_data)
        return Response(division_body(division), status=status.HTTP_201_CREATED)


class DivisionDetail(LeagueEndpoint):
    model, lookup, attribute, via = Division, "division_id", "division", "league"

    @extend_schema(responses=DivisionSerializer)
    def get(self, request, division_id: int):
        return Response(division_body(self.division))


# ---- teams


class RosterEntryWriteSerializer(StrictSerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("player"))
    role = serializers.ChoiceField(choices=["regular", "substitute"], required=False,
                                   default="regular", label=_("role"))


class LeagueTeamWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120, label=_("name"))
    club = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("club"))
    captain = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                       max_value=MAX_ID, label=_("captain"),
                                       help_text="a player of the roster")
    roster = RosterEntryWriteSerializer(many=True, max_length=MAX_ROSTER, label=_("roster"),
                                        help_text="distinct players, at least team_size, "
                                                  "on no other team of the league")
    withdrawn_on = serializers.DateField(required=False, allow_null=True,
                                         label=_("withdrawn on"))


class RosterPlayerSerializer(StrictSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField()


class LeagueTeamSerializer(StrictSerializer):
    id = serializers.IntegerField()
    division = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField()
    captain = serializers.IntegerField(allow_null=True)
    withdrawn_on = serializers.DateField(allow_null=True)
    roster = RosterPlayerSerializer(many=True)
    captain_token = serializers.CharField(required=False,
                                          help_text="only for those who run the league")


def team_body(team: LeagueTeam, staff: bool) -> dict:
    body = {"id": team.pk, "division": team.division_id, "name": team.name,
            "club": team.club_id, "captain": team.captain_id,
            "withdrawn_on": team.withdrawn_on,
            "roster": [{"player": e.player_id, "name": shown_player(e.player, full=staff),
                        "role": e.role} for e in team.roster.select_related("player")]}
    if staff:
        body["captain_token"] = team.captain_token
    return body


class TeamList(LeagueEndpoint):
    model, lookup, attribute, via = Division, "division_id", "division", "league"

    @extend_schema(responses=LeagueTeamSerializer(many=True))
    def get(self, request, division_id: int):
        return Response([team_body(t, self.staff) for t in self.division.teams.all()])

    @extend_schema(request=LeagueTeamWriteSerializer, responses={201: LeagueTeamSerializer})
    def post(self, request, division_id: int):
        serializer = LeagueTeamWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("withdrawn_on", None)
        team = team_create(division=self.division, name=data["name"],
                           club=club_or_400(data["club"]), roster=data["roster"],
                           captain=data.get("captain"))
        return Response(team_body(team, True), status=status.HTTP_201_CREATED)


class TeamDetail(LeagueEndpoint):
    model, lookup, attribute, via = LeagueTeam, "team_id", "team", "division__league"

    @extend_schema(responses=LeagueTeamSerializer)
    def get(self, request, team_id: int):
        return Response(team_body(self.team, self.staff))

    @extend_schema(request=LeagueTeamWriteSerializer(partial=True), responses=LeagueTeamSerializer)
    def patch(self, request, team_id: int):
        serializer = LeagueTeamWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        fields = dict(serializer.validated_data)
        if "club" in fields:
            fields["club"] = club_or_400(fields["club"])
        team = team_update(team=self.team, fields=fields)
        return Response(team_body(team, True))
