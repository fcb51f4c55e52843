"""Four players at a 4-table, each on their own 390 px phone, speak through their own
sheet page (``/me/<token>/sheet/``, whose requests carry ``Authorization: Player …``):
one objects to a deal, the director sees it in the console and decides it; another calls
the director, who marks the call seen, and the caller's phone says so; then each taps
"Ich bestätige" — their own seat's only button — and the last confirmation submits the
sheet, which every phone then shows."""

import pytest

from tests.browser.conftest import needs_chromium, phone_page, shot
from tests.browser.test_confirm_sheet import finished_sheet
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tournaments.models import DirectorCall, Objection, SheetEvent

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def phone_of(browser, live_server, seat):
    """A player's phone on their own sheet page (the link of their player card)."""
    return phone_page(browser, live_server, seat.participant, path="sheet/", timeout=20000)


def test_four_phones_object_call_and_confirm(live_server, browser):
    director, table, _names = finished_sheet(4, seed=3)
    tournament = table.round.tournament
    seats = list(table.seats.select_related("participant__player").order_by("seat"))
    phones = [phone_of(browser, live_server, s) for s in seats]
    console_context, console, console_errors = logged_in(browser, live_server, director,
                                                         "tablet")
    console.goto(f"{live_server.url}/console/t/{tournament.pk}/")

    # an objection to deal 2 from the first phone
    first = phones[0][1]
    first.click("#objection-open")
    first.select_option("#objection-deal", "2")
    first.fill("#objection-note", "Spiel 2 war ein Grand")
    assert first.locator("#objection-count").inner_text() == "21 / 500"
    first.click("#objection-send")
    first.locator("#objection-list .objection.open").wait_for()
    assert "Spiel 2 war ein Grand" in first.locator("#objection-list").inner_text()
    no_sideways_scroll(first)
    shot(first, "voice-objection-open")
    objection = Objection.objects.get()
    assert objection.participant_id == seats[0].participant_id and objection.deal_number == 2

    # the second phone calls the director
    second = phones[1][1]
    second.click("#call-open")
    second.fill("#call-reason", "Karte fehlt")
    second.click("#call-send")
    second.locator("#call-status.open").wait_for()

    # the console shows both within a poll and the director handles them
    item = console.locator(f"#objection-{objection.pk}")
    item.wait_for()
    assert "Spiel 2 war ein Grand" in item.inner_text() and seats[0].participant.player.name \
        in item.inner_text()
    call = DirectorCall.objects.get()
    console.locator(f"#call-{call.pk}").wait_for()
    shot(console, "voice-console-panel")
    console.locator(f"#call-{call.pk} button[value=seen]").click()
    console.locator(f"#call-{call.pk}.seen").wait_for()
    second.locator("#call-status.seen").wait_for()
    assert "gesehen" in second.locator("#call-status").inner_text()
    shot(second, "voice-call-seen")
    console.fill(f"#objection-{objection.pk} input[name=resolution]", "Geprüft: gepasst")
    console.locator(f"#objection-{objection.pk} button[type=submit]").click()
    console.locator(f"#objection-{objection.pk}").wait_for(state="detached")

    # each player confirms their own seat; the last confirmation submits
    for (_context, page, _errors), seat in zip(phones, seats, strict=True):
        assert page.locator(".confirm-seat").count() == 1  # the player's own seat only
        page.locator(f'.confirm-seat[data-seat="{seat.seat}"]').click()
        if seat.seat < len(seats):
            page.locator(f'.confirm-seat[data-seat="{seat.seat}"][aria-pressed=true]').wait_for()
    phones[-1][1].locator("#submitted-note").wait_for()
    shot(phones[-1][1], "voice-submitted")
    # the other phones learn it at their next poll (every 5 s) and show it too
    for _context, page, _errors in phones[:-1]:
        page.locator("#submitted-note").wait_for()
    table.refresh_from_db()
    assert table.submitted
    confirms = SheetEvent.objects.filter(table=table, action=SheetEvent.Action.CONFIRM)
    assert sorted(e.participant_id for e in confirms) == sorted(s.participant_id for s in seats)
    for context, _page, errors in phones:
        context.close()
        assert errors == []
    console_context.close()
    assert console_errors == []


@pytest.mark.parametrize("width", [390, 800])
def test_a_callers_phone_keeps_the_seen_call_after_a_reload(live_server, browser, width):
    """Issue 53: "Die Turnierleitung hat Ihren Ruf gesehen" went away on a reload where
    the browser kept nothing (another tab's browser, private mode); the page itself
    now names the caller's call not yet closed, on the sheet and on the player's page."""
    from tournaments.services import Actor
    from tournaments.services.calls import call_update

    director, table, _names = finished_sheet(4, seed=5)
    seat = table.seats.select_related("participant").get(seat=2)
    context, phone, errors = phone_of(browser, live_server, seat)
    phone.set_viewport_size({"width": width, "height": 844})
    phone.click("#call-open")
    phone.click("#call-send")
    phone.locator("#call-status.open").wait_for()
    call = DirectorCall.objects.get()
    call_update(call_id=call.pk, status="seen", actor=Actor(user=director))
    phone.evaluate("localStorage.clear()")
    phone.reload()
    status = phone.locator("#call-status.seen")
    assert "Ihren Ruf gesehen" in status.inner_text()
    no_sideways_scroll(phone)
    shot(phone, "call-seen-after-reload")
    token = seat.participant.personal_token
    phone.goto(f"{live_server.url}/me/{token}/")
    assert "Ihren Ruf gesehen" in phone.locator("#me-call.seen").inner_text()
    no_sideways_scroll(phone)
    shot(phone, "me-call-seen")
    # dealt with: the page says nothing more after a reload
    call_update(call_id=call.pk, status="closed", actor=Actor(user=director))
    phone.reload()
    assert phone.locator("#me-call").count() == 0
    assert errors == []
    context.close()
