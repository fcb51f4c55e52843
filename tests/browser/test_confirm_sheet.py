"""Every seated player confirms a finished sheet by tapping their own name at the tablet;
the last confirmation submits it, and the page says in words who has confirmed and who
is missing. The director may submit without every confirmation, giving a reason; the
history and the submitted sheet name who confirmed."""

import pytest

from tests.browser.conftest import ARTIFACTS, needs_chromium, offline_ready, shot
from tests.browser.test_director_console import logged_in
from tests.browser.test_readable_lists import NAMES, players
from tests.browser.test_tablet_sheet import settle
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import SheetEvent, Table
from tournaments.services import Actor, deal_record, round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def finished_sheet(count: int = 3, seed: int = 1):
    """A published Skat tournament with one table of ``count`` players whose short sheet
    (``count`` passed deals) is complete: the director, the table, the names by seat."""
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Donnerstag", game="skat", club=club, published=True,
                                   director=director, rules={f"series_deals_{count}": count})
    players(tournament, club, NAMES[:count])
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=seed))
    for number in range(1, count + 1):
        deal_record(table_id=table.pk, number=number, record={"passed": True},
                    actor=Actor(user=director))
    names = [s.participant.player.name for s in table.seats.order_by("seat")]
    return director, table, names


def wait_until(page, condition, timeout: float = 10_000) -> None:
    """Let the page run (its requests reach the route handlers) until ``condition``."""
    waited = 0
    while not condition():
        assert waited < timeout, "timed out"
        page.wait_for_timeout(50)
        waited += 50


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_submit_waits_for_every_player_and_says_who_confirmed(live_server, browser, width):
    _, table, names = finished_sheet()
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    confirm = page.locator("#confirm")
    confirm.wait_for(state="visible")
    status = page.locator("#confirm-status")
    assert "Noch niemand hat bestätigt" in status.inner_text()
    assert page.locator("#submit-sheet").count() == 0  # the last confirmation submits
    buttons = confirm.locator(".confirm-seat").all()
    assert len(buttons) == 3
    # two players tap at once: the tablet sends the second confirmation only once the
    # first is answered, so the answers cannot arrive in the wrong order (the first,
    # with one name, after the second, with two)
    offline_ready(page)
    held = []
    page.route("**/confirm/", lambda route: held.append(route))
    buttons[0].click()
    wait_until(page, lambda: len(held) == 1)
    buttons[2].click()
    with pytest.raises(AssertionError, match="timed out"):  # the second waits its turn
        wait_until(page, lambda: len(held) == 2, timeout=500)
    held[0].continue_()
    wait_until(page, lambda: len(held) == 2)
    held[1].continue_()
    page.locator(".confirm-seat[aria-pressed=true]").nth(1).wait_for()
    page.unroute("**/confirm/")
    words = status.inner_text()
    assert f"Bestätigt: {names[0]}, {names[2]}." in words
    assert f"Es fehlt noch: {names[1]}." in words
    assert f"{names[0]} hat bestätigt" in buttons[0].inner_text()
    shot(page, "confirm-two-of-three")
    page.locator("#sheet").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"confirm-sheet-in-view-{width}.png"))
    assert page.locator("#unconfirmed").count() == 0  # the reason is the director's
    buttons[1].click()
    page.locator("#submitted-note").wait_for()
    assert ", ".join(names) in page.locator("#confirmed-names").inner_text()
    shot(page, "confirm-submitted")
    settle(page)
    context.close()
    after = SheetEvent.objects.get(table=table, action="submit").after
    assert [c["seat"] for c in after["confirmed_by"]] == [1, 2, 3]


def test_the_director_submits_without_every_confirmation_with_a_reason(live_server, browser):
    director, table, names = finished_sheet()
    context, page, errors = logged_in(browser, live_server, director, "phone")
    page.goto(f"{live_server.url}/console/table/{table.pk}/")
    page.locator("#confirm").wait_for(state="visible")
    page.locator(".confirm-seat").first.click()
    page.locator(".confirm-seat[aria-pressed=true]").first.wait_for()
    page.click("#unconfirmed summary")
    assert page.locator("#submit-unconfirmed").is_disabled()  # no reason, no submit
    page.fill("#unconfirmed-reason", "Herr Braun musste zum Zug")
    shot(page, "confirm-director-reason")
    page.click("#submit-unconfirmed")
    page.locator("#submitted-note").wait_for()
    assert "Herr Braun musste zum Zug" in page.locator("#unconfirmed-note").inner_text()
    history = page.locator(".history-list").inner_text()
    assert names[0] in history and "Herr Braun musste zum Zug" in history
    shot(page, "confirm-director-submitted")
    settle(page)
    context.close()
    assert errors == []
    after = SheetEvent.objects.get(table=table, action="submit").after
    assert after["unconfirmed_reason"] == "Herr Braun musste zum Zug"
