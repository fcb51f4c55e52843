"""The sign-up pages (issue 29): the public form with its honeypot and rate limit, the
player's own page with status, position and the cancel step, the director's check-in
view, and the club's calendar (page and iCal feed)."""

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from signup.services.registrations import registration_configure
from tests.factories import TournamentFactory
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The player's page is a snapshot that a committed change drops."""


@pytest.fixture
def open_event(tournament):
    tournament.published = True
    tournament.save()
    return registration_configure(tournament_id=tournament.pk, open=True, cap=1,
                                  check_in=True)


def form(tournament, lang="de", **data):
    body = {"name": "Anna Berger", "club": "", "club_name": "", "email": "",
            "publication": "full", "website": "", **data}
    return Client(HTTP_ACCEPT_LANGUAGE=lang).post(f"/p/{tournament.slug}/register/", body)


def test_the_form_signs_up_and_leads_to_the_own_page_with_status(open_event):
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/p/{open_event.slug}/register/")
    assert page.status_code == 200 and "Anmeldung" in page.content.decode()
    first = form(open_event)
    assert first.status_code == 302
    own = Client(HTTP_ACCEPT_LANGUAGE="de").get(first["Location"]).content.decode()
    assert "Sie sind angemeldet." in own
    second = form(open_event, name="Bernd Ott", lang="en")
    own = Client(HTTP_ACCEPT_LANGUAGE="en").get(second["Location"]).content.decode()
    assert "You are number 1 on the waiting list." in own
    # cancel the first: asks, then the second moves up
    cancel = first["Location"] + "cancel/"
    assert Client().get(cancel).status_code == 200
    assert Client().post(cancel, {"confirm": "yes"}).status_code == 302
    assert Client().post(cancel, {"confirm": "yes"}).status_code == 302  # twice: harmless
    own = Client(HTTP_ACCEPT_LANGUAGE="en").get(second["Location"]).content.decode()
    assert "You are registered." in own
    statuses = dict(Participant.objects.values_list("player__name", "status"))
    assert statuses == {"Anna Berger": "cancelled", "Bernd Ott": "registered"}


def test_the_honeypot_refuses_a_bot_and_stores_nothing(open_event):
    resp = form(open_event, website="http://spam.example")
    assert resp.status_code == 400
    assert not Participant.objects.exists()


def test_a_closed_sign_up_says_why(tournament):
    tournament.published = True
    tournament.save()
    resp = form(tournament)
    assert resp.status_code == 409
    assert "nicht geöffnet" in resp.content.decode()


def test_the_form_shares_the_rate_limit_with_the_api(open_event, settings):
    from signup.registration_rate import RegistrationRate

    settings.REGISTRATION_RATE = "1/min"
    try:
        assert form(open_event).status_code == 302
        resp = form(open_event, name="Zweite Person")
        assert resp.status_code == 429 and int(resp["Retry-After"]) > 0
    finally:
        RegistrationRate.forget("127.0.0.1")


def test_while_walk_ins_are_taken_the_form_counts_per_tournament(open_event, settings):
    """api.md: in walk-in mode a hall's phones share one address, so the limit counts
    the tournament's sign-ups, from whatever address; the same as the door's."""
    from signup.registration_rate import RegistrationRate

    settings.REGISTRATION_RATE = "2/min"
    registration_configure(tournament_id=open_event.pk, open=True, check_in=True,
                           walk_in=True)
    RegistrationRate.forget(f"tournament-{open_event.pk}")
    url = f"/p/{open_event.slug}/register/"
    try:
        answers = [Client(HTTP_ACCEPT_LANGUAGE="de").post(url, {
            "name": f"Gast {n}", "publication": "full"}, REMOTE_ADDR=f"10.2.0.{n}")
            for n in range(1, 4)]
        assert [a.status_code for a in answers] == [302, 302, 429]
        assert "Zu viele Anmeldungen zu diesem Turnier" in answers[2].content.decode()
        # the door counts the same sign-ups: it is full too
        door = Client(HTTP_ACCEPT_LANGUAGE="de").post(
            f"/p/{open_event.slug}/door/", {"name": "Gast 4", "publication": "full"},
            REMOTE_ADDR="10.2.0.9")
        assert door.status_code == 429
        assert Participant.objects.filter(tournament=open_event).count() == 2
    finally:
        RegistrationRate.forget(f"tournament-{open_event.pk}")


