"""``GET /api/v1/players/{id}/export/`` and ``POST /api/v1/players/{id}/erase/``: a
person's data (DSGVO), for staff who may change the player (his club's admins, his
creator, superusers; ``PlayerDataAccess``). The export is everything stored about the
person (``clublife.services.privacy.player_export``); the erasure replaces the name by
"Gelöschte Person <id>", clears the member number and keeps the results
(``player_erase``); erasing twice answers the same. Others: 403 (staff) or 401."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from api.endpoints import ParentEndpoint
from api.permissions import PlayerDataAccess
from api.players import PlayerSerializer
from clublife.services.privacy import player_erase, player_export
from clubs.models import Player


class PlayerEndpoint(ParentEndpoint):
    permission_classes = [PlayerDataAccess]
    model, lookup, attribute = Player, "player_id", "player"

    def parent_queryset(self):
        return Player.objects.select_related("club", "created_by")


_ROWS = serializers.ListField(child=serializers.DictField())
EXPORT_ANSWER = inline_serializer("PlayerExport", {
    "player": serializers.DictField(),
    **{key: _ROWS for key in ("participations", "seats", "sheet_history", "confirmations",
                              "objections", "calls", "season_rankings", "merges",
                              "change_log", "mails")},
})


class PlayerExport(PlayerEndpoint):

    @extend_schema(responses={200: EXPORT_ANSWER})
    def get(self, request, player_id: int):
        """Everything stored about the person: the player row, participations with rank
        and score, seats, sheet history (with the IP addresses of the player's phone),
        confirmations, objections, calls, table money, season rankings, merges, the
        change log, the registration (e-mail address, language) of each sign-up and the
        mails sent to it."""
        return Response(player_export(player=self.player), headers={
            "Content-Disposition": f'attachment; filename="player-{self.player.pk}.json"'})


class PlayerErase(PlayerEndpoint):

    @extend_schema(request=None, responses=PlayerSerializer)
    def post(self, request, player_id: int):
        """Erase the person: name replaced by "Gelöschte Person <id>", member number
        cleared, personal links dead, results kept; erasing again changes nothing."""
        player = player_erase(player=self.player, by=request.user)
        return Response(PlayerSerializer(player, context={"request": request}).data)
