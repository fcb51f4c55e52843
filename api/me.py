"""``GET /api/v1/me/``: the player's own overview, for their phone (api.md, "The player's
own phone").

Only a personal token (``Authorization: Player <token>``) opens it: without credentials
401, with an unknown, expired or erased token 404 (the authentication's answer), with
any other credentials (staff, a table) 403. The answer is
``tournaments.player_view.player_overview`` as it is; its ETag changes with a new draw,
a change of the player's sheet, a confirmation there and a recompute of the standings,
so a phone polling with ``If-None-Match`` gets 304 while nothing moved.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.conditional import ConditionalReads
from api.openapi import MAX_DEAL_NUMBER
from api.permissions import PlayerOnly, player_of
from api.strict import StrictSerializer
from tournaments.bounds import MAX_ID, MAX_ROUND, MAX_SEAT, MAX_TABLE
from tournaments.player_view import player_overview
from tournaments.score_changes import KINDS, MAX_CHANGES


def _id(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


NAME = {"max_length": 120, "help_text": "the player's name (clubs.Player.name, at most 120)"}


class TournamentRefSerializer(StrictSerializer):
    id = _id()
    name = serializers.CharField(max_length=160)
    slug = serializers.CharField(max_length=180)


class TablePlayerSerializer(StrictSerializer):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
    name = serializers.CharField(**NAME)


class MeClockSerializer(StrictSerializer):
    state = serializers.ChoiceField(choices=["running", "paused", "over"])
    ends_at = serializers.DateTimeField(allow_null=True, help_text=(
        "when a running clock runs out: count down from it; null while paused"))
    remaining_seconds = serializers.IntegerField(min_value=0, allow_null=True, help_text=(
        "the seconds left of a paused clock; null while it runs (this answer is kept "
        "while nothing changes, so it gives the end instead)"))
    minutes = serializers.IntegerField(min_value=0)


class SeatNowSerializer(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=MAX_ROUND)
    table = serializers.IntegerField(min_value=1, max_value=MAX_TABLE,
                                     help_text="the table's number in its round")
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
    first_dealer = serializers.IntegerField(min_value=1, max_value=MAX_SEAT,
                                            help_text="the seat that deals the first deal")
    players = TablePlayerSerializer(many=True, help_text="everyone at the table, by seat")
    table_id = _id(help_text="for /tables/{id}/… with the same token")
    clock = MeClockSerializer(allow_null=True, help_text=(
        "the round's clock (as GET …/rounds/{number}/clock/); null until it is started"))


class RoundPlayedSerializer(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=MAX_ROUND)
    table = serializers.IntegerField(min_value=1, max_value=MAX_TABLE)
    score = serializers.IntegerField(help_text="the player's score at that table so far")
    rank = serializers.IntegerField(min_value=1, allow_null=True,
                                    help_text="the rank in that round's stored standings; "
                                              "null before they are computed")


class ChangedDealSerializer(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=MAX_ROUND)
    table = serializers.IntegerField(min_value=1, max_value=MAX_TABLE,
                                     help_text="the table's number in its round")
    number = serializers.IntegerField(min_value=1, max_value=MAX_DEAL_NUMBER,
                                      help_text="the deal's number in the sheet")


class ScoreChangeSerializer(StrictSerializer):
    at = serializers.DateTimeField(help_text="when the change was made")
    deal = ChangedDealSerializer()
    before = serializers.IntegerField(allow_null=True, help_text=(
        "the player's score in that deal before the change; null when the deal was not "
        "there (a penalty entered as a deal of its own)"))
    after = serializers.IntegerField(allow_null=True, help_text=(
        "the player's score in that deal after the change; null when it was deleted"))
    kind = serializers.ChoiceField(choices=KINDS, help_text=(
        "correction; rescored (follows from the correction of an earlier deal); deletion; "
        "penalty (penalty points entered or changed)"))
    by = serializers.CharField(max_length=200, help_text=(
        "who made it, in words: the tournament director (never a staff user's name), the "
        "table's tablet, the player's own phone or another player's phone"))
    why = serializers.CharField(max_length=2000, help_text=(
        "why, in words: the reason given with the correction, the decision of the "
        "objection about that deal (or the sheet) open when it was made, the penalty, or "
        "the earlier deal whose correction re-scored it; \"no reason given\" else"))


class OverviewSerializer(StrictSerializer):
    participant = _id()
    name = serializers.CharField(**NAME)
    tournament = TournamentRefSerializer()
    now = SeatNowSerializer(allow_null=True, help_text=(
        "where the player sits in the open round; null before a draw, while the latest "
        "round is closed, after a withdrawal, or when the player was not drawn"))
    score = serializers.IntegerField(allow_null=True, help_text=(
        "the game's standing figure in the stored standings; null before they are computed"))
    rank = serializers.IntegerField(min_value=1, allow_null=True)
    rounds = RoundPlayedSerializer(many=True, help_text="every round played, in order")
    confirmations_due = serializers.ListField(child=_id(), help_text=(
        "the ids of the player's tables whose sheet is complete, not submitted, and not "
        "yet confirmed by this player as it stands"))
    changes = serializers.ListField(
        child=ScoreChangeSerializer(), max_length=MAX_CHANGES, help_text=(
        "every change to the player's own score in a deal after it was first shown (a "
        f"deal is shown once it is stored), newest first, at most {MAX_CHANGES}: "
        "corrections, deletions, penalties and objection decisions that moved it"))


class Me(ConditionalReads, APIView):
    permission_classes = [PlayerOnly]

    @extend_schema(responses={200: OverviewSerializer, 304: None})
    def get(self, request):
        overview = player_overview(player_of(request))
        return Response(overview.body, headers={"ETag": overview.etag})
