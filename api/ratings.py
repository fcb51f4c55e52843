"""``/api/v1/ratings/?game=…[&club=…][&min_sheets=…]`` and
``/api/v1/players/{id}/ratings/`` (games.md §10.1; api.md "Ratings").

Anyone reads both. The leaderboard lists the players of a game with at least
``min_sheets`` rated sheets (default 10) and a published result (of the club's
tournaments with ``club``), by rating, then more sheets, then equal rank; it carries an
ETag that changes with every re-rating of the game and every change still pending. A
player's ratings list his games with the history of published results; a player rated
only in unpublished tournaments is 404 to anyone but those who may change him (who see
every result). Names follow the players' publication choice, except for those who run
the club (full names).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import ReadOnly
from api.query import CLUB, ChoiceParam, IntParam
from api.ratings_schemas import LeaderboardSerializer, PlayerRatingSerializer
from clubs.models import Club, Player
from clubs.policies import may_change_player, runs_club
from games.choices import game_keys
from ratings.selectors import (
    DEFAULT_MIN_SHEETS,
    MAX_MIN_SHEETS,
    leaderboard,
    player_ratings,
    ratings_version,
    seen_in_public,
)
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged

GAME = ChoiceParam("game", tuple(game_keys()),
                   "The game (required).")
# required here: a leaderboard is of one game (its absence is a 400 naming it)
GAME_PARAM = OpenApiParameter(GAME.name, GAME.schema(), OpenApiParameter.QUERY, required=True,
                              description=GAME.description)
MIN_SHEETS = IntParam("min_sheets", 0, MAX_MIN_SHEETS,
                      f"Only players with at least this many rated sheets "
                      f"(default {DEFAULT_MIN_SHEETS}).")


class RatingList(APIView):
    permission_classes = [ReadOnly]

    @extend_schema(parameters=[GAME_PARAM, CLUB.parameter(), MIN_SHEETS.parameter()],
                   responses={200: LeaderboardSerializer, 304: None})
    def get(self, request):
        errors = {}
        values = {}
        for param, name in ((GAME, "game"), (CLUB, "club"), (MIN_SHEETS, "min_sheets")):
            try:
                values[name] = param.read(request)
            except ValidationError as error:
                errors.update(error.detail)
        if values.get("game") is None and "game" not in errors:
            errors["game"] = [_("This parameter is required.")]
        club = None
        if values.get("club") is not None:
            club = Club.objects.filter(pk=values["club"]).first()
            if club is None:
                errors["club"] = [_("Unknown club “%(club)s”.") % {"club": values["club"]}]
        if errors:
            raise ValidationError(errors)
        game = values["game"]
        min_sheets = DEFAULT_MIN_SHEETS if values["min_sheets"] is None else values["min_sheets"]
        full = runs_club(request.user, club) if club else bool(
            request.user.is_authenticated and request.user.is_superuser)
        etag = freshness_etag("ratings", game, club.pk if club else 0, min_sheets,
                              ratings_version(game), full)
        answer = precondition_answer(request, etag)
        if answer is not None:
            return answer
        results = leaderboard(game=game, club_id=club.pk if club else None,
                              min_sheets=min_sheets, full_names=full)
        return tagged(Response({"game": game, "club": club.pk if club else None,
                                "min_sheets": min_sheets, "results": results}), etag)


class PlayerRatings(APIView):
    permission_classes = [ReadOnly]  # a public read of published results

    @extend_schema(responses=PlayerRatingSerializer(many=True))
    def get(self, request, player_id: int):
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        everything = may_change_player(request.user, player)
        ratings = player_ratings(player=player, everything=everything)
        if not ratings and not everything and not seen_in_public(player):
            raise NotFound()
        return Response(ratings)
