"""Matchdays, line-ups, series, substitutions, paper results and the league table
(api.md "Leagues", games.md §9.3–9.6).

- ``GET|POST /api/v1/divisions/{id}/matchdays/``, ``GET /api/v1/matchdays/{mid}/``: the
  groups, each series' totals and league points (JSON numbers: a tie gives ``2.5``).
- ``PUT /api/v1/matchdays/{mid}/groups/{g}/lineups/{team}/``: staff or the team's captain
  (``Authorization: Captain <captain_token>``); ``{g}`` is the group's number.
- ``POST …/groups/{g}/series/``: draws the group's next series as a round of the group's
  tournament → the round with its tables and entry tokens, as ``POST
  /tournaments/{id}/rounds/`` answers, plus ``tournament`` and ``series``.
- ``POST …/groups/{g}/substitutions/``, ``PUT …/groups/{g}/results/`` (a paper matchday).
- ``POST /api/v1/matchdays/{mid}/reopen/`` and ``…/close/``: a director reopens binding
  results for a correction, and makes them binding again.
- ``GET /api/v1/divisions/{id}/table/``: the stored table, ``provisional`` or
  ``binding``; ``stale`` while a change is not yet in it; ETag and 304.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api.authentication import CaptainTokenAuthentication
from api.conditional import ConditionalReads
from api.leagues import MAX_ID, LeagueAccess, LeagueEndpoint, captain_of
from api.rounds import RoundWithTokensSerializer
from api.strict import StrictSerializer
from leagues.models import Division, Group, LeagueTeam, Matchday
from leagues.policies import captains, runs_league
from leagues.selectors import matchday_detail, table_rows, table_status, table_version
from leagues.services.matchdays import (
    MAX_SCORE,
    lineup_set,
    matchday_create,
    matchday_reopen,
    results_record,
    series_draw,
    substitution_add,
)
from leagues.services.seasons import MAX_MATCHDAYS, MAX_TEAM
from tournaments import freshness
from tournaments.selectors import rounds_with_seating

GROUP_PATH = OpenApiParameter("g", int, OpenApiParameter.PATH,
                              description="the group's number on the matchday (1, 2, …)")


@extend_schema_field({"oneOf": [
    {"type": "string", "maxLength": 160},
    {"type": "object", "additionalProperties": False,
     "properties": {"name": {"type": "string", "maxLength": 160},
                    "address": {"type": "string", "maxLength": 300}}}]})
class VenueField(serializers.JSONField):
    """The venue's name, or ``{"name", "address"}``."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = {"name": data}
        if not isinstance(data, dict) or set(data) - {"name", "address"} or not all(
                isinstance(v, str) for v in data.values()):
            raise serializers.ValidationError(_("A name, or an object with name and address."))
        name, address = data.get("name", "").strip(), data.get("address", "").strip()
        if len(name) > 160 or len(address) > 300:
            raise serializers.ValidationError(_("The name has at most 160 characters, the "
                                                "address at most 300."))
        return {"name": name, "address": address}


class MatchdayWriteSerializer(StrictSerializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_MATCHDAYS, label=_("number"))
    date = serializers.DateField(label=_("date"))
    kind = serializers.ChoiceField(choices=["central", "decentral"], label=_("kind"))
    venue = VenueField(required=False, label=_("venue"))
    groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1,
                                                                   max_value=MAX_ID),
                                    max_length=5),
        required=False, max_length=200, label=_("groups"),
        help_text="lists of team ids partitioning the division's active teams; left out: "
                  "the schedule of games.md §9.3 (4, 16, 64… teams)")
    hosts = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
                                  required=False, max_length=200, label=_("hosts"),
                                  help_text="decentral: one team of each group, in the "
                                            "groups' order; left out: chosen so that each "
                                            "team hosts once")
    double_with = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                           max_value=MAX_ID, label=_("double matchday with"))


class PlayerScoreSerializer(StrictSerializer):
    player = serializers.IntegerField()
    position = serializers.IntegerField()
    score = serializers.IntegerField()


class TotalSerializer(StrictSerializer):
    team = serializers.IntegerField()
    total = serializers.IntegerField(allow_null=True, help_text="null: did not appear")
    points = serializers.FloatField(allow_null=True,
                                    help_text="league points (null for a day scoring)")
    minus_points = serializers.FloatField(allow_null=True)
    players = PlayerScoreSerializer(many=True)


class SeriesTotalsSerializer(StrictSerializer):
    number = serializers.IntegerField()
    totals = TotalSerializer(many=True)


class DayTotalSerializer(StrictSerializer):
    team = serializers.IntegerField()
    total = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()


