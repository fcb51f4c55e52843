"""``GET /api/v1/games/{game}/conformance/``: the public conformance suite of a game.

Every worked example of games.md and the engines' own table-driven cases, as data
(``games/conformance/<game>.json``, which the engine tests run too). Another scorer
passes when it answers each case's ``players``, ``rules`` and ``deals`` sent to its
``POST /games/{game}/score/`` as ``expect`` says; ``python -m games.conformance URL``
does this (docs/conformance.md).
"""

from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import conformance

CASE = {
    "type": "object", "required": ["id", "source", "players", "rules", "deals", "expect"],
    "properties": {
        "id": {"type": "string", "description": "unique within the game"},
        "title": {"type": "string", "description": "what the case shows (English)"},
        "source": {"type": "string",
                   "description": "games.md's section for a worked example, or the engine "
                                  "table the case comes from"},
        "players": {"type": "integer", "minimum": 1, "maximum": 8},
        "rules": {"description": "the house rules sent (an object; a case about a bad "
                                 "rules value may send something else)"},
        "deals": {"type": "array", "items": {}, "description": "the game's deal records "
                  "(games.md); a refusal case's record may be malformed on purpose"},
        "expect": {"type": "object", "properties": {
            "scores": {"type": "array", "description": "each deal's scores in seat order; "
                       "null for a deal that is not checked",
                       "items": {"type": "array", "nullable": True,
                                 "items": {"type": "integer"}}},
            "totals": {"type": "array", "description": "each seat's totals; every figure "
                       "given must match", "items": {"type": "object"}},
            "error_field": {"type": "string", "description": "the scorer answers 400 naming "
                            "this field (errors[].field)"},
        }},
    },
}


class Conformance(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    # the cases change with a deployment only
    @method_decorator(cache_control(public=True, max_age=3600))
    @extend_schema(
        summary="The game's conformance cases",
        responses={200: {"type": "array", "items": CASE}},
    )
    def get(self, request, game: str):
        """Every worked example of games.md and the engines' table-driven cases.
        `python -m games.conformance URL` runs them against any scorer at URL."""
        try:
            cases = conformance.load(game)
        except KeyError:
            raise NotFound(_("Unknown game “%(game)s”.") % {"game": game}) from None
        return Response(cases)
