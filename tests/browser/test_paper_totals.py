"""A paper sheet's totals typed in by the director count at once (issue 53, item 8): the
console lists the table as submitted, and a summary with too many games says so beside
the other errors of the same submit."""

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.browser.test_tablet_sheet import setup_table
from tournaments.models import Table

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def fill(page, seat, points, won, lost):
    page.fill(f"#id_seat{seat}_game_points", str(points))
    page.fill(f"#id_seat{seat}_won", str(won))
    page.fill(f"#id_seat{seat}_lost", str(lost))


@pytest.mark.parametrize("width", [390, 800])
def test_the_directors_paper_totals_count_at_once(live_server, browser, width,
                                                   in_process_tasks):
    tournament, table = setup_table("skat", 4)
    director = get_user_model().objects.create_user(f"totals-{width}", is_staff=True,
                                                   is_superuser=True)
    context, page, errors = logged_in(browser, live_server, director, "phone")
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"{live_server.url}/console/table/{table.pk}/summary/")
    # 40 won + 20 lost is more than a series of 48 deals, and seat 3 has points without
    # a game: both are said at once
    fill(page, 1, 900, 40, 20)
    fill(page, 2, 0, 0, 0)
    fill(page, 3, 30, 0, 0)
    fill(page, 4, 0, 0, 0)
    page.click("button.primary")
    alerts = page.locator("[role=alert]").all_inner_texts()
    assert any("höchstens 48 Spiele" in a and "60" in a for a in alerts), alerts
    assert any("ohne Alleinspiele" in a for a in alerts), alerts
    no_sideways_scroll(page)
    shot(page, "paper-totals-errors")
    fill(page, 1, 300, 6, 2)
    fill(page, 3, 0, 0, 0)
    page.click("button.primary")
    page.wait_for_url(f"**/console/t/{tournament.pk}/")
    row = page.locator("tr", has=page.locator(f"a[href='/console/table/{table.pk}/']"))
    assert "abgegeben" in row.inner_text() and "nicht abgegeben" not in row.inner_text()
    assert Table.objects.get(pk=table.pk).submitted
    no_sideways_scroll(page)
    shot(page, "paper-totals-counted")
    assert errors == []
    context.close()
