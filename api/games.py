"""``/api/v1/games/``: the games and their options, and the stateless scorer.

The scorer validates and scores a whole sheet without storing anything. Its body is
``{"players": n, "rules": {...}, "deals": [...]}`` (or ``"summary"`` instead of
``"deals"`` for games with a summary entry). Any bad input is a 400 naming the field
and, for deals, the deal's index and number.
"""

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttling import ScorerRateThrottle
from games.engines import EngineUserError, all_engines, get_engine

_SCORE_KEYS = {"players", "rules", "deals", "summary"}


def _engine_or_404(key: str):
    try:
        return get_engine(key)
    except EngineUserError:
        raise NotFound(_("Unknown game “%(game)s”.") % {"game": key}) from None


class GameList(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The games and their options",
                   operation_id="games_list")
    def get(self, request):
        return Response({"results": [engine.describe() for engine in all_engines()]})


class GameDetail(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request, game: str):
        return Response(_engine_or_404(game).describe())


def score_payload(engine, data) -> dict:
    """Score a scorer request body; raises ValidationError / EngineUserError."""
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": [_("The body must be a JSON object.")]})
    unknown = sorted(set(data) - _SCORE_KEYS)
    if unknown:
        raise ValidationError({key: [_("Unknown field.")] for key in unknown})
    if "players" not in data:
        raise ValidationError({"players": [_("This field is required.")]})
    if "summary" in data:
        if "deals" in data:
            raise ValidationError({"summary": [_("Send either deals or a summary, not both.")]})
        totals = engine.summary_totals(data["summary"], data["players"], data.get("rules"))
        return {"deals": [], "totals": totals, "complete": True}
    result = engine.score_sheet(data.get("deals", []), data["players"], data.get("rules"))
    deals = [
        {"number": i + 1, "scores": d.scores, **d.extra} for i, d in enumerate(result.deals)
    ]
    return {"deals": deals, "totals": result.totals, "complete": result.complete}


class Scorer(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScorerRateThrottle]

    @property
    def max_body_bytes(self) -> int:
        return settings.SCORER_MAX_BODY_BYTES

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: inline_serializer("ScoredSheet", {
                "deals": serializers.ListField(child=serializers.DictField()),
                "totals": serializers.ListField(child=serializers.DictField()),
                "complete": serializers.BooleanField(),
            }),
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="invalid input"),
            404: OpenApiResponse(OpenApiTypes.OBJECT, description="unknown game"),
        },
        summary="Score a sheet without storing it",
    )
    def post(self, request, game: str):
        engine = _engine_or_404(game)
        return Response(score_payload(engine, request.data))
