"""The Doppelkopf paper entry page (issue 53, item 6) in words: announcements as the
tablet says them ("keine 90", not "no90"), no ``min="None"`` on the game value, penalty
points not called Augen, and the Sonderpunkte of Re and Kontra told apart — at 390 and
800 px."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.models import Table
from tournaments.services import round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

RAW = ("no90", "no60", "no30", "solo_herz", "stille_hochzeit")


@pytest.mark.parametrize("viewport", ["phone", "tablet"])  # 390 and 800 px
def test_the_paper_page_speaks_words(live_server, browser, viewport):
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Doko-Abend", game="doppelkopf", club=club,
                                   published=True, director=director)
    for n in range(4):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    context, page, errors = logged_in(browser, live_server, director, viewport)
    if viewport == "tablet":
        page.set_viewport_size({"width": 800, "height": 1280})
    page.goto(f"{live_server.url}/console/table/{table.pk}/paper/")
    html = page.content()
    assert 'min="None"' not in html and 'max="None"' not in html
    first = page.locator("fieldset[data-row='0']")
    words = first.inner_text()
    for raw in RAW:
        assert raw not in words
    assert "keine 90" in words and "Herz-Solo" in words
    labels = first.locator("label").all_inner_texts()
    assert any(t.startswith("Re: Fuchs") for t in labels)
    assert any(t.startswith("Kontra: Fuchs") for t in labels)
    assert not any("Augen" in t and "Straf" in t for t in labels)
    assert any(t.startswith("Strafe 1: Strafpunkte") for t in labels)
    assert not any(t.startswith("Strafen ") for t in labels)
    no_sideways_scroll(page)
    first.screenshot(path=f"test-artifacts/screenshots/doppelkopf-paper-row-{viewport}.png")
    shot(page, f"doppelkopf-paper-{viewport}")
    context.close()
    assert errors == []
