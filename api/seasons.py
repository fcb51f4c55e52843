"""``/api/v1/clubs/{id}/seasons/{year}/?game={game}``: a club's season ranking (Jahreswertung).

Anyone reads it; the club's admins change how it counts (``best_n``: only the best N
evenings count, empty for all; ``min_evenings``: attendance needed to be ranked;
``ranked_by``: ``"sum"``, the default, ranks by the counted score, ``"average"`` by the score
per round played, the DDV's *Rundenschnitt*, for any game; left out of a PUT it stays as
it is). Each result carries ``rounds`` (rounds played on the counted evenings) and
``average`` (score per round, two decimals). Like the
tournament standings it is stored, carries an ETag (when it was computed and the newest
change not yet in it) and answers a matching ``If-None-Match`` with 304; ``stale`` is true
while a change of its evenings is not yet in it. ``game`` defaults to the club's game.
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from api.club_helpers import game_of, year_of
from api.club_schemas import SeasonSerializer
from api.endpoints import ClubEndpoint
from api.query import GAME, YEAR
from api.standings import _cached
from api.strict import StrictSerializer
from clublife.models import Season, SeasonRow
from clublife.selectors import season_find, season_pending
from clublife.services.seasons import MAX_EVENINGS, season_get_or_create, season_update
from clubs.policies import sees_full_names_in_club
from clubs.publication import shown_player
from tournaments.freshness import etag as freshness_etag
from tournaments.freshness import precondition_answer, tagged

GAME_PARAM = GAME.parameter()
YEAR_PATH = YEAR.parameter(OpenApiParameter.PATH)


class SeasonRulesSerializer(StrictSerializer):
    best_n = serializers.IntegerField(min_value=1, max_value=MAX_EVENINGS, allow_null=True,
                                      label=_("best evenings counted"))
    min_evenings = serializers.IntegerField(min_value=0, max_value=MAX_EVENINGS,
                                            label=_("evenings needed to be ranked"))
    ranked_by = serializers.ChoiceField(
        choices=Season.RANKED_BY_CHOICES, required=False, label=_("ranked by"),
        help_text='"sum" (the default): by the counted score; "average": by the score per '
                  'round played (the DDV\'s Rundenschnitt). Left out: unchanged.')


def season_results(season_id: int, full: bool = False) -> list[dict]:
    """The ranking's rows; names as their players chose unless ``full``
    (``sees_full_names_in_club``); a season has no start numbers ("Player 42")."""
    rows = (SeasonRow.objects.filter(season_id=season_id).select_related("player")
            .order_by("position"))
    return [{"rank": r.rank, "player": r.player_id, "name": shown_player(r.player, full=full),
             "qualified": r.rank is not None, "score": r.score, **r.figures,
             "rounds": r.rounds, "average": r.average,
             "attended": r.attended, "counted": r.counted, "evenings": r.results}
            for r in rows]


def season_answer(request, club, game: str, year: int):
    season = season_find(club=club, game=game, year=year)
    pending = season_pending(season, club_id=club.pk, game=game, year=year)
    computed_at = season.computed_at if season else None
    version = f"{computed_at.timestamp() if computed_at else 0}"
    full = sees_full_names_in_club(request.user, club)
    etag = freshness_etag("season", club.pk, game, year, version, pending or 0, full)
    answer = precondition_answer(request, etag)
    if answer is not None:
        return answer
    # a changed publication choice marks the season stale: ``pending`` keys the names
    results = (_cached(f"season:{season.pk}:{version}-{pending or 0}-{int(full)}",
                       lambda: season_results(season.pk, full))
               if season else [])
    body = {"club": club.pk, "club_name": club.name, "game": game, "year": year,
            "best_n": season.best_n if season else club.season_best_n,
            "min_evenings": season.min_evenings if season else club.season_min_evenings,
            "ranked_by": season.ranked_by if season else "sum",
            "evenings": season.evenings if season else 0, "computed_at": computed_at,
            "stale": bool(pending), "results": results}
    return tagged(Response(body), etag)


class ClubSeason(ClubEndpoint):

    @extend_schema(parameters=[GAME_PARAM, YEAR_PATH],
                   responses={200: SeasonSerializer, 304: None})
    def get(self, request, club_id: int, year: str):
        club = self.club
        return season_answer(request, club, game_of(request, club), year_of(year))

    @extend_schema(parameters=[GAME_PARAM, YEAR_PATH], request=SeasonRulesSerializer,
                   responses=SeasonSerializer)
    def put(self, request, club_id: int, year: str):
        club = self.club
        game, year_number = game_of(request, club), year_of(year)
        serializer = SeasonRulesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = season_get_or_create(club=club, game=game, year=year_number)
        season_update(season=season, **serializer.validated_data)
        return season_answer(request, club, game, year_number)