class GroupSerializer(StrictSerializer):
    number = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField())
    host = serializers.IntegerField(allow_null=True)
    tournament = serializers.IntegerField(allow_null=True)
    series = SeriesTotalsSerializer(many=True)
    day = DayTotalSerializer(many=True, required=False,
                             help_text="a day scoring (ddv): the day's totals and points")


class VenueOutSerializer(StrictSerializer):
    name = serializers.CharField(allow_blank=True)
    address = serializers.CharField(allow_blank=True)


class MatchdaySerializer(StrictSerializer):
    id = serializers.IntegerField()
    division = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField()
    kind = serializers.CharField()
    venue = VenueOutSerializer()
    double_with = serializers.IntegerField(allow_null=True)
    reopened = serializers.BooleanField()
    binding = serializers.BooleanField()
    groups = GroupSerializer(many=True)


class DivisionMatchdays(LeagueEndpoint):
    model, lookup, attribute, via = Division, "division_id", "division", "league"

    @extend_schema(responses=MatchdaySerializer(many=True))
    def get(self, request, division_id: int):
        return Response([matchday_detail(m) for m in self.division.matchday_set.all()])

    @extend_schema(request=MatchdayWriteSerializer, responses={201: MatchdaySerializer})
    def post(self, request, division_id: int):
        serializer = MatchdayWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        venue = data.pop("venue", None) or {}
        matchday = matchday_create(division=self.division, venue_name=venue.get("name", ""),
                                   venue_address=venue.get("address", ""), **data)
        return Response(matchday_detail(matchday), status=status.HTTP_201_CREATED)


class MatchdayEndpoint(LeagueEndpoint):
    """``/matchdays/{mid}/…``: ``self.matchday``. Answers no method of its own: each
    endpoint below says which it serves (a ``GET`` of ``…/reopen/`` or of a group's path
    is 405, not the matchday)."""

    model, lookup, attribute, via = Matchday, "matchday_id", "matchday", "division__league"


class MatchdayDetail(MatchdayEndpoint):

    @extend_schema(responses=MatchdaySerializer)
    def get(self, request, matchday_id: int):
        return Response(matchday_detail(self.matchday))


class MatchdayReopen(MatchdayEndpoint):
    """Reopen the matchday's binding results for a correction."""

    reopened = True

    @extend_schema(request=None, responses=MatchdaySerializer)
    def post(self, request, matchday_id: int):
        matchday = matchday_reopen(matchday=self.matchday, reopened=self.reopened)
        return Response(matchday_detail(matchday))


class MatchdayClose(MatchdayReopen):
    """Make a reopened matchday's results binding again."""

    reopened = False


