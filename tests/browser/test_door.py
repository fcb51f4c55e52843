"""The door in a real Chromium at a phone's and a small tablet's width: a walk-in signs up
on the door form and lands on their own page, checked in; the director's door desk
checks a name in with its suggestions; the poster shows its QR code."""

import datetime

import pytest

from signup.services.registrations import registration_configure
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_player_page import no_sideways_scroll
from tests.browser.test_round_clock import opened
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tournaments.models import Participant, Tournament
from tournaments.services import tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def walk_in_tournament():
    club = ClubFactory(name="Skatfreunde Mitte")
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Stadtmeisterschaft", game="skat", club=club,
                                   published=True, director=director)
    registration_configure(tournament_id=tournament.pk, open=True, check_in=True,
                           walk_in=True)
    return club, director, tournament


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_a_walk_in_signs_up_at_the_door_and_sees_their_page(live_server, browser, width,
                                                            settings):
    settings.REGISTRATION_RATE = "1000/min"
    club, _director, tournament = walk_in_tournament()
    context, page, errors = opened(browser, width,
                                   f"{live_server.url}/p/{tournament.slug}/door/")
    assert "Anmeldung an der Tür" in page.locator("h1").inner_text()
    page.fill("#id_name", "Maximiliane Oberhuber-Schwarzenbach")
    no_sideways_scroll(page, width)
    shot(page, f"door-form-{width}")
    page.click("#door-submit")
    page.wait_for_url("**/me/**")
    participant = Participant.objects.get(tournament=tournament)
    assert participant.checked_in
    assert "Maximiliane Oberhuber-Schwarzenbach" in page.locator("h1").inner_text()
    no_sideways_scroll(page, width)
    shot(page, f"door-own-page-{width}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.mark.parametrize("width", [390, 800])
def test_the_door_desk_and_the_poster(live_server, browser, width):
    club, director, tournament = walk_in_tournament()
    PlayerFactory(club=club, name="Hans-Joachim Weißenberger")
    context, page, errors = opened(browser, width,
                                   f"{live_server.url}/console/t/{tournament.pk}/door/",
                                   user=director)
    assert page.locator("#door-names option").count() == 1
    page.fill("#door-name", "Hans-Joachim Weißenberger")
    page.get_by_role("button", name="Einchecken").first.click()
    page.locator("ul.messages").wait_for()
    assert page.locator("#door-checked").inner_text() == "1"
    assert Participant.objects.get(tournament=tournament).checked_in
    no_sideways_scroll(page, width)
    shot(page, f"door-desk-{width}")
    page.goto(f"{live_server.url}/console/t/{tournament.pk}/door-poster/?size=a3")
    assert page.locator(".poster-qr svg").is_visible()
    no_sideways_scroll(page, width)
    shot(page, f"door-poster-{width}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.mark.parametrize("size", ["a4", "a3"])
def test_the_printed_poster_centres_its_code_and_reads_from_a_step_away(live_server, browser,
                                                                       size):
    """Printed, the QR code stands in the middle of the sheet (it sat at the left margin),
    and the line for players without a phone is as large as the call to scan, not small
    print under the address."""
    _club, director, tournament = walk_in_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(date=datetime.date(2026, 12, 6))
    context, page, errors = opened(browser, 800, f"{live_server.url}/console/t/"
                                   f"{tournament.pk}/door-poster/?size={size}", user=director)
    page.emulate_media(media="print")
    poster = page.locator(".door-poster").bounding_box()
    code = page.locator(".poster-qr svg").bounding_box()
    left = code["x"] - poster["x"]
    right = poster["x"] + poster["width"] - code["x"] - code["width"]
    assert abs(left - right) <= 2, (left, right)
    size_of = "el => parseFloat(getComputedStyle(el).fontSize)"
    hint = page.locator(".poster-hint").evaluate(size_of)
    assert hint >= page.locator(".poster-call").evaluate(size_of)
    assert page.locator(".poster-date").evaluate(size_of) >= 20
    shot(page, f"door-poster-print-{size}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def test_a_missing_name_is_said_under_the_name_field(live_server, browser):
    """At a tablet's width the red line stands under the field, whole, not squeezed
    beside it and broken in two."""
    _club, _director, tournament = walk_in_tournament()
    context, page, errors = opened(browser, 800,
                                   f"{live_server.url}/p/{tournament.slug}/door/")
    page.click("#door-submit")
    error = page.locator("#id_name ~ .field-error")
    error.wait_for()
    field, said = page.locator("#id_name").bounding_box(), error.bounding_box()
    assert said["y"] >= field["y"] + field["height"] - 1
    assert said["height"] < 40  # one line
    shot(page, "door-form-missing-name")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
