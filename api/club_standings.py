"""``GET /api/v1/tournaments/{id}/clubs/standings/``: the club ranking (*Vereinswertung*,
games.md §10.4).

Clubs are ranked by the sum of their best K players (the tournament's
``club_ranking_k``; ``results`` is empty while it is null), derived from the stored
individual standings: ``stale`` and ``computed_at`` are theirs; ETag and 304. A
participant's club is their club at registration (``Participant.club``, stored when
registered; the player's club for participants registered before it was stored).
"""

import hashlib

import orjson
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from api.endpoints import TournamentEndpoint
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged
from tournaments.selectors import club_results, standings_version

CLUB_STANDINGS = inline_serializer("ClubStandings", {
    "computed_at": serializers.DateTimeField(allow_null=True),
    "stale": serializers.BooleanField(),
    "k": serializers.IntegerField(allow_null=True),
    "results": inline_serializer("ClubResult", {
        "rank": serializers.IntegerField(allow_null=True,
                                         help_text="null: fewer than K players"),
        "club": serializers.IntegerField(),
        "name": serializers.CharField(),
        "score": serializers.IntegerField(),
        "players": inline_serializer("ClubResultPlayer", {
            "participant": serializers.IntegerField(),
            "name": serializers.CharField(),
            "score": serializers.IntegerField(),
        }, many=True),
    }, many=True),
})


class ClubStandings(TournamentEndpoint):

    @extend_schema(responses={200: CLUB_STANDINGS, 304: None})
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        computed_at, pending = standings_version(tournament)
        stamp = computed_at.timestamp() if computed_at else 0
        full = self.full_names
        results = club_results(tournament, full=full)
        # the ETag covers the answer itself: who is in which club is not versioned
        digest = hash_of(results)
        etag = freshness_etag("clubs", tournament.pk, stamp, pending or 0, digest)
        answer = precondition_answer(request, etag)
        if answer is not None:
            return answer
        return tagged(Response({"computed_at": computed_at, "stale": pending is not None,
                                "k": tournament.club_ranking_k, "results": results}), etag)


def hash_of(value) -> str:
    return hashlib.blake2b(orjson.dumps(value), digest_size=8).hexdigest()
