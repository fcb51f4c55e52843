"""Absolute links that leave the screen: printed table cards and player cards, QR codes,
the API's ``entry_url`` and ``personal_url``. They start with ``SITE_URL`` when it is set
(the address tablets and phones reach, e.g. the laptop's on the club's Wi-Fi), else with
the address the request came in on."""

from __future__ import annotations

import contextvars

from django.conf import settings
from django.urls import reverse

from tournaments.models import Participant, Table, Tournament

_origin: contextvars.ContextVar[str] = contextvars.ContextVar("request_origin", default="")


class RequestOriginMiddleware:
    """Keeps the address the request came in on (``https://host``) while it runs, for
    the links of what is sent later (``site_base``): a mail queued by a service that
    has no request at hand."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _origin.set(f"{request.scheme}://{request.get_host()}")
        try:
            return self.get_response(request)
        finally:
            _origin.reset(token)


def site_base() -> str:
    """Where links that leave the site start: ``SITE_URL``, else the address the current
    request came in on, else "" (a task without a request)."""
    return settings.SITE_URL or _origin.get()


def absolute_url(request, path: str) -> str:
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path)


def entry_url(request, table: Table) -> str:
    """The table's sheet, opened with its entry token (what a table card's QR code holds)."""
    return absolute_url(request, reverse("pages:sheet", args=[table.entry_token]))


def board_url(request, tournament: Tournament) -> str:
    return absolute_url(request, reverse("pages:board", args=[tournament.slug]))


def personal_path(token: str) -> str:
    """The player's own page, opened with their personal token (``/me/<token>/``, the
    page ``pages:me``), for the player card, the API and the page's own links."""
    return reverse("pages:me", args=[token])


def personal_url(request, participant: Participant) -> str:
    """The participant's own page as an absolute link (what a player card's QR code holds)."""
    return absolute_url(request, personal_path(participant.personal_token))
