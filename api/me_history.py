"""``/api/v1/me/history/`` and ``/api/v1/me/seasons/``: a player's own history, on their
phone (api.md, "The player's own phone": the history is the list of events the contract
names; the seasons, which the contract's list has no place for, are a second list).

With their personal token (``Authorization: Player …``) a player reads their events in
the club of the event the token belongs to — the finished ones and the published ones
still running (``tournaments.policies.in_own_history``), newest first, each with rank,
score and the number of participants — and their places in that club's season rankings
(``clublife.selectors.player_history``). Nothing of another club, nothing of anyone else.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.club_schemas import ProfileEventSerializer
from api.permissions import PlayerOnly, player_of
from api.strict import StrictSerializer
from clublife.selectors import player_history


class HistorySeasonSerializer(StrictSerializer):
    year = serializers.IntegerField()
    game = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="null below the season's attendance minimum")
    players = serializers.IntegerField(help_text="players ranked in the season")
    score = serializers.IntegerField(help_text="the points on the counted evenings")
    average = serializers.FloatField(help_text="points per round, two decimals")
    ranked_by = serializers.CharField(help_text='"sum": by the points; "average": by the '
                                                'points per round played')
    attended = serializers.IntegerField(help_text="evenings the player played")
    counted = serializers.IntegerField(help_text="of those, the ones that count")
    evenings = serializers.IntegerField(help_text="the season's evenings so far")


class MyHistory(APIView):
    """The player's events in the club of the event their personal token belongs to,
    newest first: rank from the stored overall standings (null before any), score summed
    over the player's series, participants counted. 401 without credentials, 404 for an
    unknown or expired token, 403 for other credentials."""

    permission_classes = [PlayerOnly]

    @extend_schema(responses=ProfileEventSerializer(many=True))
    def get(self, request):
        return Response(player_history(player_of(request))["events"])


class MySeasons(APIView):
    """The player's places in the season rankings of that club, newest year first; who
    may call as ``/me/history/``."""

    permission_classes = [PlayerOnly]

    @extend_schema(responses=HistorySeasonSerializer(many=True))
    def get(self, request):
        return Response(player_history(player_of(request))["seasons"])
