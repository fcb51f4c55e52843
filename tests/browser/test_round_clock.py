"""The round's clock in a real Chromium, at a phone's and a small tablet's width: the
board shows the time left large and counts down; a player's phone shows it too and
vibrates once at ten minutes left; when time is up the board says so."""

import datetime

import pytest
from django.test import Client

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_player_page import RECORD_VIBRATION, first_round, no_sideways_scroll
from tournaments.models import Round
from tournaments.services import round_clock
from tournaments.services.actors import Actor

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def opened(browser, width, url, user=None):
    """A German browser at ``width`` on ``url``, phones' vibrations recorded; with
    ``user`` signed in."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    context.add_init_script(RECORD_VIBRATION)
    if user is not None:
        client = Client()
        client.force_login(user)
        origin = "/".join(url.split("/")[:3])  # the whole site, not the page's folder
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "url": origin}])
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


def counts_down(page, selector):
    """The clock's text changes within a bounded wait (it ticks every second)."""
    before = page.locator(selector).inner_text()
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent !== t", arg=[selector, before])


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_the_board_and_the_phone_show_the_clock(live_server, browser, width):
    director, tournament, table = first_round()
    round_clock(round_id=table.round_id, action="start", minutes=45, actor=Actor(director))
    context, page, errors = opened(browser, width, f"{live_server.url}/p/{tournament.slug}/")
    clock = page.locator(".round-clock.clock-big")
    assert clock.is_visible()
    shown = clock.locator(".clock-time").inner_text()
    assert shown == "45:00" or shown.startswith(("44:", "43:"))  # m:ss, a slow start allowed
    assert "Runde 1" in clock.inner_text() and "Restzeit" in clock.inner_text()
    counts_down(page, ".clock-big .clock-time")
    # the hall reads it from afar: the digits are at least a sixth of the screen wide
    box = clock.locator(".clock-time").bounding_box()
    assert box["width"] >= width / 6
    no_sideways_scroll(page, width)
    shot(page, f"clock-board-{width}")

    # time is up: the board says so
    Round.objects.filter(pk=table.round_id).update(
        clock_ends_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1))
    page.reload()
    page.locator(".round-clock.clock-over").wait_for()
    assert "Die Zeit ist um." in clock.inner_text()
    assert clock.locator(".clock-time").inner_text() == "0:00"
    shot(page, f"clock-board-over-{width}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"

    # a player's phone with nine minutes left: amber, and one vibration
    round_clock(round_id=table.round_id, action="extend", minutes=9, actor=Actor(director))
    participant = table.seats.get(seat=1).participant
    context, page, errors = opened(browser, width,
                                   f"{live_server.url}/me/{participant.personal_token}/")
    page.locator(".round-clock.clock-warn").wait_for()
    page.wait_for_function("() => window.__vibrations.length === 1")
    counts_down(page, ".round-clock .clock-time")
    assert page.evaluate("window.__vibrations.length") == 1
    no_sideways_scroll(page, width)
    shot(page, f"clock-phone-{width}")
    page.goto(f"{live_server.url}/t/{table.entry_token}/")  # the table's sheet shows it too
    page.locator(".sheet-head .round-clock.clock-warn").wait_for()
    no_sideways_scroll(page, width)
    shot(page, f"clock-sheet-{width}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.mark.parametrize("width", [390, 800])
def test_the_director_starts_pauses_and_sees_the_tables_not_finished(live_server, browser,
                                                                    width):
    director, tournament, table = first_round()
    context, page, errors = opened(browser, width, f"{live_server.url}/console/t/"
                                   f"{tournament.pk}/", user=director)
    panel = page.locator("#round-clock")
    panel.locator("input[name=minutes]").fill("30")
    panel.get_by_role("button", name="Uhr starten").click()
    page.locator("#round-clock .round-clock.clock-running").wait_for()
    panel.get_by_role("button", name="Uhr anhalten").click()
    page.locator("#round-clock .round-clock.clock-paused").wait_for()
    assert "Die Uhr ist angehalten." in panel.inner_text()
    assert Round.objects.get(pk=table.round_id).clock_paused_seconds > 29 * 60
    no_sideways_scroll(page, width)
    shot(page, f"clock-console-paused-{width}")
    Round.objects.filter(pk=table.round_id).update(
        clock_paused_seconds=None,
        clock_ends_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1))
    page.reload()
    assert f"Noch nicht fertige Tische: {table.number}" in panel.inner_text()
    no_sideways_scroll(page, width)
    shot(page, f"clock-console-over-{width}")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
