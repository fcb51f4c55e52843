"""The round's clock as the pages show it (``tournaments.clock``): the console, the
public board (large, for a hall), the player's own page and the sheet.

``clock_context`` is what ``clock/_clock.html`` renders: the remaining time as text at
the render (the fallback without JavaScript) and the clock's data for
``static/js/clock.js``, which counts down from the end each second, polls the clock's
API where it is given its address (the board, the sheet: their pages are not re-fetched),
turns the clock amber at ten minutes left and vibrates the phones there where the
browser allows it (``navigator.vibrate``).
"""

from __future__ import annotations

import math
from datetime import datetime

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.clock import ACTIONS, MAX_MINUTES, MIN_MINUTES, WARN_SECONDS
from tournaments.models import Round, Tournament
from tournaments.pages.access import (
    console_post,
    staff_actor,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.services import round_clock


def clock_text(seconds: int) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_context(rnd: Round | None, *, poll: bool = False) -> dict | None:
    """The clock of an open round (None for no round or a closed one); its ``state`` is
    "" before the start. ``poll``: the page is not re-fetched, so the script asks the
    API for changes."""
    if rnd is None or rnd.closed:
        return None
    url = reverse("round-clock", args=[rnd.tournament_id, rnd.number]) if poll else ""
    return shown_clock(rnd.clock.shown(timezone.now()), rnd.number, url)


def shown_clock(shown: dict | None, number: int, url: str = "") -> dict:
    """What the template renders of a clock as the API shows it (``Clock.shown``, or
    the player's overview, whose running clock has no ``remaining_seconds``)."""
    shown = shown or {}
    ends = shown.get("ends_at")
    if isinstance(ends, str):
        ends = datetime.fromisoformat(ends)
    remaining = shown.get("remaining_seconds")
    if remaining is None:
        remaining = max(0, math.ceil((ends - timezone.now()).total_seconds())) if ends else 0
    return {
        "round": number, "state": shown.get("state", ""),
        "ends_at": ends.isoformat() if ends else "", "remaining": remaining,
        "text": clock_text(remaining), "warn": 0 < remaining <= WARN_SECONDS,
        "warn_seconds": WARN_SECONDS, "url": url,
    }


class ClockForm(forms.Form):
    """The console's clock buttons: the action, and the minutes to start or extend by."""

    action = forms.ChoiceField(label=_("Action"), choices=[(a, a) for a in ACTIONS])
    minutes = forms.IntegerField(label=_("Minutes"), required=False, min_value=MIN_MINUTES,
                                 max_value=MAX_MINUTES)


@console_post
def clock_set(request, tournament: Tournament, tournament_id: int, number: int):
    """Start, pause, resume or extend a round's clock from the console; what the service
    refuses is shown as a message naming the field."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    form = ClockForm(request.POST)
    if form.is_valid():
        run_on_form(form, lambda: round_clock(round_id=rnd.pk, actor=staff_actor(request), **{
            k: v for k, v in form.cleaned_data.items() if v is not None}))
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
    return redirect(f"{reverse('console:tournament', args=[tournament.pk])}#round-clock")


def unfinished_tables(rnd: Round) -> list[int]:
    """The numbers of the round's tables whose sheet is not submitted (``round_sheets``
    loaded them), for the director once time is up."""
    return [table.number for table, state in getattr(rnd, "sheets", [])
            if not state["submitted"]]
