"""Entry fee, prize list, lot and cash report (api.md; games.md §6), for the directors.

- ``GET|PUT /api/v1/tournaments/{id}/prizes/``: ``{"entry_fee_cents",
  "payout_percent"?, "places_percent"? | "places_cents"?, "places_goods"?}`` → the prize
  list with ``pot_cents`` and ``payouts`` following the current standings; 404 before a
  prize list is set.
- ``PUT /api/v1/tournaments/{id}/prizes/lots/``: ``{"order": [participant ids]}``, the
  result of a lot among the players tied at prize places.
- ``GET /api/v1/tournaments/{id}/cash/``: fees and table money in, prizes out, balance;
  ``?format=csv`` for the club's accounts (amounts in euros, German decimal comma).
"""

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api.club_helpers import CSVRenderer
from api.endpoints import TournamentEndpoint, actor_of
from api.parsers import LARGEST_BODY
from api.strict import StrictSerializer
from clublife.cash import tournament_cash, tournament_cash_csv
from prizes.payout import ENTRY_FEE_MAX, GOODS_MAX, PLACE_CENTS_MAX, PLACES_MAX
from prizes.selectors import prize_answer
from prizes.services import lot_set, prizes_set
from tournaments.csv_files import csv_download


class PrizeListWriteSerializer(StrictSerializer):
    """The body's shape, checked strictly before the service (``prizes.payout``)
    checks the prize list itself and stores it."""

    entry_fee_cents = serializers.IntegerField(min_value=0, max_value=ENTRY_FEE_MAX)
    payout_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False,
        coerce_to_string=False, help_text="share of the fees paid out; default 100")
    places_percent = serializers.ListField(
        child=serializers.DecimalField(max_digits=5, decimal_places=2, min_value=0,
                                       max_value=100, coerce_to_string=False),
        max_length=PLACES_MAX, required=False,
        help_text="percent of the pot per place, together exactly 100; not with "
                  "places_cents")
    places_cents = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=PLACE_CENTS_MAX),
        max_length=PLACES_MAX, required=False,
        help_text="fixed amount per place; not with places_percent")
    places_goods = serializers.ListField(
        child=serializers.CharField(max_length=GOODS_MAX, allow_blank=True),
        max_length=PLACES_MAX, required=False, help_text="goods prize per place")
    categories = serializers.JSONField(
        required=False,
        help_text='A prize list per category (games.md §10.3): {"<label>": {"places_cents"?: '
                  '[cents per place], "places_goods"?: [text per place]}}; each label one of '
                  "the tournament's categories. With the tournament's one_prize_per_player "
                  "the overall list pays first and a category prize passes to the next "
                  "player of that category.")


class PayoutSerializer(StrictSerializer):
    place = serializers.IntegerField()
    participant = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    goods = serializers.CharField(allow_blank=True)
    tied = serializers.BooleanField()


class PlaceSerializer(StrictSerializer):
    place = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    goods = serializers.CharField(allow_blank=True)


class PrizeListSerializer(StrictSerializer):
    entry_fee_cents = serializers.IntegerField()
    payout_percent = serializers.FloatField()
    places_percent = serializers.ListField(child=serializers.FloatField(), required=False)
    places_cents = serializers.ListField(child=serializers.IntegerField(), required=False)
    places_goods = serializers.ListField(child=serializers.CharField())
    fees_cents = serializers.IntegerField()
    pot_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    undistributed_cents = serializers.IntegerField()
    shortfall_cents = serializers.IntegerField()
    places = PlaceSerializer(many=True)
    payouts = PayoutSerializer(many=True)
    ties = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    lot = serializers.ChoiceField(choices=["applied", "stale"], allow_null=True)
    lot_order = serializers.ListField(child=serializers.IntegerField())
    categories = serializers.DictField(required=False, child=serializers.DictField())
    one_prize_per_player = serializers.BooleanField()
    category_payouts = inline_serializer("CategoryPayouts", {
        "category": serializers.CharField(),
        "places": PlaceSerializer(many=True),
        "payouts": PayoutSerializer(many=True),
    }, many=True)


class PrizeLotSerializer(StrictSerializer):
    order = serializers.ListField(child=serializers.IntegerField(min_value=1,
                                                                 max_value=2**63 - 1),
                                  max_length=PLACES_MAX,
                                  help_text="participant ids tied at prize places, best first")


class CashRowSerializer(StrictSerializer):
    at = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=["fee", "fee_change", "table_money", "prize"])
    participant = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField(allow_null=True)
    amount_cents = serializers.IntegerField()


class CashSerializer(StrictSerializer):
    fees_cents = serializers.IntegerField()
    table_money_cents = serializers.IntegerField()
    prizes_cents = serializers.IntegerField()
    balance_cents = serializers.IntegerField()
    fee_changes = serializers.ListField(child=serializers.DictField())
    rows = CashRowSerializer(many=True)


def _answer(tournament):
    answer = prize_answer(tournament, full=True)  # directors only (director_reads)
    if answer is None:
        raise Http404(_("This tournament has no prize list yet."))
    return answer


class Prizes(TournamentEndpoint):
    director_reads = True
    # a goods text per place: up to eleven lists (overall and each category) of 500
    max_body_bytes = LARGEST_BODY

    @extend_schema(responses=PrizeListSerializer)
    def get(self, request, tournament_id: int):
        return Response(_answer(self.tournament))

    @extend_schema(request=PrizeListWriteSerializer, responses=PrizeListSerializer)
    def put(self, request, tournament_id: int):
        PrizeListWriteSerializer(data=request.data).is_valid(raise_exception=True)
        prizes_set(tournament_id=self.tournament.pk, data=request.data, actor=actor_of(request))
        return Response(_answer(self.tournament))


class PrizeLot(TournamentEndpoint):

    @extend_schema(request=PrizeLotSerializer, responses=PrizeListSerializer)
    def put(self, request, tournament_id: int):
        serializer = PrizeLotSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        lot_set(tournament_id=self.tournament.pk, order=serializer.validated_data["order"])
        return Response(_answer(self.tournament))


class Cash(TournamentEndpoint):
    director_reads = True
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(responses={200: CashSerializer, (200, "text/csv"): OpenApiTypes.STR},
                   parameters=[OpenApiParameter("format", str, enum=["json", "csv"],
                                                required=False)])
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        report = tournament_cash(tournament)
        if request.accepted_renderer.format == "csv":
            return csv_download(tournament_cash_csv(report), f"{tournament.slug}-cash.csv")
        return Response(report)
