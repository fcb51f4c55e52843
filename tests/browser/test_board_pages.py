"""The board of a 3,000-player field on a phone and on a projector: a page of the list,
the search, the way through the pages; nothing scrolls sideways. The player's live part
with a full sheet shows its latest deals and the way to the rest."""

import pytest

from tests.browser.conftest import shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.scale import stored_field

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.layout]


def test_a_championships_board_pages_fit_the_screen(live_server, page, club):
    tournament, field = stored_field(club=club, players=3000)
    page.goto(f"{live_server.url}/p/{tournament.slug}/?find={field[2345].pk}")
    assert page.locator("tbody tr").count() == 100
    assert page.get_by_text("Seite 24 von 30").is_visible()
    no_sideways_scroll(page)
    shot(page, "board-page-24")
    page.get_by_label("Spieler suchen").fill("Nummer 17 Langname")
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_url("**q=Nummer+17+Langname*")
    assert page.locator("tbody tr").count() == 1
    no_sideways_scroll(page)
    shot(page, "board-search")
