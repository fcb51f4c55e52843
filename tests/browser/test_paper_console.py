"""The director types in a paper sheet from the console in a real Chromium: a refused
deal is shown at its row and field, corrected, and the sheet stored."""

import pytest

from tests.browser.conftest import needs_chromium
from tests.browser.test_director_console import logged_in, setup_evening
from tournaments.models import Deal

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_a_paper_sheet_typed_in_from_the_console(live_server, browser):
    tournament, director, done, short = setup_evening()   # short: deal 1 entered, 2 to go
    context, page, errors = logged_in(browser, live_server, director, "tablet")
    page.goto(f"{live_server.url}/console/t/{tournament.pk}/")
    page.click(f"a[href='/console/table/{short.pk}/paper/']")
    row = page.locator("fieldset[data-number='2']")
    row.locator("[data-field=declarer] select").select_option(label=short.seats.get(
        seat=2).participant.player.name)
    row.locator("[data-field=game] select").select_option("clubs")
    row.locator("[data-field=matadors] input").fill("1")
    page.locator("fieldset[data-number='3'] [data-field=passed] input").check()
    page.click("button.primary")                          # deal 2 has no result
    page.locator("fieldset[data-number='2'] [data-field=won] .field-error").wait_for()
    assert page.locator("fieldset[data-number='3'] .field-error").count() == 0
    page.locator("fieldset[data-number='2'] [data-field=won] select").select_option("true")
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/console/t/{tournament.pk}/")
    page.goto("about:blank")
    context.close()
    assert list(Deal.objects.filter(table=short).order_by("number")
                .values_list("number", "record__game")) == [(1, None), (2, "clubs"), (3, None)]
    assert errors == []
