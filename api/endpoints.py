"""Endpoint bases that load the parent object of a URL and check the permission on it.

``/clubs/{club_id}/…``, ``/tournaments/{tournament_id}/…`` and ``/tables/{table_id}/…``
name their parent; the base loads it (404 when there is none) before the handler runs
and calls ``check_object_permissions``, so a handler starts with ``self.club``,
``self.tournament`` or ``self.table`` it may use, and decides nothing about access.
"""

from django.shortcuts import get_object_or_404
from rest_framework.views import APIView

from api.permissions import ClubAccess, TableAccess, TournamentAccess
from clubs.models import Club
from clubs.policies import is_staff
from tournaments.models import Table, Tournament
from tournaments.services import Actor


def actor_of(request) -> Actor:
    """Who the services record as the author: the staff user, or the table."""
    ip = request.META.get("REMOTE_ADDR") or None
    return Actor(user=request.user if is_staff(request.user) else None,
                 by_table=not is_staff(request.user), ip=ip)


class ParentEndpoint(APIView):
    """Loads ``model`` by the URL's ``lookup`` into ``self.<attribute>`` and checks it."""

    model = None
    lookup = ""
    attribute = ""

    def parent_queryset(self):
        return self.model.objects.all()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        parent = get_object_or_404(self.parent_queryset(), pk=kwargs[self.lookup])
        self.check_object_permissions(request, parent)
        setattr(self, self.attribute, parent)


class ClubEndpoint(ParentEndpoint):
    permission_classes = [ClubAccess]
    model, lookup, attribute = Club, "club_id", "club"


class TournamentEndpoint(ParentEndpoint):
    permission_classes = [TournamentAccess]
    model, lookup, attribute = Tournament, "tournament_id", "tournament"

    def parent_queryset(self):
        return Tournament.objects.select_related("club")


class TableEndpoint(ParentEndpoint):
    permission_classes = [TableAccess]
    model, lookup, attribute = Table, "table_id", "table"

    def parent_queryset(self):
        return Table.objects.select_related("round__tournament__club")
