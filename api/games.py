"""``/api/v1/games/``: the games and their options, and the stateless scorer.

The scorer validates and scores a whole sheet without storing anything. Its body is
``{"players": n, "rules": {...}, "deals": [...]}`` (or ``"summary"`` instead of
``"deals"`` for games with a summary entry). Any bad input is a 400 naming the field
and, for deals, the deal's index and number.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.openapi import DEAL_RECORD
from api.parsers import FromSetting
from api.strict import StrictSerializer
from api.throttling import ScorerRateThrottle
from games.choices import game_choices, league_game_choices
from games.engines import all_engines, get_engine, most_seats
from games.errors import UserError

_SCORE_KEYS = {"players", "rules", "deals", "summary"}

_TEXT = {"type": "object", "properties": {"en": {"type": "string"}, "de": {"type": "string"}},
         "required": ["en", "de"]}
_OPTION = {
    "type": "object", "description": "A house-rule option: its default, type, bounds or "
                                     "choices, and label and help in English and German.",
    "properties": {
        "default": {}, "type": {"type": "string", "enum": ["bool", "int", "str", "preset"]},
        "label": _TEXT, "help": _TEXT, "min": {"type": "integer"}, "max": {"type": "integer"},
        "choices": {"type": "array", "items": {"type": "object", "properties": {
            "value": {}, "label": _TEXT}, "required": ["value", "label"]}},
        "fields": {"type": "object", "additionalProperties": {"type": "object"}},
    },
    "required": ["default", "type", "label", "help"],
}
_SEATS = {"type": "integer", "minimum": 1, "maximum": most_seats()}


class GameField(serializers.ChoiceField):
    """A game's key, one of the registered engines' (``games.choices``); with ``league``, of a
    game that has a league. The choices are read whenever a serializer is made."""

    def __init__(self, *, league: bool = False, **kwargs):
        super().__init__(choices=league_game_choices() if league else game_choices(),
                         **kwargs)


@extend_schema_field({"type": "object", "additionalProperties": _OPTION})
class OptionsField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "description": "the deal record's JSON schema "
                      "(games.md); the same as the game's <Game>Deal component"})
class RecordSchemaField(serializers.JSONField):
    pass


class GameSerializer(StrictSerializer):
    key = serializers.CharField()
    name = serializers.JSONField()
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    preferred_table_size = serializers.IntegerField()
    rounds_planned = serializers.IntegerField()
    standing_order = serializers.ChoiceField(choices=["asc", "desc"])
    summary = serializers.BooleanField(help_text="whether a sheet may be entered as totals")
    options = OptionsField()
    record = RecordSchemaField()


class GameListSerializer(StrictSerializer):
    results = GameSerializer(many=True)


SCORE_REQUEST = {"application/json": {
    "type": "object", "additionalProperties": False, "required": ["players"],
    "properties": {
        "players": {"type": "integer", "minimum": 3, "maximum": 7,
                    "description": "the table size; the game's table_sizes"},
        "rules": {"type": "object", "description": "house rules: the game's options"},
        "deals": {"type": "array", "items": DEAL_RECORD, "maxItems": 200},
        "summary": {"type": "array", "maxItems": 16, "items": {
            "type": "object", "properties": {"game_points": {"type": "integer"},
                                             "won": {"type": "integer", "minimum": 0},
                                             "lost": {"type": "integer", "minimum": 0}},
            "required": ["game_points", "won", "lost"]},
            "description": "Skat: the totals per seat instead of deals"},
    }}}


@extend_schema_field({"type": "object", "properties": {
    "number": {"type": "integer"}, "scores": {"type": "array", "items": {"type": "integer"}}},
    "required": ["number", "scores"], "description": "a deal's scores per seat and the "
    "game's details of the scoring"})
class ScoredDealField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "properties": {
    "seat": {"type": "integer"}, "score": {"type": "integer"}}, "required": ["seat", "score"],
    "additionalProperties": {"type": "integer"}, "description": "a seat's totals: the "
    "standing figure score and the game's other figures"})
class SeatTotalsField(serializers.JSONField):
    pass


class ScoredSheetSerializer(StrictSerializer):
    deals = serializers.ListField(child=ScoredDealField())
    totals = serializers.ListField(child=SeatTotalsField())
    complete = serializers.BooleanField()


def _engine_or_404(key: str):
    try:
        return get_engine(key)
    except UserError:
        raise NotFound(_("Unknown game “%(game)s”.") % {"game": key}) from None


class GameList(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses=GameListSerializer, summary="The games and their options",
                   operation_id="games_list")
    def get(self, request):
        return Response({"results": [engine.describe() for engine in all_engines()]})


class GameDetail(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses=GameSerializer)
    def get(self, request, game: str):
        return Response(_engine_or_404(game).describe())


def score_payload(engine, data) -> dict:
    """Score a scorer request body; raises ValidationError / UserError."""
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": [_("The body must be a JSON object.")]})
    unknown = sorted(set(data) - _SCORE_KEYS)
    if unknown:  # named up to the answer's bound (api.errors)
        raise ValidationError({key: [ErrorDetail(_("Unknown field."), code="unknown")]
                               for key in unknown})
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

    max_body_bytes = FromSetting("SCORER_MAX_BODY_BYTES")

    @extend_schema(
        request=SCORE_REQUEST,
        responses=ScoredSheetSerializer,
        summary="Score a sheet without storing it",
    )
    def post(self, request, game: str):
        engine = _engine_or_404(game)
        return Response(score_payload(engine, request.data))
