"""The one decorator with which pages check access: load the page's object from the URL,
ask the domain policy about it, and refuse with 403 — or 404 where even the object's
existence is not to be told (an unpublished tournament's board).

The policies are the same ones the API's permission classes ask (``clubs.policies``,
``tournaments.policies``). Login redirects stay with Django's decorators placed above this
one: ``login_required``, and ``staff_required`` for the console — Django's
``staff_member_required`` with the app's own login page (``settings.LOGIN_URL``) instead
of the admin's, so a director never lands on "Django-Verwaltung".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from clubs.models import Club, Player
from tournaments.models import Table, Tournament
from tournaments.policies import directs
from tournaments.services import Actor
from tournaments.statements import related


def staff_required(view):
    """Staff only; anyone else is sent to the app's login page and back afterwards."""
    return staff_member_required(view, login_url=settings.LOGIN_URL)


def allowed_if(policy: Callable[[Any, Any], bool], load: Callable[..., Any], *,
               hide: bool = False):
    """``view(request, obj, **url_kwargs)`` runs only when ``policy(user, obj)`` holds,
    ``obj`` being ``load(**url_kwargs)`` (which answers 404 when there is none)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            obj = load(**kwargs)
            if not policy(request.user, obj):
                raise Http404() if hide else PermissionDenied()
            return view(request, obj, *args, **kwargs)

        return wrapper

    return decorator


def tournament_by_pk(*, tournament_id=None, pk=None, **_kwargs) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"),
                             pk=tournament_id if tournament_id is not None else pk)


def console_page(view):
    """A page of a tournament's console: staff signed in, and directing the tournament
    (``view(request, tournament, tournament_id, …)``)."""
    return staff_required(allowed_if(directs, tournament_by_pk)(view))


def console_post(view):
    """A console form or button: as ``console_page``, and POST only (405 otherwise)."""
    return staff_required(require_POST(allowed_if(directs, tournament_by_pk)(view)))


def tournament_by_slug(*, slug, **_kwargs) -> Tournament:
    """The tournament of a public page's slug, its club loaded (``statements.related``:
    every public page and part reads it on every request), or 404."""
    found = related(Tournament, ("club",), "slug", [slug])
    if not found:
        raise Http404()
    return found[0]


def table_by_pk(*, table_id, **_kwargs) -> Table:
    return get_object_or_404(Table.objects.select_related("round__tournament__club"),
                             pk=table_id)


def club_by_slug(*, slug, **_kwargs) -> Club:
    return get_object_or_404(Club, slug=slug)


def player_by_pk(*, pk, **_kwargs) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=pk)


def staff_actor(request) -> Actor:
    """Who a console change is recorded under: the signed-in user and their address."""
    return Actor(user=request.user, ip=request.META.get("REMOTE_ADDR") or None)
