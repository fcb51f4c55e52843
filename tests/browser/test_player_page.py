"""A player's own phone in a real Chromium: the page ``/me/<token>/`` shows the seat; when
the director draws the next round, the new seat appears without a reload, with a notice
and a vibration; the player opens the sheet, enters a deal with their own token, and it
shows on their live score card and in the table's history under their name."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import needs_chromium, phone_page, shot
from tests.browser.test_readable_lists import NAMES, players
from tests.browser.test_tablet_sheet import settle, skat_deal, wait_count
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import SheetEvent, Table
from tournaments.services import (
    Actor,
    deal_record,
    round_close,
    round_draw,
    sheet_submit,
    tournament_create,
)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

# navigator.vibrate recorded, so the test sees that the phone was asked to vibrate
RECORD_VIBRATION = """
window.__vibrations = [];
navigator.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
"""


def first_round():
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Dienstagsrunde", game="skat", club=club,
                                   published=True, director=director,
                                   rules={"series_deals_3": 3})
    players(tournament, club, NAMES[:3])
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    return director, tournament, table


def next_round(director, tournament, table) -> Table:
    actor = Actor(user=director)
    for number in (1, 2, 3):
        deal_record(table_id=table.pk, number=number, record={"passed": True}, actor=actor)
    sheet_submit(table_id=table.pk, actor=actor, confirmed_by=[1, 2, 3])
    round_close(round_id=table.round_id)
    return Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                              seed=2))


def no_sideways_scroll(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_the_seat_follows_the_draw_and_the_player_enters_from_the_phone(
        live_server, browser, width, in_process_tasks):
    director, tournament, table = first_round()
    participant = table.seats.select_related("participant__player").get(seat=2).participant
    name = participant.player.name
    context, page, errors = phone_page(browser, live_server, participant, width,
                                       init_script=RECORD_VIBRATION)
    assert page.locator("#me-round").inner_text() == "1"
    assert page.locator("#me-seat").inner_text() == "2"
    assert "gibt zuerst" in page.locator(".me-dealer").inner_text()
    assert page.locator("#me-notice").is_hidden()
    no_sideways_scroll(page, width)
    shot(page, "me-round-1")

    new_table = next_round(director, tournament, table)
    seat = new_table.seats.get(participant=participant).seat
    page.locator("#me-notice").wait_for(state="visible")
    assert page.locator("#me-notice-text").inner_text() == (
        f"Neue Runde: Tisch {new_table.number}, Platz {seat}")
    assert page.locator("#me-round").inner_text() == "2"
    assert page.locator("#me-seat").inner_text() == str(seat)
    assert page.evaluate("window.__vibrations.length") == 1
    assert "Ihre früheren Runden" in page.locator("#me-live").inner_text()
    no_sideways_scroll(page, width)
    shot(page, "me-new-round")
    page.click("#me-notice-ok")
    assert page.locator("#me-notice").is_hidden()

    page.click("#me-enter")
    page.wait_for_url(f"**/me/{participant.personal_token}/sheet/")
    page.locator("#deal-form").wait_for()
    declarer = skat_deal(page, 3)  # a won clubs game
    wait_count(page, 1)
    shot(page, "me-sheet")
    page.click("#back-to-me")
    page.wait_for_url(f"**/me/{participant.personal_token}/")
    card = page.locator(".me-card")
    assert card.locator("tr.deal-row").count() == 1
    assert card.locator("td.total").nth(declarer - 1).inner_text() != "0"
    no_sideways_scroll(page, width)
    shot(page, "me-score-card")
    settle(page)
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"

    event = SheetEvent.objects.get(table=new_table, action=SheetEvent.Action.DEAL_CREATE)
    assert event.participant_id == participant.pk
    staff = Client(HTTP_ACCEPT_LANGUAGE="de")
    staff.force_login(director)
    history = staff.get(f"/console/table/{new_table.pk}/").content.decode()
    assert f"{name} (eigenes Handy)" in history


WON_BY_SEAT_2 = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}


@pytest.mark.parametrize("width", [390, 800])
def test_the_standing_follows_the_other_tables_without_a_reload(live_server, browser, width,
                                                                in_process_tasks):
    """Deals at another table move the player's rank on their open page: the standing is
    polled from the shared ranks part, the live part itself stays unchanged."""
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    tournament = tournament_create(name="Dienstagsrunde", game="skat", club=club,
                                   published=True, director=director,
                                   rules={"series_deals_3": 3})
    players(tournament, club, [*NAMES, "Gertrud Hoffmann"])  # two tables of 3
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    mine, other = Table.objects.filter(round=rnd).order_by("number")
    participant = mine.seats.get(seat=2).participant
    actor = Actor(user=director)
    deal_record(table_id=mine.pk, number=1, record=WON_BY_SEAT_2, actor=actor)
    context, page, errors = phone_page(browser, live_server, participant, width,
                                       init_script=RECORD_VIBRATION)
    assert page.locator("#me-rank").inner_text() == "1"
    score = page.locator("#me-score").inner_text()
    for number in (1, 2):  # the other table's declarer passes the player
        deal_record(table_id=other.pk, number=number, record=WON_BY_SEAT_2, actor=actor)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # poll now
    expect(page.locator("#me-rank")).to_have_text("2")
    assert page.locator("#me-score").inner_text() == score
    no_sideways_scroll(page, width)
    shot(page, "me-standing-moved")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
