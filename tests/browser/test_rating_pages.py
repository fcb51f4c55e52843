"""The ratings' pages on a 390 px phone and an 800 px tablet: the club's leaderboard
(German and English), the rating history on the player's profile and on his personal
page. Nothing scrolls sideways, a number never breaks across lines, the chart fits.
Screenshots go to test-artifacts/screenshots/."""

import pytest
from django.utils import timezone

from ratings.services import ratings_recompute
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.factories import ParticipantFactory, PlayerFactory, StaffFactory, TournamentFactory
from tests.ratings.helpers import day, play_event

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 800, "height": 1280}}

# a number (or the rating beside a game's name) on two lines gives its text two line boxes
BROKEN = """() => [...document.querySelectorAll('main td.num, main h3 .w')]
    .filter(el => { const r = document.createRange(); r.selectNodeContents(el);
                    return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1; })
    .map(el => el.textContent.trim())"""


@pytest.mark.smoke
def test_leaderboard_and_history_fit_a_phone_and_a_tablet(live_server, browser, club):
    boss = StaffFactory(is_superuser=True)
    names = ["Maximiliane Oberhuber-Schwarzenbach", "Anna Berger", "Bernd Schulz",
             "Clara Wagner", "Dieter Hoffmann", "Eva Schäfer", "Frank Koch", "Gabi Richter"]
    players = [PlayerFactory(club=club, name=name) for name in names]
    for n in range(12):
        play_event(boss, players, date=day(n), club=club, seed=n,
                   scores={p.pk: 150 + (37 * (i + n)) % 90 - 10 * i
                           for i, p in enumerate(players)})
    ratings_recompute(game="skat")
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    mine = ParticipantFactory(tournament=today, player=players[0])
    for viewport, size in WIDTHS.items():
        for language in ("de", "en") if viewport == "phone" else ("de",):
            context = browser.new_context(viewport=size, locale="de-DE")
            context.add_cookies([{"name": "django_language", "value": language,
                                  "url": live_server.url}])
            page = context.new_page()
            assert page.goto(f"{live_server.url}/ratings/skat/{club.slug}/").status == 200
            no_sideways_scroll(page)
            assert page.evaluate(BROKEN) == []
            assert page.locator("table.rating-board tbody tr").count() == 8
            shot(page, f"ratings-board-{language}-{viewport}")
            context.close()
        context = browser.new_context(viewport=size, locale="de-DE")
        page = context.new_page()
        for url, name in ((f"/clubs/players/{players[0].pk}/", "profile"),
                          (f"/me/{mine.personal_token}/", "me")):
            assert page.goto(f"{live_server.url}{url}").status == 200
            no_sideways_scroll(page)
            assert page.evaluate(BROKEN) == []
            chart = page.locator("svg.rating-chart").bounding_box()
            assert 0 < chart["width"] <= size["width"]
            shot(page, f"ratings-{name}-{viewport}")
        context.close()
