"""The sheet reopens without a network (service worker) and keeps taking deals."""

import pytest

from tests.browser.conftest import needs_chromium, offline_ready
from tests.browser.test_tablet_queue import go_online, passed
from tests.browser.test_tablet_sheet import settle, setup_table, wait_count
from tournaments.models import Deal

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_sheet_reopens_offline_and_sends_what_was_entered_meanwhile(live_server, page):
    _, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    offline_ready(page)
    passed(page)
    wait_count(page, 1)
    page.context.set_offline(True)
    page.reload()                                   # no network: the kept copy answers
    wait_count(page, 1)
    assert page.locator("#deal-number").inner_text() == "2"
    passed(page)
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 1")
    page.reload()                                   # still offline: the queue is kept
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 1")
    go_online(page)
    wait_count(page, 2)
    settle(page)
    assert list(Deal.objects.filter(table=table).order_by("number")
                .values_list("number", flat=True)) == [1, 2]


def test_the_service_worker_is_served_for_the_whole_site(client):
    resp = client.get("/sw.js")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/javascript")
    assert resp["Service-Worker-Allowed"] == "/"
    assert "stichliste-static-" in resp.content.decode()
