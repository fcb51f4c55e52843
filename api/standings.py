"""``GET /api/v1/tournaments/{id}/standings/``: the stored standings, cheap to poll.

The answer carries an ETag made of when the standings were computed and the newest
change not yet in them; a poll with a matching ``If-None-Match`` gets 304 after two
indexed look-ups, and the body itself is cached per computation. ``?round=N`` gives the
standings of one round. ``stale`` is true while a change is not yet in them.
"""

import logging

from django.core.cache import cache
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.rounds import visible_tournament
from tournaments.models import StandingRow, StandingsState
from tournaments.services.standings import standings_pending

log = logging.getLogger(__name__)
CACHE_SECONDS = 3600


def _round_param(request) -> int:
    raw = request.query_params.get("round")
    if raw in (None, ""):
        return 0
    if not raw.isdigit() or not 1 <= int(raw) <= 10_000:
        raise ValidationError({"round": [_("A round is a whole number from 1.")]})
    return int(raw)


def _results(tournament_id: int, round_number: int) -> list[dict]:
    rows = (StandingRow.objects.filter(tournament_id=tournament_id, round_number=round_number)
            .select_related("participant__player").order_by("rank", "participant_id"))
    return [
        {"rank": r.rank, "participant": r.participant_id, "name": r.participant.player.name,
         "start_number": r.participant.start_number, "score": r.score, **r.figures,
         "rounds": r.rounds}
        for r in rows
    ]


def _cached(key: str, build):
    try:
        value = cache.get(key)
    except Exception:  # the cache is an optimisation; Redis down must not fail a read
        log.warning("standings cache unavailable", exc_info=True)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(key, value, CACHE_SECONDS)
        except Exception:
            log.warning("standings cache unavailable", exc_info=True)
    return value


STANDINGS_ANSWER = inline_serializer("Standings", {
    "computed_at": serializers.DateTimeField(allow_null=True),
    "stale": serializers.BooleanField(),
    "round": serializers.IntegerField(allow_null=True),
    "results": serializers.ListField(child=serializers.DictField()),
})


class TournamentStandings(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: STANDINGS_ANSWER, 304: None},
                   parameters=[OpenApiParameter("round", int, required=False)])
    def get(self, request, tournament_id: int):
        tournament = visible_tournament(request, tournament_id)
        round_number = _round_param(request)
        state = StandingsState.objects.filter(tournament=tournament).first()
        computed_at = state.computed_at if state else None
        pending = standings_pending(tournament.pk)
        version = f"{computed_at.timestamp() if computed_at else 0}"
        etag = f'"st-{tournament.pk}-{round_number}-{version}-{pending or 0}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in {t.strip() for t in request.headers.get("If-None-Match", "").split(",")}:
            return Response(status=304, headers=headers)
        results = _cached(f"standings:{tournament.pk}:{round_number}:{version}",
                          lambda: _results(tournament.pk, round_number))
        body = {"computed_at": computed_at, "stale": pending is not None,
                "round": round_number or None, "results": results}
        return Response(body, headers=headers)
