"""DRF permission classes: the API's face of the domain policies (api.md, "Authentication").

The questions are answered once, in the apps they are about (``clubs.policies``:
``runs_club``, ``may_change_player``; ``tournaments.policies``: ``directs``,
``can_see_tournament``); these classes only ask them. ``has_permission`` decides who may
knock at all (anyone reads, staff write; 401 for nobody, 403 for a table token), the
object check decides on the club, tournament, table or player the endpoint loaded (see
``api.endpoints``). A player's personal token acts at the table where the player sits in
the open round, as the table's token does (``plays_at``); at any other table it gets 404.
A tournament one may not see is 404, never 403: its existence is not told. A table token
is good for its own table only; another table's token gets 404.

Each class also says, for the OpenAPI schema, who may call an operation: ``who(method,
view)`` gives whether anonymous callers may, and a sentence naming the callers
(``api.openapi`` puts both into every operation).
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.policies import is_staff, may_change_player, runs_club
from tournaments.models import Participant, Table
from tournaments.policies import (
    can_see_tournament,
    directs,
    directs_table,
    handles_data_of,
    plays_at,
)


def table_of(request):
    """The table whose token authenticated the request, or None."""
    return request.auth if isinstance(request.auth, Table) else None


def player_of(request):
    """The participant whose personal token authenticated the request, or None."""
    return request.auth if isinstance(request.auth, Participant) else None


STAFF = "staff (Authorization: Token …, or the browser session)"


class StaffWritesAnyoneReads(BasePermission):
    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or is_staff(request.user)

    def who(self, method: str, view) -> tuple[bool, str]:
        if method in SAFE_METHODS:
            return True, "anyone, also without credentials"
        return False, STAFF


class StaffOnly(BasePermission):
    def has_permission(self, request, view):
        return is_staff(request.user)

    def who(self, method: str, view) -> tuple[bool, str]:
        return False, STAFF


class ReadOnly(BasePermission):
    """A public read: anyone, any credentials, safe methods only."""

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS

    def who(self, method: str, view) -> tuple[bool, str]:
        return method in SAFE_METHODS, "anyone, also without credentials (reads only)"


class ClubAccess(StaffWritesAnyoneReads):
    """Anyone reads a club's public pages; its admins change it. ``admin_reads`` on the
    view makes reading the club's admins' too (table money)."""

    message = _("Only the club's admins may do this.")

    def who(self, method: str, view) -> tuple[bool, str]:
        if getattr(view, "action", None) == "create":
            return False, STAFF
        if method in SAFE_METHODS and not getattr(view, "admin_reads", False):
            return True, "anyone, also without credentials"
        return False, "the club's admins (staff)"

    def has_object_permission(self, request, view, club):
        if request.method in SAFE_METHODS and not getattr(view, "admin_reads", False):
            return True
        return runs_club(request.user, club)


class TournamentAccess(StaffWritesAnyoneReads):
    """Who sees a tournament reads it; who directs it changes it. ``director_reads`` on
    the view makes reading the directors' too (archive, table money)."""

    message = _("Only the tournament's directors may do this.")

    def open_to_all(self, method: str, view) -> bool:
        """Whether ``method`` is open to everyone who sees the tournament (else its
        directors')."""
        return method in SAFE_METHODS and not getattr(view, "director_reads", False)

    def who(self, method: str, view) -> tuple[bool, str]:
        if getattr(view, "action", None) == "create":
            return False, STAFF
        if self.open_to_all(method, view):
            return True, ("anyone, also without credentials, for a published tournament; "
                          "an unpublished one only its directors and its club's admins")
        return False, "the tournament's directors and its club's admins (staff)"

    def has_object_permission(self, request, view, tournament):
        if not can_see_tournament(request.user, tournament):
            raise NotFound()
        return self.open_to_all(request.method, view) or directs(request.user, tournament)


