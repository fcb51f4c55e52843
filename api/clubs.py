"""``/api/v1/clubs/``: anyone reads, staff create; a club's admins change it."""

from django.utils.translation import gettext_lazy as _
from rest_framework import mixins, serializers, viewsets

from api.permissions import ClubAccess
from api.strict import StrictModelSerializer
from clubs.models import Club
from clubs.services import club_create, club_update


class ClubSerializer(StrictModelSerializer):
    name = serializers.CharField(max_length=120, label=_("name"))
    city = serializers.CharField(max_length=120, required=False, allow_blank=True,
                                 label=_("city"))

    class Meta:
        model = Club
        fields = ["id", "slug", "name", "city"]
        read_only_fields = ["id", "slug"]

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("The name must not be blank."))
        return value


class ClubViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin,
                  mixins.UpdateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [ClubAccess]

    def perform_create(self, serializer):
        serializer.instance = club_create(**serializer.validated_data, admin=self.request.user)

    def perform_update(self, serializer):
        serializer.instance = club_update(club=serializer.instance, **serializer.validated_data)
