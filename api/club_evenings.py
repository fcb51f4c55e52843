"""``/api/v1/clubs/{id}/evenings/`` and ``/api/v1/clubs/{id}/settings/``.

A *club evening* is the club's weekly tournament: the club's admins post the date and who
is present (``player_ids`` of existing players, ``guests`` as names that become new
players) and, with ``method``, have the first round drawn at once; the answer carries the
round with its tables' entry tokens. Anyone lists the published evenings (``?year=``).
The *settings* are the club's defaults: game, house rules, table money, season ranking.
"""

from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from api.club_schemas import EveningCreatedSerializer, EveningListSerializer
from api.endpoints import ClubEndpoint
from api.games import GameField
from api.query import YEAR
from api.rounds import RoundWithTokensSerializer
from api.strict import StrictSerializer
from clublife.services.evenings import MAX_PRESENT, club_evening_create
from clubs.services import MAX_FEE_CENTS, club_defaults_update
from games.choices import game_keys, validate_game
from tournaments.models import Round
from tournaments.policies import visible_tournaments
from tournaments.selectors import rounds_with_seating


class EveningSerializer(StrictSerializer):
    date = serializers.DateField(label=_("date"))
    player_ids = serializers.ListField(child=serializers.IntegerField(min_value=1,
                                                                      max_value=2**63 - 1),
                                       required=False, default=list, max_length=MAX_PRESENT,
                                       label=_("players present"))
    guests = serializers.ListField(child=serializers.CharField(max_length=120),
                                   required=False, default=list, max_length=MAX_PRESENT,
                                   label=_("guests"))
    game = GameField(required=False, label=_("game"))
    rules = serializers.JSONField(required=False, label=_("rules"))
    method = serializers.ChoiceField(choices=Round.Method.choices, required=False,
                                     label=_("seating method"))


class ClubSettingsSerializer(StrictSerializer):
    # a plain string in the schema: a second enum of the game keys would clash with GameEnum
    default_game = serializers.CharField(max_length=20, required=False, label=_("default game"),
                                         help_text=", ".join(game_keys()),
                                         validators=[validate_game])
    default_rules = serializers.JSONField(required=False, label=_("default house rules"))
    loss_fee_cents = serializers.IntegerField(min_value=0, max_value=MAX_FEE_CENTS,
                                              required=False,
                                              label=_("fee per lost game (cents)"))
    loss_fee_from = serializers.IntegerField(min_value=1, max_value=1000, allow_null=True,
                                             required=False,
                                             label=_("higher fee from the n-th lost game"))
    loss_fee_high_cents = serializers.IntegerField(min_value=0, max_value=MAX_FEE_CENTS,
                                                   required=False,
                                                   label=_("higher fee per lost game (cents)"))
    season_best_n = serializers.IntegerField(min_value=1, max_value=366, allow_null=True,
                                             required=False,
                                             label=_("season: best evenings counted"))
    season_min_evenings = serializers.IntegerField(min_value=0, max_value=366, required=False,
                                                   label=_("season: evenings needed to be "
                                                           "ranked"))



def settings_json(club) -> dict:
    return {name: getattr(club, name) for name in ClubSettingsSerializer().fields}


def evening_json(t) -> dict:
    return {"id": t.pk, "slug": t.slug, "name": t.name, "date": t.date, "game": t.game,
            "rules": t.rules, "status": t.status, "published": t.published,
            "club": t.club_id, "club_evening": t.club_evening,
            "participants": getattr(t, "participant_count", None)}


class ClubEvenings(ClubEndpoint):
    # 500 guests' names of 120 characters, each written as \uXXXX, and 500 ids
    max_body_bytes = 524_288

    @extend_schema(parameters=[YEAR.parameter()],
                   responses=EveningListSerializer)
    def get(self, request, club_id: int):
        club = self.club
        evenings = (club.tournaments.filter(club_evening=True)
                    .filter(visible_tournaments(request.user))
                    .annotate(participant_count=Count("participants")).order_by("-date", "-id"))
        year = YEAR.read(request)
        if year is not None:
            evenings = evenings.filter(date__year=year)
        return Response({"results": [evening_json(t) for t in evenings[:500]]})

    @extend_schema(request=EveningSerializer, responses={201: EveningCreatedSerializer})
    def post(self, request, club_id: int):
        club = self.club
        serializer = EveningSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = club_evening_create(club=club, director=request.user,
                                         **serializer.validated_data)
        body = evening_json(tournament)
        body["participants"] = [
            {"id": p.pk, "player": p.player_id, "name": p.player.name,
             "start_number": p.start_number}
            for p in tournament.participants.select_related("player").order_by("start_number")]
        rnd = rounds_with_seating(tournament).first()
        body["round"] = (RoundWithTokensSerializer(rnd, context={"request": request}).data
                         if rnd else None)
        return Response(body, status=status.HTTP_201_CREATED)


class ClubSettings(ClubEndpoint):

    @extend_schema(responses=ClubSettingsSerializer)
    def get(self, request, club_id: int):
        return Response(settings_json(self.club))

    @extend_schema(request=ClubSettingsSerializer, responses=ClubSettingsSerializer)
    def patch(self, request, club_id: int):
        club = self.club
        serializer = ClubSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = club_defaults_update(club=club, **serializer.validated_data)
        return Response(settings_json(club))
