"""``/api/v1/players/{id}/profile/`` and ``/api/v1/players/{id}/merge/``.

A *profile* is every event the player took part in and, per game, his series, average
score per series and declarer games won and lost, over the tournaments the caller may
see (``tournaments.policies.visible_tournaments``: the published ones, and those he
directs); a player without any is 404 to anyone but staff (who list players anyway).
A *merge* (``{"remove": id}``) moves the duplicate's results to this player and deletes
the duplicate; it needs the right to change both players, and is refused with 409 when
both played one tournament or belong to different clubs.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from api.club_schemas import MergedSerializer, ProfileSerializer
from api.endpoints import ParentEndpoint
from api.permissions import PlayerAccess, ReadOnly
from api.strict import StrictSerializer
from clublife.selectors import player_profile
from clublife.services.players import player_merge
from clubs.models import Player
from clubs.policies import is_staff


class MergeSerializer(StrictSerializer):
    remove = serializers.IntegerField(min_value=1, max_value=2**63 - 1,
                                      label=gettext_lazy("duplicate to remove"))

    def validate_remove(self, value):
        player = Player.objects.filter(pk=value).first()
        if player is None:
            raise serializers.ValidationError(_("Unknown player “%(player)s”.")
                                              % {"player": value})
        return player


class PlayerProfile(APIView):
    permission_classes = [ReadOnly]  # a public read, of the events the caller may see

    @extend_schema(responses=ProfileSerializer)
    def get(self, request, player_id: int):
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        profile = player_profile(player=player, viewer=request.user)
        if not profile["events"] and not is_staff(request.user):
            raise NotFound()
        return Response(profile)


class PlayerMergeView(ParentEndpoint):
    """Both players must be ones the user may change (``may_change_player``)."""

    permission_classes = [PlayerAccess]
    model, lookup, attribute = Player, "player_id", "keep"

    @extend_schema(request=MergeSerializer, responses=MergedSerializer)
    def post(self, request, player_id: int):
        keep = self.keep
        serializer = MergeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        remove = serializer.validated_data["remove"]
        self.check_object_permissions(request, remove)
        record = player_merge(keep=keep, remove=remove, by=request.user)
        keep.refresh_from_db()
        return Response({"kept": keep.pk, "removed": record.removed_id,
                         "participations": record.participations,
                         "profile": player_profile(player=keep, viewer=request.user)})
