"""Table money (Verlustspielgeld): what each player owes per evening and per season.

- ``GET /api/v1/tournaments/{id}/table-money/``: per player lost games and amount, and the
  evening's total (the tournament's directors); ``PUT`` overrides the club's fee schedule
  for this tournament (``loss_fee_cents`` null: the club's again).
- ``GET /api/v1/clubs/{id}/seasons/{year}/table-money/?game={game}``: every evening and the
  season's totals per player (the club's admins); ``…/table-money/csv/?by=evening`` gives
  one line per player per evening, ``?by=player`` the season's totals, for the treasurer.
Amounts are in cents (``amount_cents``, ``total_cents``).
"""

from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api.club_helpers import CSVRenderer, game_of, year_of
from api.club_schemas import EveningTableMoneySerializer, SeasonTableMoneySerializer
from api.endpoints import ClubEndpoint, TournamentEndpoint
from api.query import BY, GAME, YEAR
from api.strict import StrictSerializer
from clublife.services.evenings import tournament_table_money_update
from clublife.table_money import (
    evening_table_money,
    season_evenings_csv,
    season_table_money,
    season_totals_csv,
)
from clubs.services import MAX_FEE_CENTS
from tournaments.csv_files import csv_download

YEAR_PATH = YEAR.parameter(OpenApiParameter.PATH)


class FeeOverrideSerializer(StrictSerializer):
    loss_fee_cents = serializers.IntegerField(min_value=0, max_value=MAX_FEE_CENTS,
                                              allow_null=True,
                                              label=gettext_lazy("fee per lost game (cents)"))
    loss_fee_from = serializers.IntegerField(min_value=1, max_value=1000, allow_null=True,
                                             required=False,
                                             label=gettext_lazy("higher fee from the n-th "
                                                                "lost game"))
    loss_fee_high_cents = serializers.IntegerField(
        min_value=0, max_value=MAX_FEE_CENTS, allow_null=True, required=False,
        label=gettext_lazy("higher fee per lost game (cents)"))


class TournamentTableMoney(TournamentEndpoint):
    director_reads = True

    @extend_schema(responses=EveningTableMoneySerializer)
    def get(self, request, tournament_id: int):
        return Response(evening_table_money(self.tournament))

    @extend_schema(request=FeeOverrideSerializer, responses=EveningTableMoneySerializer)
    def put(self, request, tournament_id: int):
        tournament = self.tournament
        serializer = FeeOverrideSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournament_table_money_update(tournament=tournament, by=request.user,
                                                   **serializer.validated_data)
        return Response(evening_table_money(tournament))


class SeasonTableMoney(ClubEndpoint):
    admin_reads = True

    @extend_schema(parameters=[GAME.parameter(), YEAR_PATH],
                   responses=SeasonTableMoneySerializer)
    def get(self, request, club_id: int, year: str):
        club = self.club
        return Response(season_table_money(club, game_of(request, club), year_of(year)))


class SeasonTableMoneyCSV(ClubEndpoint):
    admin_reads = True
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(parameters=[GAME.parameter(), BY.parameter(), YEAR_PATH],
                   responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, club_id: int, year: str):
        club = self.club
        game, year_number = game_of(request, club), year_of(year)
        by = BY.read(request, default="evening")
        money = season_table_money(club, game, year_number)
        if by == "evening":
            return csv_download(season_evenings_csv(money),
                                f"{club.slug}-{year_number}-{game}-table-money-evenings.csv")
        return csv_download(season_totals_csv(money),
                            f"{club.slug}-{year_number}-{game}-table-money-totals.csv")
