"""The tablet's entry states in a real Chromium: draft → queued → sending → stored, or
refused. A refused deal never jams the queue, nothing typed is lost by a reload, a deal
whose answer was lost is stored once, and a second device sees the first one's deals."""

import pytest

from tests.browser.conftest import needs_chromium, offline_ready, shot
from tests.browser.test_tablet_sheet import settle, setup_table, wait_count
from tournaments.models import Deal

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def passed(page):
    page.click(".passed-button")


def clubs_without_result(page, declarer=1):
    """A Skat game with no result chosen: the server refuses it on ``won``."""
    page.click(f"[data-field=declarer] label[data-seat-option='{declarer}']")
    page.check("[data-field=game] input[value=clubs]")


def pending(page):
    return page.locator("#pending li")


def go_offline(page):
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")


def go_online(page):
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def wait_refused_open(page, number):
    page.wait_for_function(
        "n => !document.querySelector('#fix-number').closest('[hidden]')"
        " && document.querySelector('#fix-number').textContent == String(n)", arg=number)


def planned_dealer(page, number):
    return page.evaluate(
        "n => JSON.parse(document.getElementById('sheet-config').textContent)"
        ".plan.find(h => h.number === n).dealer", number)


def test_a_deal_refused_online_stays_in_the_form_with_its_error(live_server, page):
    _, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    clubs_without_result(page, declarer=2)
    page.click("#save-deal")
    page.wait_for_function("() => document.querySelector('[data-error-for=won]').textContent")
    assert pending(page).count() == 0
    assert page.locator("#deal-number").inner_text() == "1"
    assert page.locator("[data-field=game] input[value=clubs]").is_checked()
    assert page.locator("[data-field=declarer] input[value='2']").is_checked()
    assert "online" in page.locator("#net-status").inner_text()
    shot(page, "queue-refused-online")
    page.check("[data-field=won] input[value=true]")
    page.click("#save-deal")
    wait_count(page, 1)
    passed(page)
    wait_count(page, 2)
    settle(page)
    assert list(Deal.objects.filter(table=table).order_by("number")
                .values_list("number", "record__game")) == [(1, "clubs"), (2, None)]


def test_the_jam_a_refused_queued_deal_opens_with_its_number_and_the_next_ones_wait(
        live_server, page):
    _, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    for number in (1, 2):
        passed(page)
        wait_count(page, number)
    go_offline(page)
    clubs_without_result(page)      # deal 3: the server will refuse it
    page.click("#save-deal")
    pending(page).nth(0).wait_for()
    passed(page)                    # deal 4: valid
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 2")
    go_online(page)
    wait_refused_open(page, 3)
    assert pending(page).nth(0).get_attribute("class") == "refused"
    assert "wartet auf das abgelehnte Spiel" in pending(page).nth(1).inner_text()
    assert page.locator("[data-error-for=won]").inner_text()
    dealer = page.locator(".seats li.dealer").get_attribute("data-seat")
    assert int(dealer) == planned_dealer(page, 3)
    shot(page, "queue-jam-refused")

    page.reload()                   # a reload keeps the refused deal open and the queue
    wait_refused_open(page, 3)
    assert pending(page).count() == 2
    assert page.locator("[data-field=game] input[value=clubs]").is_checked()

    page.check("[data-field=won] input[value=true]")
    page.click("#save-deal")
    wait_count(page, 4)
    assert pending(page).count() == 0
    assert page.locator("#deal-number").inner_text() == "5"
    settle(page)
    assert list(Deal.objects.filter(table=table).order_by("number")
                .values_list("number", "record__game")) == [
        (1, None), (2, None), (3, "clubs"), (4, None)]


def test_discarding_a_refused_deal_asks_and_moves_the_waiting_ones_up(live_server, page):
    _, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    go_offline(page)
    clubs_without_result(page)
    page.click("#save-deal")
    pending(page).nth(0).wait_for()
    passed(page)
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 2")
    go_online(page)
    wait_refused_open(page, 1)
    page.once("dialog", lambda dialog: dialog.dismiss())   # asked: no — nothing changes
    page.click("#discard-refused")
    assert pending(page).count() == 2
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#discard-refused")
    wait_count(page, 1)
    assert pending(page).count() == 0
    assert "Spiel 1 auf diesem Gerät verworfen" in page.locator("#device-log").text_content()
    settle(page)
    assert list(Deal.objects.filter(table=table).values_list("number", "record__passed")) == [
        (1, True)]


def test_a_lost_answer_stores_the_deal_once(live_server, page):
    _, table = setup_table("skat", 3)
    lost = []

    def store_then_lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            route.fetch()          # the server stores the deal ...
            lost.append(True)
            # ... but its answer never reaches the tablet: the Wi-Fi's gateway answers
            # instead (a refused connection is the offline tests' case)
            route.fulfill(status=502, body="")
        else:
            route.continue_()

    page.route("**/deals/", store_then_lose_the_answer)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    offline_ready(page)
    passed(page)
    page.wait_for_function("() => document.querySelector('#pending li.queued')")
    assert lost and Deal.objects.filter(table=table).count() == 1  # stored, answer lost
    page.unroute("**/deals/")
    go_online(page)                # the retry carries the same key
    wait_count(page, 1)
    assert pending(page).count() == 0
    passed(page)
    wait_count(page, 2)
    settle(page)
    assert lost and list(Deal.objects.filter(table=table).order_by("number")
                         .values_list("number", flat=True)) == [1, 2]


def test_queued_deals_and_a_draft_survive_a_reload(live_server, page):
    _, table = setup_table("skat", 3)
    page.route("**/deals/", lambda route: route.abort() if route.request.method == "POST"
               else route.continue_())
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    offline_ready(page)
    passed(page)
    pending(page).nth(0).wait_for()
    passed(page)
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 2")
    clubs_without_result(page, declarer=3)     # typed, not saved
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 2")
    assert page.locator("[data-field=declarer] input[value='3']").is_checked()
    assert page.locator("[data-field=game] input[value=clubs]").is_checked()
    assert page.locator("#deal-number").inner_text() == "3"
    page.unroute("**/deals/")
    go_online(page)
    wait_count(page, 2)
    page.check("[data-field=won] input[value=false]")
    page.click("#save-deal")
    wait_count(page, 3)
    settle(page)
    assert list(Deal.objects.filter(table=table).order_by("number")
                .values_list("number", "record__declarer")) == [(1, None), (2, None), (3, 3)]


def test_a_second_device_sees_the_first_ones_deals(live_server, page):
    _, table = setup_table("skat", 3)
    other = page.context.browser.new_context(viewport=page.viewport_size, locale="de-DE")
    second = other.new_page()
    try:
        page.goto(f"{live_server.url}/t/{table.entry_token}/")
        second.goto(f"{live_server.url}/t/{table.entry_token}/")
        passed(page)
        wait_count(page, 1)
        second.wait_for_function(   # polled, without a reload
            "() => document.querySelector('#sheet table').dataset.count == 1", timeout=12000)
        assert second.locator("#deal-number").inner_text() == "2"
        passed(second)
        page.wait_for_function(
            "() => document.querySelector('#sheet table').dataset.count == 2", timeout=12000)
        assert page.locator("#deal-number").inner_text() == "3"
        second.goto("about:blank")
    finally:
        other.close()
    settle(page)
    assert Deal.objects.filter(table=table).count() == 2
