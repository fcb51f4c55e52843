"""``/api/v1/players/``: staff only.

The player list is shared by all staff (a tournament seats players of many clubs); a
player's club must be one the user runs, and only the creator or the club's admins may
change a player. The name of a player who chose "initial" or "number" is shown in full
only to his club's admins and the directors of his tournaments
(``tournaments.policies.sees_full_name_of``); other staff see it as he chose.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers, viewsets

from api.permissions import PlayerAccess
from api.query import CLUB
from api.strict import StrictModelSerializer
from clublife.services.players import player_rename
from clublife.services.privacy import player_publish
from clubs.models import Club, Player
from clubs.policies import runs_club
from clubs.publication import shown_player
from clubs.services import player_create, player_update
from tournaments.policies import full_name_seen, sees_full_name_of


class ClubField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": _("Unknown club “%(pk_value)s”."),
        "incorrect_type": _("A club is given by its id (a whole number)."),
    }

    def get_queryset(self):
        return Club.objects.all()


class PlayerSerializer(StrictModelSerializer):
    name = serializers.CharField(max_length=120, label=_("name"))
    club = ClubField(required=False, allow_null=True, label=_("club"))
    member_number = serializers.CharField(max_length=40, required=False, allow_blank=True,
                                          label=_("member number"))
    # a method field: a source through a null club with a default is skipped on PATCH
    club_name = serializers.SerializerMethodField()
    publication = serializers.ChoiceField(
        choices=Player.Publication.choices, required=False, label=_("name on public pages"),
        help_text='how the name appears on every public page, print, CSV and anonymous '
                  'answer: "full" (Anna Berger), "initial" (Anna B.), "number" (No. 17)')

    class Meta:
        model = Player
        fields = ["id", "name", "club", "club_name", "member_number", "publication",
                  "erased_at"]
        read_only_fields = ["id", "erased_at"]
        # The conditional unique constraint is checked in validate() with a clear message.
        validators: list = []

    def to_representation(self, player):
        """The name as the caller may see it: the full name for those
        ``sees_full_name_of`` names (a list brings the answer along, ``full_name_seen``),
        else as the player chose ("Anna B.", "Player 42")."""
        data = super().to_representation(player)
        seen = getattr(player, "full_name_seen", None)
        if seen is None:
            seen = sees_full_name_of(self.context["request"].user, player)
        if not seen:
            data["name"] = shown_player(player)
        return data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_club_name(self, player) -> str | None:
        return player.club.name if player.club_id else None

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("The name must not be blank."))
        return value

    def validate_club(self, club):
        user = self.context["request"].user
        if club is not None and not runs_club(user, club):
            raise serializers.ValidationError(
                _("You can only add players to clubs you run.")
            )
        return club

    def validate(self, attrs):
        club = attrs.get("club", getattr(self.instance, "club", None))
        number = attrs.get("member_number", getattr(self.instance, "member_number", ""))
        if number and club is None:
            raise serializers.ValidationError(
                {"member_number": _("A member number needs a club.")}
            )
        if number:
            clash = Player.objects.filter(club=club, member_number=number)
            if self.instance is not None:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise serializers.ValidationError(
                    {"member_number": _("This member number is already taken in the club.")}
                )
        return attrs


@extend_schema_view(list=extend_schema(parameters=[CLUB.parameter()]))
class PlayerViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin,
                    mixins.UpdateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [PlayerAccess]

    def get_queryset(self):
        qs = super().get_queryset().annotate(full_name_seen=full_name_seen(self.request.user))
        club = CLUB.read(self.request) if self.action == "list" else None
        if club is not None:
            qs = qs.filter(club_id=club)
        return qs

    def perform_create(self, serializer):
        fields = dict(serializer.validated_data)
        publication = fields.pop("publication", None)
        with transaction.atomic():
            player = player_create(**fields, created_by=self.request.user)
            if publication is not None:
                player = player_publish(player=player, publication=publication)
        serializer.instance = player

    def perform_update(self, serializer):
        fields = dict(serializer.validated_data)
        name = fields.pop("name", None)
        publication = fields.pop("publication", None)
        with transaction.atomic():
            player = serializer.instance
            if name is not None:
                # the one renaming service: history kept, standings showing it redone
                player = player_rename(player=player, name=name, by=self.request.user)
            if publication is not None:
                player = player_publish(player=player, publication=publication)
            if fields:
                player = player_update(player=player, **fields)
        serializer.instance = player