class RegistrationAccess(TournamentAccess):
    """Self-registration (``…/registrations/``): anyone who sees the (published)
    tournament signs up with ``POST``; its directors read the list."""

    def has_permission(self, request, view):
        return request.method == "POST" or is_staff(request.user)

    def open_to_all(self, method: str, view) -> bool:
        return method == "POST"

    def who(self, method: str, view) -> tuple[bool, str]:
        if method == "POST":
            return True, ("anyone, also without credentials, while the tournament's "
                          "registration is open (409 otherwise)")
        return False, "the tournament's directors and its club's admins (staff)"


class TableAccess(BasePermission):
    """A table's own token, or staff who direct its tournament; ``directors_only`` on the
    view keeps the table's own token out (summary, history), ``tokens_only`` keeps staff
    out (what the players say to the director: objections, calls), ``no_players`` keeps a
    player's own phone out (the submission: a phone confirms its player's seat, and the
    last confirmation submits; only the tablet may say who confirmed at the table)."""

    message = _("Only the tournament's directors may do this.")

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def who(self, method: str, view) -> tuple[bool, str]:
        if getattr(view, "directors_only", False):
            return False, "staff who direct the tournament"
        if getattr(view, "no_players", False):
            return False, ("the table's own token (Authorization: Table …) while its round is "
                           "open, or staff who direct the tournament")
        if getattr(view, "tokens_only", False):
            return False, ("the table's own token (Authorization: Table …) or the personal "
                           "token of a player seated there (Authorization: Player …) while "
                           "its round is open")
        return False, ("the table's own token (Authorization: Table …) or the personal token "
                       "of a player seated there (Authorization: Player …) while its round "
                       "is open, or staff who direct the tournament")

    def has_object_permission(self, request, view, table):
        player = player_of(request)
        if player is not None:
            if not plays_at(player, table):
                raise NotFound()
            if getattr(view, "directors_only", False):
                raise PermissionDenied(self.message)
            if getattr(view, "no_players", False):
                raise PermissionDenied(_("On your own phone you confirm the sheet; it is "
                                         "submitted when every player has confirmed."))
            return True
        own = table_of(request)
        if own is not None:
            if own.pk != table.pk:
                raise NotFound()
            if getattr(view, "directors_only", False):
                raise PermissionDenied(self.message)
            return True
        if not directs_table(request.user, table):
            return False
        if getattr(view, "tokens_only", False):
            raise PermissionDenied(_("Only the players at the table and its tablet may do "
                                     "this."))
        return True


class PlayerAccess(StaffOnly):
    """Staff read players (a tournament seats players of many clubs); who may change a
    player is ``may_change_player``'s answer."""

    message = _("Only the player's club admins may change this player.")

    def who(self, method: str, view) -> tuple[bool, str]:
        if method in SAFE_METHODS or getattr(view, "action", None) == "create":
            return False, STAFF
        return False, "staff who may change the player (its creator or its club's admins)"

    def has_object_permission(self, request, view, player):
        return request.method in SAFE_METHODS or may_change_player(request.user, player)


class PlayerOnly(BasePermission):
    """A player's own phone (``Authorization: Player …``) and nobody else: 401 without
    credentials, 403 for other ones (staff, a table); an unknown or expired personal token
    is 404 already in the authentication."""

    message = _("Only a player's own personal token opens this.")

    def has_permission(self, request, view):
        return player_of(request) is not None

    def who(self, method: str, view) -> tuple[bool, str]:
        return False, ("the player themselves, with their personal token "
                       "(Authorization: Player …); an unknown or expired token gets 404, "
                       "other credentials 403")


class PlayerDataAccess(StaffOnly):
    """A person's data (export, erasure): staff who may change the player
    (``may_change_player``: his club's admins, his creator, superusers) — reads too — and,
    for a self-registered guest without a club, the directors of his tournaments
    (``handles_data_of``)."""

    message = _("Only the player's club admins may do this.")

    def who(self, method: str, view) -> tuple[bool, str]:
        return False, ("staff who may change the player (its creator or its club's admins); "
                       "for a self-registered guest without a club, also the directors of "
                       "the tournaments the guest signed up for")

    def has_object_permission(self, request, view, player):
        return handles_data_of(request.user, player)
