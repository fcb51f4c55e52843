"""The door (issue 29): the director's check-in view of a tournament's sign-ups.

``console/t/<id>/check-in/`` lists everyone with a place, then the waiting list in
order, then the cancelled sign-ups, each with *paid* and *checked in* toggles (a tap,
or htmx swapping the row). The player's card (its QR code is the personal link) can be
scanned with the device's camera where the browser has the ``BarcodeDetector`` API
(``static/js/checkin.js``); a scanner that types, or the link pasted into the field,
works the same; the ticks stay the fallback. The sign-up settings (open, places,
deadline, check-in, release time) are set here too.

Every change goes through ``participant_update`` and
``registration_configure``; with check-in on, only checked-in participants are drawn.
"""

from __future__ import annotations

import re

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext as _

from signup.forms import RegistrationSettingsForm
from signup.mails import mails_overview
from signup.services.registrations import registration_configure
from tournaments.models import Participant, RegistrationStatus, Tournament
from tournaments.pages.access import (
    console_page,
    console_post,
)
from tournaments.pages.form_errors import run_or_say, saved_or_again
from tournaments.services import participant_update

ORDER = {RegistrationStatus.REGISTERED: 0, RegistrationStatus.WAITING: 1,
         RegistrationStatus.CANCELLED: 2}
TOKEN = re.compile(r"(?:/me/)?([A-Za-z0-9_-]{20,64})/?\s*$")


def _rows(tournament: Tournament) -> list[Participant]:
    rows = list(tournament.participants.select_related("player__club")
                .order_by("queue_number", "start_number"))
    rows.sort(key=lambda p: ORDER.get(p.status, 3))
    position = 0
    for p in rows:
        if p.status == RegistrationStatus.WAITING:
            position += 1
            p.position = position
    return rows


def _counts(rows: list[Participant]) -> dict:
    placed = [p for p in rows if p.status == RegistrationStatus.REGISTERED]
    return {"placed": len(placed), "checked": sum(1 for p in placed if p.checked_in),
            "paid": sum(1 for p in placed if p.paid)}


def _context(tournament: Tournament, form=None) -> dict:
    rows = _rows(tournament)
    return {
        "tournament": tournament, "rows": rows, "counts": _counts(rows),
        "mails": mails_overview(tournament.pk),
        "form": form or RegistrationSettingsForm(initial={
            "open": tournament.registration_open, "cap": tournament.registration_cap,
            "deadline": tournament.registration_deadline, "check_in": tournament.check_in,
            "release_at": tournament.release_at, "walk_in": tournament.registration_walk_in}),
    }


@console_page
def checkin_page(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/checkin.html", _context(tournament))


@console_post
def checkin_settings(request, tournament: Tournament, tournament_id: int):
    form = RegistrationSettingsForm(request.POST)
    return saved_or_again(
        request, form, lambda: registration_configure(
            tournament_id=tournament.pk, **{key: form.cleaned_data[key] for key in (
                "open", "cap", "deadline", "check_in", "release_at", "walk_in")}),
        said=_("Sign-up settings saved."),
        back=reverse("console:checkin", args=[tournament.pk]),
        template="console/checkin.html", context=lambda: _context(tournament, form))


def _row_answer(request, tournament, participant):
    """The changed row; to htmx with the counters above the list (swapped out of band,
    so they move without a reload)."""
    if request.htmx:
        counts = _counts(list(tournament.participants.only("status", "checked_in", "paid")))
        return HttpResponse(
            render_to_string("console/_checkin_row.html",
                             {"p": participant, "tournament": tournament}, request)
            + render_to_string("console/_checkin_counts.html",
                               {"counts": counts, "oob": True}, request))
    return redirect(reverse("console:checkin", args=[tournament.pk])
                    + f"#registrant-{participant.pk}")


@console_post
def checkin_toggle(request, tournament: Tournament, tournament_id: int,
                   participant_id: int, field: str):
    if field not in ("paid", "checked_in"):
        raise PermissionDenied()
    participant = get_object_or_404(Participant.objects.select_related("player__club"),
                                    tournament=tournament, pk=participant_id)
    done, changed = run_or_say(request, lambda: participant_update(
        participant=participant, **{field: not getattr(participant, field)}))
    if not done and request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    return _row_answer(request, tournament, changed if done else participant)


@console_post
def checkin_scan(request, tournament: Tournament, tournament_id: int):
    """A scanned (or typed) personal link checks its player in: only a player of this
    tournament with a place; anything else says so and changes nothing."""
    found = TOKEN.search(request.POST.get("code", "")[:300])
    participant = None
    if found:
        participant = (Participant.objects.select_related("player__club")
                       .filter(tournament=tournament, personal_token=found.group(1)).first())
    if participant is None:
        messages.error(request, _("This card is not one of this tournament's."))
    elif participant.status != RegistrationStatus.REGISTERED:
        messages.error(request, _("%(name)s has no place (waiting list or cancelled).")
                       % {"name": participant.player.name})
    else:
        if run_or_say(request, lambda: participant_update(participant=participant,
                                                          checked_in=True))[0]:
            messages.success(request, _("%(name)s is checked in.")
                             % {"name": participant.player.name})
    return redirect("console:checkin", tournament.pk)


urlpatterns = [
    path("t/<int:tournament_id>/check-in/", checkin_page, name="checkin"),
    path("t/<int:tournament_id>/check-in/settings/", checkin_settings, name="checkin-settings"),
    path("t/<int:tournament_id>/check-in/scan/", checkin_scan, name="checkin-scan"),
    path("t/<int:tournament_id>/check-in/<int:participant_id>/<str:field>/", checkin_toggle,
         name="checkin-toggle"),
]
