"""``/api/v1/tournaments/{id}/rounds/``: draws, seatings, closing and reopening a round,
swapping players, the round's clock, taking a draw back.

Anyone reads the rounds of a published tournament (never the entry tokens); the
directors draw, close, reopen, swap and take back. The answer to a draw is the only
listing of a round that carries the tables' entry tokens.
"""

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from api.endpoints import TournamentEndpoint, actor_of
from api.names import ShownNameField
from api.strict import StrictSerializer
from tournaments import clock
from tournaments.links import entry_url
from tournaments.models import Round
from tournaments.selectors import rounds_with_seating, teammates_together
from tournaments.services import (
    round_clock,
    round_close,
    round_draw,
    round_reopen,
    round_swap,
    round_undo,
)


class SeatSerializer(StrictSerializer):
    seat = serializers.IntegerField()
    participant = serializers.IntegerField(source="participant_id")
    name = ShownNameField()
    start_number = serializers.IntegerField(source="participant.start_number")


class TableSummarySerializer(StrictSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    submitted = serializers.BooleanField()
    shortened = serializers.BooleanField()
    seats = SeatSerializer(many=True)


class TableWithTokenSerializer(TableSummarySerializer):
    entry_token = serializers.CharField()
    entry_url = serializers.SerializerMethodField()

    def get_entry_url(self, table) -> str:
        return entry_url(self.context["request"], table)


class ClockSerializer(StrictSerializer):
    state = serializers.ChoiceField(choices=["running", "paused", "over"])
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="when a running clock runs out; null while paused")
    remaining_seconds = serializers.IntegerField(min_value=0)
    minutes = serializers.IntegerField(min_value=0, help_text="the start's and extensions'")


class RoundSerializer(StrictSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    method = serializers.CharField()
    seed = serializers.IntegerField()
    closed = serializers.BooleanField()
    reopened = serializers.BooleanField()
    clock = ClockSerializer(source="clock_now", allow_null=True,
                            help_text="null until the director starts it")
    tables = TableSummarySerializer(many=True)


class ClockAnswerSerializer(StrictSerializer):
    clock = ClockSerializer(source="clock_now", allow_null=True)


class ClockActionSerializer(StrictSerializer):
    action = serializers.ChoiceField(choices=clock.ACTIONS, label=_("action"))
    minutes = serializers.IntegerField(
        required=False, min_value=clock.MIN_MINUTES, max_value=clock.MAX_MINUTES,
        label=_("minutes"), help_text="start and extend: required")


class RoundWithTokensSerializer(RoundSerializer):
    tables = TableWithTokenSerializer(many=True)


class TeammateSerializer(StrictSerializer):
    participant = serializers.IntegerField()
    name = serializers.CharField()


class DrawnRoundSerializer(RoundWithTokensSerializer):
    teammates_together = serializers.ListField(
        child=TeammateSerializer(many=True), read_only=True,
        help_text="pairs of teammates the draw could not keep apart")


class DrawSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=Round.Method.choices, label=_("method"))
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1,
                                    label=_("seed"))


class SwapSerializer(StrictSerializer):
    a = serializers.IntegerField(label=_("participant a"), min_value=1, max_value=2**63 - 1)
    b = serializers.IntegerField(label=_("participant b"), min_value=1, max_value=2**63 - 1)


class RoundList(TournamentEndpoint):

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        return Response(RoundSerializer(rounds_with_seating(tournament), many=True,
                                         context=self.name_context()).data)

    @extend_schema(request=DrawSerializer, responses={201: DrawnRoundSerializer})
    def post(self, request, tournament_id: int):
        tournament = self.tournament
        serializer = DrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = round_draw(tournament_id=tournament.pk, **serializer.validated_data)
        rnd = rounds_with_seating(tournament).get(pk=rnd.pk)
        body = RoundWithTokensSerializer(rnd, context=self.name_context()).data
        body["teammates_together"] = teammates_together(rnd)
        return Response(body, status=status.HTTP_201_CREATED)


class RoundDetail(TournamentEndpoint):

    @extend_schema(responses=RoundSerializer)
    def get(self, request, tournament_id: int, number: int):
        tournament = self.tournament
        rnd = get_object_or_404(rounds_with_seating(tournament), number=number)
        return Response(RoundSerializer(rnd, context=self.name_context()).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tournament_id: int, number: int):
        """Take back the draw of the last round: only while none of its tables has a
        deal, a summary, a confirmation or a submitted sheet, else 409 naming the tables.
        The round as drawn is kept in the tournament's history; the next draw takes its
        number again."""
        tournament = self.tournament
        get_object_or_404(tournament.rounds, number=number)
        round_undo(tournament_id=tournament.pk, number=number, actor=actor_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _round_changed(view: TournamentEndpoint, request, number: int, change: Callable[..., Any],
                   body: type[serializers.Serializer] | None = None) -> Response:
    """Change round ``number`` of the view's tournament (``change`` with the fields of
    ``body``, if any) and answer with the round as it is now."""
    tournament = view.tournament
    rnd = get_object_or_404(tournament.rounds, number=number)
    fields = {}
    if body is not None:
        serializer = body(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = serializer.validated_data
    change(round_id=rnd.pk, actor=actor_of(request), **fields)
    return Response(RoundSerializer(rounds_with_seating(tournament).get(pk=rnd.pk),
                                    context=view.name_context()).data)


class RoundClose(TournamentEndpoint):

    @extend_schema(request=None, responses=RoundSerializer)
    def post(self, request, tournament_id: int, number: int):
        return _round_changed(self, request, number, round_close)


class RoundReopen(TournamentEndpoint):
    """Reopen a closed round for staff corrections; table tokens stay locked."""

    @extend_schema(request=None, responses=RoundSerializer)
    def post(self, request, tournament_id: int, number: int):
        return _round_changed(self, request, number, round_reopen)


class RoundSwap(TournamentEndpoint):

    @extend_schema(request=SwapSerializer, responses=RoundSerializer)
    def post(self, request, tournament_id: int, number: int):
        return _round_changed(self, request, number, round_swap, SwapSerializer)


class RoundClock(TournamentEndpoint):
    """The round's clock: anyone reads it (the board and the phones poll it), the
    directors start, pause, resume and extend it (each written to the round's history)."""

    @extend_schema(responses=ClockAnswerSerializer)
    @method_decorator(cache_control(no_cache=True))  # a running clock moves with the time
    def get(self, request, tournament_id: int, number: int):
        rnd = get_object_or_404(self.tournament.rounds, number=number)
        return Response(ClockAnswerSerializer(rnd).data)

    @extend_schema(request=ClockActionSerializer, responses=ClockAnswerSerializer)
    def post(self, request, tournament_id: int, number: int):
        rnd = get_object_or_404(self.tournament.rounds, number=number)
        serializer = ClockActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = round_clock(round_id=rnd.pk, actor=actor_of(request), **serializer.validated_data)
        return Response(ClockAnswerSerializer(rnd).data)
