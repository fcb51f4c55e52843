"""Endpoint bases that load the parent object of a URL and check the permission on it.

``/clubs/{club_id}/…``, ``/tournaments/{tournament_id}/…`` and ``/tables/{table_id}/…``
name their parent; the base loads it (404 when there is none) before the handler runs
and calls ``check_object_permissions``, so a handler starts with ``self.club``,
``self.tournament`` or ``self.table`` it may use, and decides nothing about access.
"""

from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework.permissions import SAFE_METHODS
from rest_framework.views import APIView

from api.permissions import ClubAccess, TableAccess, TournamentAccess, player_of, table_of
from clubs.models import Club
from clubs.policies import is_staff
from tournaments.models import Table, Tournament
from tournaments.policies import sees_full_names
from tournaments.services import NOT_ASKED, Actor, SheetWrite, table_lock


def actor_of(request) -> Actor:
    """Who the services record as the author: the staff user, the table, or the player
    whose phone acts at the table."""
    ip = request.META.get("REMOTE_ADDR") or None
    return Actor(user=request.user if is_staff(request.user) else None,
                 by_table=not is_staff(request.user), ip=ip, participant=player_of(request))


class ParentEndpoint(APIView):
    """Loads ``model`` by the URL's ``lookup`` into ``self.<attribute>`` and checks it."""

    model = None
    lookup = ""
    attribute = ""

    def parent_queryset(self):
        return self.model.objects.all()

    def load_parent(self, request, pk):
        return get_object_or_404(self.parent_queryset(), pk=pk)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        parent = self.load_parent(request, kwargs[self.lookup])
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

    @property
    def full_names(self) -> bool:
        """Whether this request sees players' full names (``sees_full_names``): those who
        direct the tournament; everyone else, players' tokens included, sees each name as
        its player chose."""
        return sees_full_names(self.request.user, self.tournament)

    def name_context(self) -> dict:
        """A serializer's context with ``full_names`` (``api.names.ShownNameField``)."""
        return {"request": self.request, "full_names": self.full_names}


class TableEndpoint(ParentEndpoint):
    permission_classes = [TableAccess]
    model, lookup, attribute = Table, "table_id", "table"
    locks_table = True  # a write locks the table for the request (False: a preview)
    sheet: SheetWrite | None = None

    def _writes(self, request) -> bool:
        return self.locks_table and request.method not in SAFE_METHODS

    def dispatch(self, request, *args, **kwargs):
        if not self._writes(request):
            return super().dispatch(request, *args, **kwargs)
        with transaction.atomic():
            return super().dispatch(request, *args, **kwargs)

    def parent_queryset(self):
        return Table.objects.select_related("round__tournament__club")

    def load_parent(self, request, pk):
        own = table_of(request)
        refusal = NOT_ASKED
        if own is not None and own.pk == pk:
            table = own  # the token's table, loaded (and locked) by the authentication
            refusal = request.user.refusal  # and the policy asked of it there
        elif own is None and self._writes(request):
            try:
                table = table_lock(pk)
            except Table.DoesNotExist:
                raise Http404() from None
        else:
            return super().load_parent(request, pk)  # another table's token: 404 follows
        if self._writes(request):
            self.sheet = SheetWrite.of(table, token_refusal=refusal)
        return table
