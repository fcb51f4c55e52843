"""Stale draft values on the tablet (issue 53, item 2): a refused Doppelkopf deal stays in
the form and survives a reload as a draft; a field that does not apply to the game then
chosen (Sonderpunkte in a solo) is hidden, never sent and emptied, so the next normal
game carries no leftover Fuchs or Doppelkopf; and a draft goes once its deal is stored."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_tablet_doppelkopf import set_number
from tests.browser.test_tablet_sheet import settle, setup_table, wait_count
from tournaments.models import Deal
from tournaments.services import deals_record
from tournaments.services.actors import Actor

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NO_EXTRAS = {"fuchs": 0, "doppelkopf": 0, "karlchen": False}


def test_a_refused_deals_values_never_reach_the_next_deal(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=normal]")
    for seat in (1, 3):
        page.check(f"[data-field=re] input[value='{seat}']")
    set_number(page, "re_points", 130)
    # three Füchse in one game: refused, and kept in the form with the error
    set_number(page, "extras.re.fuchs", 2)
    set_number(page, "extras.kontra.fuchs", 1)
    set_number(page, "extras.kontra.doppelkopf", 2)
    page.click("#save-deal")
    page.wait_for_function(
        "() => document.querySelector('[data-error-for=\"extras.kontra.fuchs\"]')"
        ".textContent.length > 0")
    page.reload()  # the draft survives …
    page.wait_for_function(
        "() => document.querySelector(\"[data-field='extras.kontra.fuchs'] input\").value == '1'")
    # … a solo has no Sonderpunkte: they are hidden and emptied
    page.check("[data-field=game] input[value=solo_herz]")
    assert page.locator("[data-field='extras.kontra.fuchs']").is_hidden()
    page.check("[data-field=game] input[value=normal]")
    assert page.input_value("[data-field='extras.kontra.fuchs'] input") == "0"
    assert page.input_value("[data-field='extras.kontra.doppelkopf'] input") == "0"
    shot(page, "stale-draft-normal-again")
    page.click("#save-deal")
    wait_count(page, 1)
    settle(page)
    deal = Deal.objects.get(table=table, number=1)
    assert deal.record["extras"] == {"re": NO_EXTRAS, "kontra": NO_EXTRAS}
    assert deal.scores == [1, -1, 1, -1]


def test_a_solo_sends_no_sonderpunkte(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=normal]")
    set_number(page, "extras.re.doppelkopf", 1)
    page.check("[data-field=game] input[value=solo_kreuz]")
    page.check("[data-field=re] input[value='2']")
    set_number(page, "re_points", 125)
    page.click("#save-deal")
    wait_count(page, 1)
    settle(page)
    assert Deal.objects.get(table=table, number=1).record["extras"] == {
        "re": NO_EXTRAS, "kontra": NO_EXTRAS}


def test_a_draft_goes_once_its_deal_is_stored(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=normal]")
    set_number(page, "extras.kontra.fuchs", 1)
    page.wait_for_function("() => Object.keys(localStorage).some(k => k.includes('draft'))")
    settle(page)
    # deal 1 is stored from another device while this one is closed
    deals_record(table_id=table.pk, records=[{"game": "normal", "re": [1, 2],
                                              "re_points": 130}], actor=Actor(by_table=True))
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    wait_count(page, 1)
    assert not page.is_checked("[data-field=game] input[value=normal]")
    assert page.input_value("[data-field='extras.kontra.fuchs'] input") == "0"
