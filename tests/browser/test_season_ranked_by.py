"""The season page ranked by the average per round in a real Chromium, at 390 and 800 px,
in German and English: the two extra columns fit, nothing scrolls sideways, and the admin
switches the order with the form."""

import pytest

from clublife.models import Season
from clublife.services.season_rows import season_recompute
from tests.browser.conftest import ARTIFACTS, needs_chromium
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.clublife.helpers import day, play_evening
from tests.factories import PlayerFactory

pytestmark = [needs_chromium, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": 390, "narrow": 800}


def three_evenings(club, director) -> Season:
    """A season of three club evenings of four players (one with a long double name),
    computed."""
    names = ["Maximiliane Oberhuber-Schmidt", "Bernd", "Carla von Hohenstein", "Dieter"]
    a, b, c, d = (PlayerFactory(club=club, name=name) for name in names)
    for n, scores in enumerate([{a: 100, b: 250, c: 60}, {a: 100, c: 60, d: 50},
                                {a: 100, c: 60, d: 50}]):
        play_evening(club, director, day(n), scores, seed=n)
    season = Season.objects.get(club=club, year=2026)
    season_recompute(season_id=season.pk)
    return season


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_admin_switches_to_the_average_and_the_table_fits(live_server, browser,
                                                                club, director, language):
    season = three_evenings(club, director)
    path = f"{live_server.url}/clubs/{club.slug}/seasons/2026/?game={season.game}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in WIDTHS.items():
        context, page, errors = logged_in(browser, live_server, director, "phone")
        page.set_viewport_size({"width": width, "height": 844})
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])
        page.goto(path)
        if viewport == "phone":
            # by the sum (the default) the game's figures are shown, each labelled on a phone
            rows = page.locator("table.data tbody tr")
            assert "Maximiliane" in rows.first.inner_text()
            assert "Bernd" in rows.nth(1).inner_text()
            no_sideways_scroll(page)
            page.screenshot(path=str(ARTIFACTS / f"season-sum-{language}-{width}.png"),
                            full_page=True)
            page.select_option("#id_ranked_by", "average")
            with page.expect_navigation():
                page.click("form.inline button[type=submit]")
            season_recompute(season_id=season.pk)
            page.goto(path)
        header = page.locator("table.data thead").inner_text()
        assert ("Schnitt je Runde" if language == "de" else "Average per round") in header
        first = page.locator("table.data tbody tr").first.inner_text()
        assert "Bernd" in first and ("250,00" if language == "de" else "250.00") in first
        no_sideways_scroll(page)
        page.screenshot(path=str(ARTIFACTS / f"season-average-{language}-{width}.png"),
                        full_page=True)
        assert errors == []
        context.close()
    assert Season.objects.get(pk=season.pk).ranked_by == "average"
