"""Two devices at one table enter the same deal number: the second one's entry is never
renumbered silently. It sees the stored deal and its own entry side by side and decides:
the same deal entered twice (discard it) or really another deal (enter it as the next)."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_tablet_sheet import settle, setup_table, wait_count
from tournaments.models import Deal

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def clubs_won(page, declarer):
    page.click(f"[data-field=declarer] label[data-seat-option='{declarer}']")
    page.check("[data-field=game] input[value=clubs]")
    page.check("[data-field=won] input[value=true]")
    page.click("#save-deal")


def stale_device(context, url):
    """A second device that has not yet polled the sheet since the first one saved: its
    conditional polls get 304, its forced re-reads (after a refusal) the real list."""
    second = context.new_page()
    second.set_default_timeout(15000)
    errors = []
    second.on("pageerror", lambda exc: errors.append(str(exc)))
    second.route("**/*", lambda route: route.fulfill(status=304)
                 if route.request.method == "GET" and "if-none-match" in route.request.headers
                 else route.continue_())
    second.goto(url)
    return second, errors


@pytest.mark.parametrize("choice", ["discard", "next"])
def test_a_second_device_sees_both_versions_and_decides(live_server, page, choice):
    _, table = setup_table("skat", 3)
    url = f"{live_server.url}/t/{table.entry_token}/"
    other = page.context.browser.new_context(viewport=page.viewport_size, locale="de-DE")
    try:
        second, errors = stale_device(other, url)
        page.goto(url)
        clubs_won(page, declarer=2)
        wait_count(page, 1)
        assert second.locator("#deal-number").inner_text() == "1"  # it still shows deal 1
        second.click(".passed-button")
        conflict = second.locator("#conflict")
        conflict.wait_for(state="visible")
        second.wait_for_function("() => document.querySelectorAll('#conflict-rows tr').length >= 3")
        assert second.locator("#entry").is_hidden()  # no silent "Spiel 2" to tap
        text = conflict.inner_text()
        assert "Spiel 1" in text and "Gespeichert als Spiel 1" in text
        assert "+24" in text or "+" in text
        names = [s.participant.player.name for s in table.seats.order_by("seat")]
        for name in names:
            assert name in text
        assert second.locator("#pending li.conflict").count() == 1
        assert second.locator("#conflict-next-number").inner_text() == "2"
        shot(second, f"two-devices-conflict-{choice}")
        if choice == "discard":
            second.click("#conflict-discard")
            conflict.wait_for(state="hidden")
            assert second.locator("#pending li").count() == 0
            assert "verworfen" in second.locator("#device-log").text_content()
            assert second.locator("#deal-number").inner_text() == "2"
            expected = 1
        else:
            second.click("#conflict-next")
            wait_count(second, 2)
            assert second.locator("#pending li").count() == 0
            assert "Spiel 2" in second.locator("#device-log").text_content()
            expected = 2
        second.goto("about:blank")
        assert errors == []
    finally:
        other.close()
    settle(page)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert len(deals) == expected
    assert deals[0].record["declarer"] == 2
    if expected == 2:
        assert deals[1].record.get("passed") is True


def test_a_deal_queued_offline_whose_number_was_taken_asks_instead_of_jamming(live_server,
                                                                              page):
    _, table = setup_table("skat", 3)
    url = f"{live_server.url}/t/{table.entry_token}/"
    other = page.context.browser.new_context(viewport=page.viewport_size, locale="de-DE")
    try:
        second, errors = stale_device(other, url)
        second.wait_for_function("() => document.querySelector('#sheet table')")
        other.set_offline(True)
        second.evaluate("window.dispatchEvent(new Event('offline'))")
        second.click(".passed-button")  # kept on the device as deal 1
        second.locator("#pending li").first.wait_for()
        page.goto(url)
        clubs_won(page, declarer=2)
        wait_count(page, 1)
        other.set_offline(False)
        second.evaluate("window.dispatchEvent(new Event('online'))")
        second.locator("#conflict").wait_for(state="visible")
        assert second.locator("#fix-number").is_hidden()  # not the refused-deal form
        assert second.locator("#pending li.conflict").count() == 1
        second.click("#conflict-next")
        wait_count(second, 2)
        second.goto("about:blank")
        assert errors == []
    finally:
        other.close()
    settle(page)
    assert [d.record.get("passed", False) for d in
            Deal.objects.filter(table=table).order_by("number")] == [False, True]
