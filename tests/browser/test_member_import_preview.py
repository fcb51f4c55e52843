"""The member import's preview asks about names alike, and a tournament's table money
page with its correction form and history: readable at 390 px and 800 px, nothing scrolls
sideways, the director decides per suspect in the browser and only then imports."""

import pytest

from clublife.services.evenings import tournament_table_money_update
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.browser.test_readable_lists import no_broken_words
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tournaments.services import tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PASTE = ("Walter Zeller;104\nKarl-Heinz Müller-Lüdenscheidt;201\n"
         "karl heinz mueller-luedenscheidt;202\nEmil Berg;3\n")


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_the_director_decides_about_names_alike(live_server, browser, viewport):
    director = StaffFactory(username="chef")
    club = ClubFactory(name="Skatclub Grün-Weiß")
    club.admins.add(director)
    PlayerFactory(club=club, name="Walter Zeller", member_number="101")
    context, page, errors = logged_in(browser, live_server, director, viewport)
    if viewport == "tablet":
        page.set_viewport_size({"width": 800, "height": 900})  # a small tablet
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/")
    page.fill("textarea[name=csv]", PASTE)
    page.get_by_role("button", name="Vorschau").click()
    # the click only starts the form's POST: wait for the preview's page, then count
    page.locator("fieldset.alike").first.wait_for()
    assert page.locator("fieldset.alike").count() == 3
    assert "Ähnlich wie das Mitglied Walter Zeller (101)." in page.content()
    no_sideways_scroll(page)
    shot(page, f"member-import-alike-{viewport}")
    no_broken_words(page)
    page.check("input[name=suspect-1][value=keep]")
    page.check("input[name=suspect-2][value=keep]")
    page.check("input[name=suspect-3][value=drop]")
    page.locator("button.primary").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert sorted(club.players.values_list("member_number", flat=True)) == [
        "101", "104", "201", "3"]

    tournament = tournament_create(name="Pokal der Vereine", game="skat", club=club,
                                   director=director)
    tournament_table_money_update(tournament=tournament, loss_fee_cents=50, loss_fee_from=4,
                                  loss_fee_high_cents=100, by=director)
    page.goto(f"{live_server.url}/clubs/tournaments/{tournament.pk}/table-money/")
    page.fill("input[name=loss_fee]", "0,20")
    page.get_by_role("button", name="Speichern").click()
    page.wait_for_load_state()
    assert "0,50 € je verlorenes Spiel" in page.content()
    no_sideways_scroll(page)
    shot(page, f"table-money-history-{viewport}")
    context.close()
    assert errors == []
