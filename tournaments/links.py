"""Absolute links that leave the screen: printed table cards and player cards, QR codes,
the API's ``entry_url`` and ``personal_url``. They start with ``SITE_URL`` when it is set
(the address tablets and phones reach, e.g. the laptop's on the club's Wi-Fi), else with
the address the request came in on."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from tournaments.models import Participant, Table, Tournament


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