class GroupEndpoint(MatchdayEndpoint):
    """``/matchdays/{mid}/groups/{g}/…``: ``self.group`` is the group numbered ``g``."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.group = get_object_or_404(Group, matchday=self.matchday, number=kwargs["g"])


# ---- line-ups


class CaptainOrLeagueStaff(LeagueAccess):
    """Those who run the league, or the team's captain with the team's captain token."""

    message = _("Only the league's directors and the team's captain may do this.")

    def has_permission(self, request, view):
        return captain_of(request) is not None or super().has_permission(request, view)

    def who(self, method: str, view) -> tuple[bool, str]:
        return False, ("the league's directors and its club's admins (staff), or the team's "
                       "captain (Authorization: Captain <captain_token>)")

    def has_object_permission(self, request, view, obj):
        # a captain's token: which team it may send is the view's question (``_team``)
        if captain_of(request) is not None:
            return True
        return super().has_object_permission(request, view, obj)


class LineupWriteSerializer(StrictSerializer):
    positions = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID, allow_null=True),
        min_length=1, max_length=MAX_TEAM, label=_("positions"),
        help_text="exactly the division's team_size entries: the player (an id from the "
                  "team's roster) or null (missing) at positions 1..team_size; all null: "
                  "the team does not appear")


class LineupSerializer(StrictSerializer):
    group = serializers.IntegerField()
    team = serializers.IntegerField()
    positions = serializers.ListField(child=serializers.IntegerField(allow_null=True))


class LineupDetail(GroupEndpoint):
    permission_classes = [CaptainOrLeagueStaff]
    authentication_classes = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES,
                              CaptainTokenAuthentication]

    def _team(self, team_id: int) -> LeagueTeam:
        team = get_object_or_404(LeagueTeam, pk=team_id,
                                 pk__in=self.group.members.values("team_id"))
        token_team = captain_of(self.request)
        if token_team is not None and not captains(team, token_team):
            raise PermissionDenied(_("A captain sends only his own team's line-up."))
        if token_team is None and not runs_league(self.request.user, self.league):
            raise PermissionDenied(CaptainOrLeagueStaff.message)
        return team

    @extend_schema(parameters=[GROUP_PATH], request=LineupWriteSerializer,
                   responses=LineupSerializer)
    def put(self, request, matchday_id: int, g: int, team_id: int):
        team = self._team(team_id)
        serializer = LineupWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        lineup = lineup_set(group=self.group, team=team, **serializer.validated_data)
        return Response({"group": self.group.number, "team": team.pk,
                         "positions": lineup.positions})


# ---- series, substitutions, paper results


class SeriesRoundSerializer(RoundWithTokensSerializer):
    tournament = serializers.IntegerField(source="tournament_id")
    series = serializers.IntegerField(source="number")


class SeriesDraw(GroupEndpoint):

    @extend_schema(parameters=[GROUP_PATH], request=None, responses={201: SeriesRoundSerializer})
    def post(self, request, matchday_id: int, g: int):
        rnd = series_draw(group=self.group)
        rnd = rounds_with_seating(rnd.tournament).get(pk=rnd.pk)
        body = SeriesRoundSerializer(rnd, context={"request": request, "full_names": True}).data
        return Response(body, status=status.HTTP_201_CREATED)


class SubstitutionWriteSerializer(StrictSerializer):
    team = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("team"))
    position = serializers.IntegerField(min_value=1, max_value=MAX_TEAM, label=_("position"))
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("player"))


class SubstitutionSerializer(StrictSerializer):
    team = serializers.IntegerField()
    position = serializers.IntegerField()
    player = serializers.IntegerField()
    replaced = serializers.IntegerField(allow_null=True)
    from_series = serializers.IntegerField()


class Substitutions(GroupEndpoint):

    @extend_schema(parameters=[GROUP_PATH], request=SubstitutionWriteSerializer,
                   responses={201: SubstitutionSerializer})
    def post(self, request, matchday_id: int, g: int):
        serializer = SubstitutionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sub = substitution_add(group=self.group, **serializer.validated_data)
        return Response({"team": sub.team_id, "position": sub.position,
                         "player": sub.player_id, "replaced": sub.replaced_id,
                         "from_series": sub.from_series}, status=status.HTTP_201_CREATED)


class PaperPlayerSerializer(StrictSerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("player"))
    score = serializers.IntegerField(min_value=-MAX_SCORE, max_value=MAX_SCORE,
                                     label=_("score"))


class PaperTeamSerializer(StrictSerializer):
    team = serializers.IntegerField(min_value=1, max_value=MAX_ID, label=_("team"))
    players = PaperPlayerSerializer(many=True, max_length=MAX_TEAM, label=_("players"))


class PaperSeriesSerializer(StrictSerializer):
    number = serializers.IntegerField(min_value=1, max_value=8, label=_("number"))
    teams = PaperTeamSerializer(many=True, max_length=5, label=_("teams"))


class PaperResultsSerializer(StrictSerializer):
    series = PaperSeriesSerializer(many=True, max_length=8, label=_("series"),
                                   help_text="every series of the matchday once; a team "
                                             "left out or without players did not appear")


class Results(GroupEndpoint):

    @extend_schema(parameters=[GROUP_PATH], request=PaperResultsSerializer,
                   responses=MatchdaySerializer)
    def put(self, request, matchday_id: int, g: int):
        serializer = PaperResultsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        results_record(group=self.group,
                       series=[{"number": s["number"],
                                "teams": [{"team": t["team"],
                                           "players": [dict(p) for p in t["players"]]}
                                          for t in s["teams"]]}
                               for s in serializer.validated_data["series"]])
        return Response(matchday_detail(self.matchday))


# ---- the table


class MatchdayFiguresSerializer(StrictSerializer):
    matchday = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()
    minus_points = serializers.FloatField(allow_null=True)
    game_points = serializers.IntegerField()


class TableRowSerializer(StrictSerializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.FloatField(help_text="league points; a tie gives halves (2.5)")
    minus_points = serializers.FloatField(allow_null=True,
                                          help_text="null where the scoring has a base (ddv)")
    game_points = serializers.IntegerField()
    matchdays = MatchdayFiguresSerializer(many=True)


class LeagueTableSerializer(StrictSerializer):
    division = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["provisional", "binding"])
    stale = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    results = TableRowSerializer(many=True)


class DivisionTable(ConditionalReads, LeagueEndpoint):
    model, lookup, attribute, via = Division, "division_id", "division", "league"

    @extend_schema(responses={200: LeagueTableSerializer, 304: None})
    def get(self, request, division_id: int):
        division = self.division
        computed, pending = table_version(division)
        state = table_status(division)
        stamp = computed.timestamp() if computed else 0
        etag = freshness.etag("league", division.pk, stamp, pending, state)
        body = {"division": division.pk, "status": state, "stale": bool(pending),
                "computed_at": computed, "results": table_rows(division)}
        return Response(body, headers={"ETag": etag})  # ConditionalReads: 304, headers

