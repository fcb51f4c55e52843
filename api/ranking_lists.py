"""Ranking lists (*Ranglisten*, games.md §10.2; api.md "Ratings, ranking lists,
categories").

- ``POST /api/v1/clubs/{id}/ranking-lists/`` (the club's admins): a new list
  ``{"name", "game", "first", "last", "clubs"?: [ids], "best_n"?, "min_events"?,
  "points"?: "field" | [ints]}`` → 201 with the list and its ``results``.
- ``GET /api/v1/clubs/{id}/ranking-lists/`` (anyone): the club's lists, without results.
- ``GET /api/v1/ranking-lists/{rid}/`` (anyone): the list with ``results``
  ``[{"rank", "player", "name", "points", "events": [{"tournament", "place", "points",
  "counted"}]}]`` (``rank`` null: fewer than ``min_events`` events); ``DELETE`` (the
  club's admins) removes it.

The list is computed when read from the stored standings of the published tournaments
it counts (``ratings.ranking_lists.selectors``); names as their players chose, full for
the club's admins.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.views import APIView

from api.endpoints import ClubEndpoint
from api.games import GameField
from api.permissions import ClubAccess
from api.strict import StrictSerializer
from clubs.policies import runs_club, sees_full_names_in_club
from ratings.list_models import (
    MAX_CLUBS,
    MAX_EVENTS,
    MAX_POINT_VALUE,
    MAX_POINTS,
    NAME_MAX,
    RankingList,
)
from ratings.ranking_lists.selectors import definition, ranking_answer
from ratings.ranking_lists.services import ranking_list_create, ranking_list_delete
from tournaments.bounds import MAX_ID

POINTS_HELP = (f'"field" (the default: place p of N gets N - p + 1) or a list of at most '
               f'{MAX_POINTS} whole numbers 0..{MAX_POINT_VALUE}, the points of place 1, 2, '
               f'…; places beyond the list get 0. Tied players get the points of the best '
               f'place they share.')


class PointsField(serializers.JSONField):
    """``"field"`` or a list of non-negative whole numbers (checked by the service)."""


class RankingListWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=NAME_MAX, label=_("name"))
    game = GameField(label=_("game"))
    first = serializers.DateField(label=_("first day"))
    last = serializers.DateField(label=_("last day"))
    clubs = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False,
        max_length=MAX_CLUBS, label=_("clubs counted"),
        help_text="The clubs whose published tournaments count; the list's own club when "
                  "left out or empty.")
    best_n = serializers.IntegerField(min_value=1, max_value=MAX_EVENTS, required=False,
                                      allow_null=True, label=_("best events counted"),
                                      help_text="Only the best N events count; null: all.")
    min_events = serializers.IntegerField(min_value=0, max_value=MAX_EVENTS, required=False,
                                          label=_("events needed to be ranked"),
                                          help_text="Default 1; players with fewer events "
                                                    "are listed after, unranked.")
    points = PointsField(required=False, label=_("points table"), help_text=POINTS_HELP)

    def validate_name(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError(_("The name must not be blank."))
        return value.strip()


EVENT = inline_serializer("RankingListEvent", {
    "tournament": serializers.IntegerField(),
    "place": serializers.IntegerField(),
    "points": serializers.IntegerField(),
    "counted": serializers.BooleanField(),
})
DEFINITION_FIELDS = {
    "id": serializers.IntegerField(),
    "club": serializers.IntegerField(),
    "name": serializers.CharField(),
    "game": serializers.CharField(),
    "first": serializers.DateField(),
    "last": serializers.DateField(),
    "clubs": serializers.ListField(child=serializers.IntegerField()),
    "best_n": serializers.IntegerField(allow_null=True),
    "min_events": serializers.IntegerField(),
    "points": serializers.JSONField(help_text=POINTS_HELP),
}
DEFINITION = inline_serializer("RankingListDefinition", DEFINITION_FIELDS)
ANSWER = inline_serializer("RankingList", {
    **DEFINITION_FIELDS,
    "tournaments": inline_serializer("RankingListTournament", {
        "id": serializers.IntegerField(), "name": serializers.CharField(),
        "date": serializers.DateField(allow_null=True), "slug": serializers.CharField(),
    }, many=True),
    "results": inline_serializer("RankingListResult", {
        "rank": serializers.IntegerField(allow_null=True),
        "player": serializers.IntegerField(),
        "name": serializers.CharField(),
        "points": serializers.IntegerField(),
        "events": EVENT.__class__(many=True),
    }, many=True),
})


class ClubRankingLists(ClubEndpoint):

    @extend_schema(responses=DEFINITION.__class__(many=True))
    def get(self, request, club_id: int):
        lists = self.club.ranking_lists.prefetch_related("clubs").order_by("-last", "id")
        return Response([definition(r, sorted(c.pk for c in r.clubs.all())) for r in lists])

    @extend_schema(request=RankingListWriteSerializer, responses={201: ANSWER})
    def post(self, request, club_id: int):
        serializer = RankingListWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        ranking = ranking_list_create(club=self.club, user=request.user,
                                      **serializer.validated_data)
        return Response(ranking_answer(ranking, full=True), status=status.HTTP_201_CREATED)


class RankingListAccess(ClubAccess):
    """Anyone reads a ranking list; its club's admins remove it."""

    def has_object_permission(self, request, view, ranking):
        if request.method in SAFE_METHODS:
            return True
        return runs_club(request.user, ranking.club)


class RankingListDetail(APIView):
    permission_classes = [RankingListAccess]

    def _ranking(self, rid: int) -> RankingList:
        ranking = get_object_or_404(RankingList.objects.select_related("club"), pk=rid)
        self.check_object_permissions(self.request, ranking)
        return ranking

    @extend_schema(responses=ANSWER)
    def get(self, request, rid: int):
        ranking = self._ranking(rid)
        full = sees_full_names_in_club(request.user, ranking.club)
        return Response(ranking_answer(ranking, full=full))

    @extend_schema(responses={204: None})
    def delete(self, request, rid: int):
        ranking_list_delete(ranking=self._ranking(rid))
        return Response(status=status.HTTP_204_NO_CONTENT)
