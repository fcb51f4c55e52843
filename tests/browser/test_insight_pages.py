"""The statistics section (games.md §11) on a 390 px phone and an 800 px tablet, and in
print: the public player page and the player's own page. Nothing scrolls sideways, the
chart fits the column, and the printed page (PDF) holds the chart. Screenshots and the
PDF go to test-artifacts/screenshots/."""

import pytest
from django.utils import timezone

from ratings.services import ratings_recompute
from tests.browser.conftest import ARTIFACTS, needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_rating_pages import WIDTHS  # 390 px and 800 px
from tests.factories import ParticipantFactory, PlayerFactory, StaffFactory, TournamentFactory
from tests.ratings.helpers import GRAND_LOST, SUIT_WON, day, dealt_event

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NULL_WON = {"declarer": 4, "game": "null", "won": True}


@pytest.mark.smoke
def test_statistics_fit_a_phone_a_tablet_and_print(live_server, browser, club):
    boss = StaffFactory(is_superuser=True)
    names = ["Maximiliane Oberhuber-Schwarzenbach", "Anna Berger", "Bernd Schulz",
             "Clara Wagner"]
    players = [PlayerFactory(club=club, name=name) for name in names]
    for n in range(10):
        records = [(SUIT_WON, GRAND_LOST, NULL_WON), (SUIT_WON, {**GRAND_LOST, "won": True}),
                   ({**SUIT_WON, "won": False}, GRAND_LOST, NULL_WON)][n % 3]
        dealt_event(boss, players, date=day(n), records=records)
    ratings_recompute(game="skat")
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    mine = ParticipantFactory(tournament=today, player=players[0])
    for viewport, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale="de-DE")
        page = context.new_page()
        for url, name in ((f"/clubs/players/{players[0].pk}/", "profile"),
                          (f"/me/{mine.personal_token}/", "me")):
            assert page.goto(f"{live_server.url}{url}").status == 200
            no_sideways_scroll(page)
            assert page.locator(".insight-panel").count() == 1
            chart = page.locator("svg.insight-chart").bounding_box()
            assert 0 < chart["width"] <= size["width"]
            shot(page, f"insight-{name}-{viewport}")
            page.locator(".insight-panel").screenshot(
                path=str(ARTIFACTS / f"insight-{name}-{viewport}-section.png"))
        if viewport == "phone":
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.goto(f"{live_server.url}/clubs/players/{players[0].pk}/")
            page.emulate_media(media="print")
            assert page.locator("svg.insight-chart").is_visible()
            page.pdf(path=str(ARTIFACTS / "insight-profile-print.pdf"), format="A4")
        context.close()
