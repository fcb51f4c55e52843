"""``GET /api/v1/tournaments/{id}/verify/``: every table's history chain recomputed from
the stored rows (``tournaments.services.history``); its directors only."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from api.endpoints import TournamentEndpoint
from api.strict import StrictSerializer
from tournaments.services.history import verify_tournament


class TableChainSerializer(StrictSerializer):
    table = serializers.IntegerField(help_text="the table's id")
    round = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the table's number in its round")
    head = serializers.RegexField(r"^[0-9a-f]{64}$", allow_null=True,
                                  help_text="the stored hash of the last entry; null: none")
    ok = serializers.BooleanField()
    first_bad = serializers.IntegerField(
        required=False, help_text="the id of the first history entry that does not match")


class VerifySerializer(StrictSerializer):
    ok = serializers.BooleanField(help_text="every table's chain matches")
    tables = TableChainSerializer(many=True)


class TournamentVerify(TournamentEndpoint):
    director_reads = True

    @extend_schema(responses=VerifySerializer, summary="Recompute every table's history chain")
    def get(self, request, tournament_id: int):
        """An entry changed in the database outside the app shows as `ok: false`, naming
        the first entry of its table that does not match."""
        return Response(verify_tournament(self.tournament))
