"""Teams and the team ranking (api.md; games.md §6).

- ``GET|POST /api/v1/tournaments/{id}/teams/``: the teams (anyone who sees the
  tournament) / a new team ``{"name", "members": [participant ids]}`` (its directors).
- ``PATCH|DELETE /api/v1/tournaments/{id}/teams/{tid}/``: rename, set the members,
  remove.
- ``GET /api/v1/tournaments/{id}/teams/standings/``: the team ranking, derived from the
  individual standings; ``stale`` and ``computed_at`` are theirs; ETag and 304.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from api.endpoints import TournamentEndpoint, actor_of
from api.strict import StrictSerializer
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged
from tournaments.selectors import (
    standings_version,
    team_of,
    team_results,
    teams_of,
    teams_version,
)
from tournaments.services.teams import NAME_MAX, team_create, team_delete, team_update

TEAM_ID = OpenApiParameter("team_id", int, OpenApiParameter.PATH)


class TeamMemberSerializer(StrictSerializer):
    participant = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField()


class TeamSerializer(StrictSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    members = TeamMemberSerializer(many=True)


class TeamWriteSerializer(StrictSerializer):
    """The body's shape (text, a list of ids); the service checks the rest (unique name,
    team size, members in one team only) and names each offending field."""

    name = serializers.CharField(max_length=NAME_MAX, required=False, allow_blank=True,
                                 help_text="1 to 80 characters, unique in the tournament "
                                           "(required when creating)")
    members = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False,
        max_length=8, help_text="participant ids; at most the tournament's team_size, each "
                                "in one team only")


def _team_body(request) -> dict:
    serializer = TeamWriteSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


TEAM_STANDINGS = inline_serializer("TeamStandings", {
    "computed_at": serializers.DateTimeField(allow_null=True),
    "stale": serializers.BooleanField(),
    "results": inline_serializer("TeamResult", {
        "rank": serializers.IntegerField(),
        "team": serializers.IntegerField(),
        "name": serializers.CharField(),
        "score": serializers.IntegerField(),
        "complete": serializers.BooleanField(),
        "missing": serializers.IntegerField(),
        "members": inline_serializer("TeamResultMember", {
            "participant": serializers.IntegerField(),
            "name": serializers.CharField(),
            "score": serializers.IntegerField(),
            "rank": serializers.IntegerField(allow_null=True),
            "withdrawn": serializers.BooleanField(),
        }, many=True),
    }, many=True),
})


class TeamList(TournamentEndpoint):

    @extend_schema(responses=TeamSerializer(many=True))
    def get(self, request, tournament_id: int):
        return Response(teams_of(self.tournament, full=self.full_names))

    @extend_schema(request=TeamWriteSerializer, responses={201: TeamSerializer})
    def post(self, request, tournament_id: int):
        data = _team_body(request)
        team = team_create(tournament_id=self.tournament.pk, name=data.get("name"),
                           members=data.get("members", []), actor=actor_of(request))
        return Response(team_of(team, full=self.full_names), status=status.HTTP_201_CREATED)


class TeamDetail(TournamentEndpoint):

    def _team(self, team_id: int):
        return get_object_or_404(self.tournament.teams, pk=team_id)

    @extend_schema(responses=TeamSerializer, parameters=[TEAM_ID])
    def get(self, request, tournament_id: int, team_id: int):
        return Response(team_of(self._team(team_id), full=self.full_names))

    @extend_schema(request=TeamWriteSerializer, responses=TeamSerializer, parameters=[TEAM_ID])
    def patch(self, request, tournament_id: int, team_id: int):
        team = team_update(team_id=self._team(team_id).pk, actor=actor_of(request),
                           fields=_team_body(request))
        return Response(team_of(team, full=self.full_names))

    @extend_schema(responses={204: None}, parameters=[TEAM_ID])
    def delete(self, request, tournament_id: int, team_id: int):
        team_delete(team_id=self._team(team_id).pk, actor=actor_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamStandings(TournamentEndpoint):

    @extend_schema(responses={200: TEAM_STANDINGS, 304: None})
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        computed_at, pending = standings_version(tournament)
        stamp = computed_at.timestamp() if computed_at else 0
        full = self.full_names
        etag = freshness_etag("teams", tournament.pk, stamp, pending or 0,
                              teams_version(tournament), full)
        answer = precondition_answer(request, etag)
        if answer is not None:
            return answer
        return tagged(Response({"computed_at": computed_at, "stale": pending is not None,
                                "results": team_results(tournament, full=full)}), etag)
