"""``/api/v1/tournaments/{id}/rounds/``: draws, seatings, closing a round, swapping players.

Anyone reads the rounds of a published tournament (never the entry tokens); the
directors draw, close and swap. The answer to a draw is the only listing of a round
that carries the tables' entry tokens.
"""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import StaffWritesAnyoneReads, directs, is_staff
from tournaments.models import Round, Table, Tournament
from tournaments.services import Actor, round_close, round_draw, round_swap


def visible_tournament(request, tournament_id) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    if not tournament.published and not directs(request.user, tournament):
        raise NotFound()
    return tournament


def directed_tournament(request, tournament_id) -> Tournament:
    tournament = visible_tournament(request, tournament_id)
    if not directs(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's directors may do this."))
    return tournament


def actor_of(request) -> Actor:
    ip = request.META.get("REMOTE_ADDR") or None
    return Actor(user=request.user if is_staff(request.user) else None,
                 by_table=not is_staff(request.user), ip=ip)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    participant = serializers.IntegerField(source="participant_id")
    name = serializers.CharField(source="participant.player.name")
    start_number = serializers.IntegerField(source="participant.start_number")


class TableSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    submitted = serializers.BooleanField()
    seats = SeatSerializer(many=True)


class TableWithTokenSerializer(TableSummarySerializer):
    entry_token = serializers.CharField()
    entry_url = serializers.SerializerMethodField()

    def get_entry_url(self, table) -> str:
        return self.context["request"].build_absolute_uri(f"/t/{table.entry_token}/")


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    method = serializers.CharField()
    seed = serializers.IntegerField()
    closed = serializers.BooleanField()
    tables = TableSummarySerializer(many=True)


class RoundWithTokensSerializer(RoundSerializer):
    tables = TableWithTokenSerializer(many=True)


class DrawSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=Round.Method.choices, label=_("method"))
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1,
                                    label=_("seed"))


class SwapSerializer(serializers.Serializer):
    a = serializers.IntegerField(label=_("participant a"))
    b = serializers.IntegerField(label=_("participant b"))


def _round_query(tournament):
    tables = Table.objects.prefetch_related("seats__participant__player").order_by("number")
    return tournament.rounds.prefetch_related(Prefetch("tables", queryset=tables))


class RoundList(APIView):
    permission_classes = [StaffWritesAnyoneReads]

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request, tournament_id: int):
        tournament = visible_tournament(request, tournament_id)
        return Response(RoundSerializer(_round_query(tournament), many=True).data)

    @extend_schema(request=DrawSerializer, responses={201: RoundWithTokensSerializer})
    def post(self, request, tournament_id: int):
        tournament = directed_tournament(request, tournament_id)
        serializer = DrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = round_draw(tournament_id=tournament.pk, **serializer.validated_data)
        rnd = _round_query(tournament).get(pk=rnd.pk)
        body = RoundWithTokensSerializer(rnd, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class RoundDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer)
    def get(self, request, tournament_id: int, number: int):
        tournament = visible_tournament(request, tournament_id)
        rnd = get_object_or_404(_round_query(tournament), number=number)
        return Response(RoundSerializer(rnd).data)


class RoundClose(APIView):
    permission_classes = [StaffWritesAnyoneReads]

    @extend_schema(request=None, responses=RoundSerializer)
    def post(self, request, tournament_id: int, number: int):
        tournament = directed_tournament(request, tournament_id)
        rnd = get_object_or_404(tournament.rounds, number=number)
        round_close(round_id=rnd.pk)
        return Response(RoundSerializer(_round_query(tournament).get(pk=rnd.pk)).data)


class RoundSwap(APIView):
    permission_classes = [StaffWritesAnyoneReads]

    @extend_schema(request=SwapSerializer, responses=RoundSerializer)
    def post(self, request, tournament_id: int, number: int):
        tournament = directed_tournament(request, tournament_id)
        rnd = get_object_or_404(tournament.rounds, number=number)
        serializer = SwapSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_swap(round_id=rnd.pk, actor=actor_of(request), **serializer.validated_data)
        return Response(RoundSerializer(_round_query(tournament).get(pk=rnd.pk)).data)
