"""Absolute links that leave the screen: printed table cards, QR codes, the API's
``entry_url``. They start with ``SITE_URL`` when it is set (the address tablets reach,
e.g. the laptop's on the club's Wi-Fi), else with the address the request came in on."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from tournaments.models import Table, Tournament


def absolute_url(request, path: str) -> str:
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path)


def entry_url(request, table: Table) -> str:
    """The table's sheet, opened with its entry token (what a table card's QR code holds)."""
    return absolute_url(request, reverse("pages:sheet", args=[table.entry_token]))


def board_url(request, tournament: Tournament) -> str:
    return absolute_url(request, reverse("pages:board", args=[tournament.slug]))
