"""The club's calendar (issue 29): its upcoming published events — tournaments and club
evenings from today on — as a public page (``/clubs/<slug>/events/``) and as an
iCalendar feed (``/clubs/<slug>/events.ics``, the ``icalendar`` package) that members
subscribe to once. Unpublished events are their directors' only and never listed here.

An event is a whole day (the tournament's ``date``; it has no start time); its UID is
stable (``tournament-<id>@<host>``) so a calendar updates the event rather than adding
it again, and its URL is the public board (or, while sign-up is open, the form there).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from icalendar import Calendar, Event

from clubs.models import Club
from tournaments.models import RegistrationStatus, Tournament
from tournaments.pages.access import club_by_slug

MAX_EVENTS = 200


def upcoming_events(club: Club, today: datetime.date | None = None) -> list[Tournament]:
    """The club's published events from ``today`` on, soonest first (one query)."""
    today = today or timezone.localdate()
    return list(Tournament.objects.filter(club=club, published=True, date__gte=today)
                .exclude(status=Tournament.Status.FINISHED)
                .annotate(places_taken=Count("participants", filter=Q(
                    participants__status=RegistrationStatus.REGISTERED)))
                .order_by("date", "id")[:MAX_EVENTS])


def _absolute(request, path: str) -> str:
    return (settings.SITE_URL + path) if settings.SITE_URL else request.build_absolute_uri(path)


@require_GET
def events_page(request, slug: str):
    club = club_by_slug(slug=slug)
    return render(request, "clublife/events.html", {
        "club": club, "events": upcoming_events(club),
        "feed_url": _absolute(request, reverse("clubs:events-ics", args=[club.slug]))})


@require_GET
def events_ics(request, slug: str):
    club = club_by_slug(slug=slug)
    calendar = Calendar()
    calendar.add("prodid", "-//Stichliste//Club calendar//DE")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", club.name)
    host = request.get_host().split(":")[0] or "stichliste"
    stamp = timezone.now()
    for tournament in upcoming_events(club):
        event = Event()
        event.add("uid", f"tournament-{tournament.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", tournament.date)
        event.add("dtend", tournament.date + datetime.timedelta(days=1))
        event.add("summary", tournament.name)
        event.add("description", tournament.get_game_display() + (
            " · " + _("Registration open") if tournament.registration_open else ""))
        if club.city:
            event.add("location", club.city)
        event.add("url", _absolute(request, reverse("pages:board", args=[tournament.slug])))
        calendar.add_component(event)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}.ics"'
    return response
