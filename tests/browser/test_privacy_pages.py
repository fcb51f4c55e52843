"""The privacy block on the player's page and the erasure page at 390 and 800 px: nothing
scrolls sideways, the buttons are big; the public board shows each name as chosen."""

import pytest

from tests.browser.conftest import ARTIFACTS, needs_chromium
from tests.browser.test_director_console import logged_in
from tests.factories import ClubFactory, PlayerFactory, StaffFactory

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

FITS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_the_privacy_block_and_the_erase_page_fit_the_screen(live_server, browser, width):
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    anna = PlayerFactory(club=club, name="Anna-Katharina von der Heide-Brandenburger")
    context, page, errors = logged_in(browser, live_server, director,
                                      "phone" if width == 390 else "tablet")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/clubs/players/{anna.pk}/")
    page.get_by_label("Vorname und Anfangsbuchstabe des Nachnamens").check()
    page.get_by_role("button", name="Speichern").click()
    page.wait_for_url(f"**/clubs/players/{anna.pk}/")
    assert page.get_by_label("Vorname und Anfangsbuchstabe des Nachnamens").is_checked()
    scroll, inner = page.evaluate(FITS)
    assert scroll <= inner
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"privacy-player-{width}.png"), full_page=True)
    erase = page.get_by_role("link", name="Person löschen")
    assert erase.bounding_box()["height"] >= 44
    erase.click()
    page.wait_for_url("**/erase/")
    scroll, inner = page.evaluate(FITS)
    assert scroll <= inner
    page.screenshot(path=str(ARTIFACTS / f"privacy-erase-{width}.png"), full_page=True)
    page.get_by_role("button", name="Person löschen").click()
    page.wait_for_url(f"**/clubs/players/{anna.pk}/")
    anna.refresh_from_db()
    assert anna.erased
    assert errors == []
    context.close()
