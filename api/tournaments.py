"""``/api/v1/tournaments/``: tournaments and their participants, finishing and reopening.

Anyone reads published tournaments; staff create them; the directors (and the club's
admins) see unpublished ones and change them. A participant's personal token (their
own page, ``Authorization: Player``) is a secret: only the participant's own answer,
``GET``/``PATCH …/participants/{pid}/``, carries it (with ``personal_url``), and only to
the tournament's directors; the list of participants never does, not even for them (a
list is copied, cached and pasted more readily than one player's card).

``POST …/finish/`` closes a tournament (or club evening) for changes once its rounds are
closed; ``POST …/reopen/`` opens it again (``tournaments.services.lifecycle``).
"""

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from api.games import GameField
from api.names import ShownNameField
from api.permissions import TournamentAccess
from api.registrations import RegistrationSettingsSerializer, registration_settings
from api.strict import StrictModelSerializer, StrictSerializer
from clubs.models import Club, Player
from clubs.policies import runs_club
from games.errors import UserError
from signup.services.registrations import registration_configure
from tournaments.links import personal_url
from tournaments.models import (
    CATEGORY_MAX_LENGTH,
    MAX_CATEGORIES,
    MAX_CLUB_RANKING_K,
    MAX_ROUNDS_PLANNED,
    MIN_CLUB_RANKING_K,
    MIN_ROUNDS_PLANNED,
    Participant,
    Tournament,
)
from tournaments.policies import sees_full_names, visible_tournaments
from tournaments.services import (
    participant_add,
    participant_update,
    tournament_create,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)
from tournaments.services.categories import check_categories


class TournamentSerializer(StrictModelSerializer):
    name = serializers.CharField(max_length=160, label=_("name"))
    game = GameField(label=_("game"))
    rules = serializers.JSONField(required=False, label=_("rules"))
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), required=False,
                                              allow_null=True, label=_("club"))
    participants = serializers.IntegerField(source="participant_count", read_only=True,
                                            default=0)
    rounds_planned = serializers.IntegerField(
        required=False, allow_null=True, min_value=MIN_ROUNDS_PLANNED,
        max_value=MAX_ROUNDS_PLANNED, label=_("rounds planned"),
        help_text=_("Rounds the tournament means to play; balanced draws plan them ahead so "
                    "that no pair meets twice where a schedule allows it. Empty: the game's "
                    "default (shown in the answer)."))
    categories = serializers.ListField(
        child=serializers.CharField(max_length=CATEGORY_MAX_LENGTH), required=False,
        max_length=MAX_CATEGORIES, label=_("categories"),
        help_text=f"Up to {MAX_CATEGORIES} distinct labels of 1 to {CATEGORY_MAX_LENGTH} "
                  "characters (Damen, Senioren, …); dropping a label takes it from the "
                  "participants too (games.md §10.3).")
    club_ranking_k = serializers.IntegerField(
        required=False, allow_null=True, min_value=MIN_CLUB_RANKING_K,
        max_value=MAX_CLUB_RANKING_K, label=_("club ranking: players counted per club"),
        help_text="Clubs are ranked by the sum of their best K players (games.md §10.4); "
                  "null: no club ranking.")
    one_prize_per_player = serializers.BooleanField(
        required=False, label=_("one prize per player"),
        help_text="A player wins one prize at most: the overall list pays first, a "
                  "category's prize passes to the next player of the category.")
    registration = RegistrationSettingsSerializer(source="*", required=False)

    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "game", "rules", "club", "date", "status", "published",
                  "avoid_same_club", "rounds_planned", "team_size", "categories",
                  "club_ranking_k", "one_prize_per_player", "participants", "registration"]
        read_only_fields = ["id", "slug", "status"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["rounds_planned"] = instance.planned_rounds  # the game's default when unset
        return data

    def validate_name(self, value):
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("The name must not be blank."))
        return value

    def validate_categories(self, value):
        try:
            return check_categories(value)
        except UserError as error:
            raise serializers.ValidationError(_(error.message) % error.params) from None

    def validate_club(self, club):
        if club is not None and not runs_club(self.context["request"].user, club):
            raise serializers.ValidationError(_("You can only hold tournaments for clubs you run."))
        return club


class ParticipantSerializer(StrictModelSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), label=_("player"))
    name = ShownNameField()
    club_name = serializers.CharField(
        source="club_label", read_only=True, max_length=120,
        help_text="The club shown beside the name: the player's club, else the club a "
                  "guest typed at sign-up; empty for none.")

    class Meta:
        model = Participant
        fields = ["id", "player", "name", "club_name", "start_number", "checked_in",
                  "withdrawn", "categories", "paid", "status"]
        read_only_fields = ["id", "club_name", "start_number", "categories", "paid", "status"]


