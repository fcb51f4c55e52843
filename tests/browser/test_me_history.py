"""The player's own history page on a 390 px phone and an 800 px tablet, in German and
English: nothing scrolls sideways, a date, a place or a number of points never breaks
across lines, text reads at 16 px at least, and the way back to the player's page is a
44 px tap target. Screenshots go to test-artifacts/screenshots/."""

import pytest

from clubs.models import Player
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.clublife.helpers import history_world
from tournaments.models import Tournament

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 800, "height": 1280}}

# the elements that must stay on one line (dates, places and points): two lines would
# make one box twice the font's size high
BROKEN = """() => [...document.querySelectorAll('main .w')]
    .filter(el => el.getClientRects().length > 1 || el.getBoundingClientRect().height
                  > 1.9 * parseFloat(getComputedStyle(el).fontSize))
    .map(el => el.textContent.trim())"""

SMALL_TEXT = """() => [...document.querySelectorAll('main p, main li div, main span, main a')]
    .filter(el => el.getClientRects().length && parseFloat(getComputedStyle(el).fontSize) < 15.99)
    .map(el => el.textContent.trim().slice(0, 30))"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_history_fits_a_phone_and_a_tablet(live_server, browser, club, director,
                                                language):
    Player.objects.create(club=club, name="Maximiliane Oberhuber-Schwarzenbach")
    _member, mine, evenings, _foreign = history_world(club, director)
    Tournament.objects.filter(pk=evenings[1].pk).update(
        name="Großes Frühjahrsturnier des Skatclubs Altenburger Buben mit langem Namen")
    for viewport, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale="de-DE")
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])
        page = context.new_page()
        response = page.goto(f"{live_server.url}/me/{mine.personal_token}/history/")
        assert response.status == 200
        no_sideways_scroll(page)
        assert page.evaluate(BROKEN) == []
        assert page.evaluate(SMALL_TEXT) == []
        back = page.locator(f'a[href="/me/{mine.personal_token}/"]').bounding_box()
        assert back["height"] >= 44
        rows = page.locator("section").first.locator("li")
        assert rows.count() == 3
        first = rows.first.inner_text()
        assert ("8. von 8" if language == "de" else "Place 8 of 8") in first
        shot(page, f"me-history-{language}-{viewport}")
        context.close()
