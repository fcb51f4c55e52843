"""Who may do what (api.md, "Authentication").

*Staff* are users with ``is_staff``; a staff user *runs* a club when he is one of its
admins, and a tournament when he is one of its directors or runs its club. Superusers run
everything.
"""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments.models import Table


def is_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def runs_club(user, club) -> bool:
    if not is_staff(user) or club is None:
        return False
    return user.is_superuser or club.admins.filter(pk=user.pk).exists()


class StaffWritesAnyoneReads(BasePermission):
    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or is_staff(request.user)


class StaffOnly(BasePermission):
    def has_permission(self, request, view):
        return is_staff(request.user)


def directs(user, tournament) -> bool:
    """Staff who run the tournament: its directors, its club's admins, superusers."""
    if not is_staff(user):
        return False
    if user.is_superuser or tournament.directors.filter(pk=user.pk).exists():
        return True
    return runs_club(user, tournament.club)


def table_of(request):
    """The table whose token authenticated the request, or None."""
    return request.auth if isinstance(request.auth, Table) else None