class ParticipantDetailSerializer(ParticipantSerializer):
    personal_token = serializers.CharField(
        read_only=True, max_length=Participant._meta.get_field("personal_token").max_length,
        help_text="The player's secret for their own page and phone (Authorization: "
                  "Player …); 192 random bits, URL-safe. Directors only.")
    personal_url = serializers.SerializerMethodField(
        help_text="The player's own page, opened with the token (what the player card's "
                  "QR code holds); an absolute URL on the address players' phones reach.")

    class Meta(ParticipantSerializer.Meta):
        fields = [*ParticipantSerializer.Meta.fields, "personal_token", "personal_url"]
        read_only_fields = fields

    def get_personal_url(self, participant) -> str:
        return personal_url(self.context["request"], participant)


class ParticipantUpdateSerializer(StrictSerializer):
    checked_in = serializers.BooleanField(required=False, label=_("checked in"))
    withdrawn = serializers.BooleanField(required=False, label=_("withdrawn"))
    categories = serializers.ListField(
        child=serializers.CharField(max_length=CATEGORY_MAX_LENGTH), required=False,
        max_length=MAX_CATEGORIES, label=_("categories"),
        help_text="The tournament's category labels this participant belongs to; an "
                  "unknown label is a 400 naming categories.")
    paid = serializers.BooleanField(required=False, label=_("paid"),
                                    help_text="the entry fee is paid (check-in at the door)")

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError(
                {"withdrawn": [_("Give checked_in, withdrawn or paid (true or false).")]})
        return attrs


class TournamentViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin,
                        mixins.UpdateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = TournamentSerializer
    permission_classes = [TournamentAccess]
    director_reads = False  # an action's own says whether reading it is the directors'

    def get_queryset(self):
        return (Tournament.objects.filter(visible_tournaments(self.request.user))
                .annotate(participant_count=Count("participants")))

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        registration = registration_settings(Tournament(), data)  # sign-up, issue 29
        serializer.instance = tournament_create(director=self.request.user, **data)
        if registration is not None:
            serializer.instance = registration_configure(
                tournament_id=serializer.instance.pk, **registration)
        serializer.instance.participant_count = 0

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        registration = registration_settings(serializer.instance, data)  # sign-up, issue 29
        if data or registration is None:
            serializer.instance = tournament_update(tournament=serializer.instance, **data)
        if registration is not None:
            serializer.instance = registration_configure(
                tournament_id=serializer.instance.pk, **registration)

    @extend_schema(methods=["GET"], responses=ParticipantSerializer(many=True))
    @extend_schema(methods=["POST"], request=ParticipantSerializer,
                   responses={201: ParticipantSerializer})
    @action(detail=True, methods=["get", "post"], url_path="participants",
            serializer_class=ParticipantSerializer, pagination_class=None)
    def participants(self, request, pk=None):
        tournament = self.get_object()
        if request.method == "GET":
            qs = tournament.participants.select_related("player__club")
            return Response(ParticipantSerializer(qs, many=True, context=self._names(tournament))
                            .data)
        serializer = ParticipantSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        # "registered already?" is participant_add's decision (400 naming ``player``)
        participant = participant_add(tournament=tournament,
                                      player=serializer.validated_data["player"])
        return Response(ParticipantSerializer(participant, context=self._names(tournament)).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses=ParticipantDetailSerializer,
                   parameters=[OpenApiParameter("participant_id", int, OpenApiParameter.PATH)])
    @extend_schema(methods=["PATCH"], request=ParticipantUpdateSerializer,
                   responses=ParticipantDetailSerializer,
                   parameters=[OpenApiParameter("participant_id", int, OpenApiParameter.PATH)])
    @action(detail=True, methods=["get", "patch"],
            url_path=r"participants/(?P<participant_id>\d+)",
            serializer_class=ParticipantUpdateSerializer, director_reads=True)
    def participant_detail(self, request, pk=None, participant_id=None):
        """One participant with their personal token and link (the player card's), for
        the tournament's directors; ``PATCH`` checks them in or withdraws them."""
        tournament = self.get_object()  # TournamentAccess: reading too is the directors'
        participant = get_object_or_404(tournament.participants.select_related("player"),
                                        pk=participant_id)
        if request.method == "PATCH":
            serializer = ParticipantUpdateSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            participant = participant_update(participant=participant,
                                             **serializer.validated_data)
        return Response(ParticipantDetailSerializer(participant,
                                                    context=self._names(tournament)).data)

    def _names(self, tournament) -> dict:
        """The context of a participant's name (``api.names.ShownNameField``)."""
        return {"request": self.request,
                "full_names": sees_full_names(self.request.user, tournament)}

    def _lifecycle(self, request, change):
        tournament = self.get_object()  # TournamentAccess: its directors only
        tournament = change(tournament_id=tournament.pk)
        tournament.participant_count = tournament.participants.count()
        return Response(TournamentSerializer(tournament, context={"request": request}).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="finish", serializer_class=None)
    def finish(self, request, pk=None):
        """Finish the tournament: closed for changes (409 while a round is open)."""
        return self._lifecycle(request, tournament_finish)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="reopen", serializer_class=None)
    def reopen(self, request, pk=None):
        """Reopen a finished tournament for changes (409 when it is not finished)."""
        return self._lifecycle(request, tournament_reopen)
