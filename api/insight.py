"""``GET /api/v1/players/{id}/stats/?game=…[&from=&to=]`` and ``GET /api/v1/me/stats/``
(games.md §11; api.md "Insight").

Anyone reads a player's statistics from published results; those who may change him
(``clubs.policies.may_change_player``) see every result, as his ratings. A player with
no published result is 404 to the others. ``/me/stats/`` is the player's own, with his
personal token (``Authorization: Player <token>``), every result, of the game of his
token's tournament unless ``game`` says else. ``from`` and ``to`` (dates, both included)
narrow the sheets. Both answers carry an ETag that changes with every re-rating of the
game and every change still pending; ``If-None-Match`` gets 304 without reading a row.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import PlayerOnly, ReadOnly, player_of
from api.query import DateParam
from api.ratings import GAME, GAME_PARAM
from api.strict import StrictSerializer
from clubs.models import Player
from clubs.policies import may_change_player
from ratings.insight_selectors import player_stats, stats_version
from ratings.selectors import seen_in_public
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged

FROM = DateParam("from", "Only sheets on or after this date (YYYY-MM-DD).")
TO = DateParam("to", "Only sheets on or before this date (YYYY-MM-DD).")


class CountsField(serializers.DictField):
    """``{key: {count name: n}}``: the keys as the game's engine names roles or kinds."""

    child = serializers.DictField(child=serializers.IntegerField(min_value=0))


class SeriesRowSerializer(StrictSerializer):
    date = serializers.DateField()
    tournament = serializers.IntegerField(min_value=1)
    score = serializers.IntegerField(help_text="the sheet's score (the game's standing figure)")
    placement = serializers.IntegerField(min_value=1, help_text="rank at the table; ties "
                                                                "share the better rank")
    expected_placement = serializers.FloatField(min_value=1, help_text=(
        "the rank the rating model predicted from the ratings just before the sheet"))


class StatsSerializer(StrictSerializer):
    game = serializers.CharField()
    sheets = serializers.IntegerField(min_value=0)
    deals = serializers.IntegerField(min_value=0, help_text="deals the player was in")
    score_avg = serializers.FloatField(allow_null=True)
    placement_avg = serializers.FloatField(allow_null=True)
    expected_placement_avg = serializers.FloatField(allow_null=True)
    performance = serializers.FloatField(allow_null=True, help_text=(
        "expected_placement_avg − placement_avg: positive is better than predicted"))
    by_kind = CountsField(read_only=True, help_text="per kind: declared/partner/played, won, lost")
    by_role = CountsField(read_only=True, help_text=(
        "per role: deals, won, lost ({} in a game without declarers)"))
    series = SeriesRowSerializer(many=True, help_text="one row per sheet, in date order")


def _read(request, *, default_game: str | None = None):
    errors, values = {}, {}
    for param in (GAME, FROM, TO):
        try:
            values[param.name] = param.read(request)
        except ValidationError as error:
            errors.update(error.detail)
    game = values.get("game") or default_game
    if game is None and "game" not in errors:
        errors["game"] = [_("This parameter is required.")]
    first, last = values.get("from"), values.get("to")
    if first and last and first > last:
        errors["to"] = [_("Must not be before “from”.")]
    if errors:
        raise ValidationError(errors)
    return game, first, last


def _answer(request, player_id: int, game: str, first, last, everything: bool):
    etag = freshness_etag("stats", player_id, game, first or "", last or "",
                          stats_version(game), everything)
    answer = precondition_answer(request, etag)
    if answer is not None:
        return answer
    return tagged(Response(player_stats(player_id=player_id, game=game, first=first, last=last,
                                        everything=everything)), etag)


class PlayerStats(APIView):
    permission_classes = [ReadOnly]  # a public read of published results

    @extend_schema(parameters=[GAME_PARAM, FROM.parameter(), TO.parameter()],
                   responses={200: StatsSerializer, 304: None})
    def get(self, request, player_id: int):
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        game, first, last = _read(request)
        everything = may_change_player(request.user, player)
        if not everything and not seen_in_public(player):
            raise NotFound()
        return _answer(request, player.pk, game, first, last, everything)


class MyStats(APIView):
    permission_classes = [PlayerOnly]

    @extend_schema(parameters=[GAME.parameter(), FROM.parameter(), TO.parameter()],
                   responses={200: StatsSerializer, 304: None})
    def get(self, request):
        participant = player_of(request)
        game, first, last = _read(request, default_game=participant.tournament.game)
        return _answer(request, participant.player_id, game, first, last, True)
