"""Sign-up, check-in and the draw in a real Chromium (issue 29): players sign up on the
public form on a phone (390 px) — the fourth lands on the waiting list and sees its
position on their own page; the director (800 px) ticks two in at the door, has one
scanned card's link checked in, and draws: only the three checked in are seated.
Screenshots of the form, the status page and the check-in view at 390 and 800 px, with
no sideways scrolling."""

import pytest

from signup.services.registrations import registration_configure
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import Participant, Seat
from tournaments.services import tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 800, "height": 1280}


def new_page(browser, viewport, locale="de-DE"):
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def staff_page(browser, viewport, client, live_server):
    """A page of ``new_page`` with the session of ``client`` (a logged-in test client)."""
    context, page, errors = new_page(browser, viewport)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    return context, page, errors


def director_event(club_name: str = "Skatclub Grün-Weiß Oberhausen-Sterkrade"):
    """A published Skat tournament of a club (by default one with a long name), and its
    director: (director, tournament)."""
    club = ClubFactory(name=club_name)
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Preisskat zum Advent", game="skat", club=club,
                                   published=True, director=director)
    return director, tournament


def sign_up(page, live_server, slug, name):
    page.goto(f"{live_server.url}/p/{slug}/register/")
    page.fill("#id_name", name)
    page.click("#register-submit")
    page.wait_for_url("**/me/*/")


def open_event(club_name: str, cap: int | None = None):
    """A published Skat tournament of a new club open for sign-up with check-in, and its
    director: (tournament, director)."""
    director, tournament = director_event(club_name)
    registration_configure(tournament_id=tournament.pk, open=True, cap=cap, check_in=True)
    return tournament, director


@pytest.mark.smoke
def test_sign_up_check_in_and_draw_only_those_checked_in(browser, live_server):
    from django.test import Client

    tournament, director = open_event("Skatclub Grün-Weiß Oberhausen-Sterkrade", cap=3)

    context, phone, errors = new_page(browser, PHONE)
    phone.goto(f"{live_server.url}/p/{tournament.slug}/register/")
    shot(phone, "sign-up-form")
    no_sideways_scroll(phone)
    for name in ("Anna Berger", "Bernd Ott", "Carla Ruf"):
        sign_up(phone, live_server, tournament.slug, name)
    assert "Sie sind angemeldet." in phone.inner_text("#me-registration")
    sign_up(phone, live_server, tournament.slug, "Dieter Hahnenkamm-Oberländer")
    assert "Nummer 1 auf der Warteliste" in phone.inner_text("#me-registration")
    shot(phone, "sign-up-status")
    no_sideways_scroll(phone)
    status_url = phone.url
    context.close()
    assert errors == []
    context, wide, errors = new_page(browser, TABLET, locale="en-GB")
    wide.goto(status_url)
    assert "You are number 1 on the waiting list." in wide.inner_text("#me-registration")
    shot(wide, "sign-up-status")
    wide.goto(f"{live_server.url}/p/{tournament.slug}/register/")
    shot(wide, "sign-up-form")
    no_sideways_scroll(wide)
    context.close()
    assert errors == []

    client = Client()
    client.force_login(director)
    for viewport in (TABLET, PHONE):
        context, desk, errors = staff_page(browser, viewport, client, live_server)
        desk.goto(f"{live_server.url}/console/t/{tournament.pk}/check-in/")
        no_sideways_scroll(desk)
        if viewport is TABLET:
            anna, bernd, carla = (Participant.objects.get(player__name=n)
                                  for n in ("Anna Berger", "Bernd Ott", "Carla Ruf"))
            for who in (anna, bernd):
                row = f"#registrant-{who.pk}"
                desk.click(f"{row} .checkin-toggle")
                desk.wait_for_selector(f'{row} .checkin-toggle[aria-pressed="true"]')
            desk.click(f"#registrant-{anna.pk} .paid-toggle")
            desk.wait_for_selector(f'#registrant-{anna.pk} .paid-toggle[aria-pressed="true"]')
            # a scanned card fills the field (a scanner types; the camera does the same)
            desk.fill("#id_code", f"{live_server.url}/me/{carla.personal_token}/")
            desk.click("#scan-form button[type=submit]")
            desk.wait_for_selector(f'#registrant-{carla.pk} .checkin-toggle[aria-pressed="true"]')
        shot(desk, "check-in")
        context.close()
        assert errors == []

    context, desk, errors = staff_page(browser, TABLET, client, live_server)
    desk.goto(f"{live_server.url}/console/t/{tournament.pk}/")
    desk.select_option("#id_method", "random")
    desk.click(".draw-form button[type=submit]")
    desk.wait_for_selector("text=Runde 1")
    context.close()
    assert errors == []
    seated = set(Seat.objects.filter(table__round__tournament=tournament)
                 .values_list("participant__player__name", flat=True))
    assert seated == {"Anna Berger", "Bernd Ott", "Carla Ruf"}