def test_check_in_view_ticks_and_scans(client, director, open_event):
    client.force_login(director)
    registration_configure(tournament_id=open_event.pk, open=True, cap=None, check_in=True)
    form(open_event)
    anna = Participant.objects.get()
    page = client.get(f"/console/t/{open_event.pk}/check-in/")
    assert page.status_code == 200 and "Anna Berger" in page.content.decode()
    resp = client.post(f"/console/t/{open_event.pk}/check-in/{anna.pk}/paid/",
                       HTTP_HX_REQUEST="true")
    assert resp.status_code == 200 and 'aria-pressed="true"' in resp.content.decode()
    resp = client.post(f"/console/t/{open_event.pk}/check-in/scan/",
                       {"code": f"http://192.168.1.20:8000/me/{anna.personal_token}/"})
    assert resp.status_code == 302
    anna.refresh_from_db()
    assert anna.paid and anna.checked_in
    client.post(f"/console/t/{open_event.pk}/check-in/scan/", {"code": "nonsense"})
    resp = client.post(f"/console/t/{open_event.pk}/check-in/settings/",
                       {"open": "on", "cap": "0", "check_in": "on"})
    assert resp.status_code == 400


def test_the_check_in_view_is_the_directors(client, outsider, open_event):
    client.force_login(outsider)
    assert client.get(f"/console/t/{open_event.pk}/check-in/").status_code == 403


def test_calendar_lists_upcoming_published_events(club, tournament):
    today = timezone.localdate()
    soon = TournamentFactory(club=club, name="Preisskat im Advent", published=True,
                             date=today + datetime.timedelta(days=10))
    TournamentFactory(club=club, name="Geheim", published=False, date=today)
    TournamentFactory(club=club, name="Vorbei", published=True,
                      date=today - datetime.timedelta(days=1))
    page = Client().get(f"/clubs/{club.slug}/events/").content.decode()
    assert "Preisskat im Advent" in page and "Geheim" not in page and "Vorbei" not in page
    resp = Client().get(f"/clubs/{club.slug}/events.ics")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(resp.content).walk("VEVENT")
    assert [str(e["summary"]) for e in events] == ["Preisskat im Advent"]
    assert events[0]["dtstart"].dt == soon.date
    assert str(events[0]["uid"]).startswith(f"tournament-{soon.pk}@")
    assert Client().get("/clubs/no-such-club/events.ics").status_code == 404


@pytest.mark.parametrize("count", [2, 24])
def test_check_in_view_and_calendar_queries_do_not_grow_with_rows(
        client, director, club, open_event, count, django_assert_max_num_queries):
    registration_configure(tournament_id=open_event.pk, open=True, cap=count // 2,
                           check_in=True)
    from signup.registration_rate import RegistrationRate

    for n in range(count):
        form(open_event, name=f"Spieler {n}")
        RegistrationRate.forget("127.0.0.1")
    for n in range(count):
        TournamentFactory(club=club, published=True,
                          date=timezone.localdate() + datetime.timedelta(days=n))
    client.force_login(director)
    with django_assert_max_num_queries(12):
        assert client.get(f"/console/t/{open_event.pk}/check-in/").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(f"/clubs/{club.slug}/events/").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(f"/clubs/{club.slug}/events.ics").status_code == 200


@pytest.mark.parametrize("raw", ["2" * 30, str(2**63), "-1", "x", "²", "0"])
def test_a_club_id_no_row_can_have_is_an_unknown_choice_not_a_500(open_event, raw):
    resp = form(open_event, club=raw)
    assert resp.status_code == 400
    assert "gültige Auswahl" in resp.content.decode()
    assert not Participant.objects.exists()


@pytest.mark.parametrize("path", ["register", "door"])
def test_a_missing_name_is_said_in_red_at_the_name_field(open_event, path):
    """The form sent without a name says so beside the name field, as the console's forms
    do (in red, read out by a screen reader), not as a plain bullet above the label."""
    registration_configure(tournament_id=open_event.pk, open=True, check_in=True,
                           walk_in=True)
    resp = Client(HTTP_ACCEPT_LANGUAGE="de").post(
        f"/p/{open_event.slug}/{path}/", {"name": "", "publication": "full"})
    assert resp.status_code == 400
    html = resp.content.decode()
    assert 'class="errorlist' not in html
    name_field = html[html.index('id="id_name"'):]
    assert name_field.index('<span class="field-error" role="alert">') < name_field.index(
        "<label")


@pytest.mark.parametrize("lang, placed, waiting", [
    ("de", "hat einen Platz", "Warteliste Nr. 1"),
    ("en", "has a place", "waiting no. 1")])
def test_each_registrant_says_whether_they_have_a_place(director, open_event, lang, placed,
                                                        waiting):
    """Under the club: a registrant's standing in words — a place, or the waiting list's
    number — never a lone "Platz" with nothing after it."""
    form(open_event)
    form(open_event, name="Bernd Ott")
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(director)
    page = client.get(f"/console/t/{open_event.pk}/check-in/").content.decode()
    rows = {name: row for row in page.split("<tr id=\"registrant-")[1:]
            for name in ("Anna Berger", "Bernd Ott") if name in row}
    assert placed in rows["Anna Berger"] and waiting in rows["Bernd Ott"]
    assert not re.search(r"<br>\s*(Platz|place)\s*</td>", page)
