"""Whole sheets entered on a tablet-sized and a phone-sized screen in a real Chromium:
a Skat series and a Baptistenskat partie, with the Wi-Fi dropping mid-sheet, the
players confirming and submitting, and the public board showing the result."""

import pytest

from tests.browser.conftest import board_row, needs_chromium, shot
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory
from tournaments.models import Deal, Seat, Table
from tournaments.services import Actor, deal_record, round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


# the players' names, as a club's are: never the factory's numbered ones, whose length
# grows with the ids the database has handed out in the run (a test must not depend on it)
NAMES = ("Anna Berger", "Bernd Ott", "Carla Ruf", "Dieter Sommer", "Eva Lang")


def setup_table(game, players, rules=None):
    club = ClubFactory()
    tournament = tournament_create(name=f"Browser {game}", game=game, club=club,
                                   published=True, rules=rules or {})
    for n in range(players):
        ParticipantFactory(tournament=tournament,
                           player=PlayerFactory(club=club, name=NAMES[n]), start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=5)
    return tournament, Table.objects.get(round=rnd)


def wait_count(page, count):
    page.wait_for_function(
        "n => document.querySelector('#sheet table').dataset.count == n", arg=count)


def skat_deal(page, number):
    """Every third deal a game (declarer changes, every fourth game lost), else passed."""
    if number % 3:
        page.click(".passed-button")
        return None
    declarer = (number // 3) % 3 + 1
    won = number % 4 != 0
    page.click(f"[data-field=declarer] label[data-seat-option='{declarer}']")
    page.check("[data-field=game] input[value=clubs]")
    page.check(f"[data-field=won] input[value={'true' if won else 'false'}]")
    page.wait_for_function("() => document.querySelector('#preview').textContent.length > 0")
    page.click("#save-deal")
    return declarer



def confirm_all(page):
    """Every player taps their name at the tablet; the last confirmation submits."""
    for button in page.locator(".confirm-seat").all():
        button.click()
    page.locator("#submitted-note").wait_for()

@pytest.mark.smoke
def test_a_whole_skat_series_with_an_outage(live_server, page, in_process_tasks):
    tournament, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    assert page.locator("h2#entry-title").inner_text().startswith("Spiel 1")
    shot(page, "skat-start")
    for number in range(1, 37):
        if number == 11:
            page.context.set_offline(True)
        skat_deal(page, number)
        if number in (11, 12):
            page.wait_for_function(
                "n => document.querySelectorAll('#pending li').length == n", arg=number - 10)
            if number == 12:
                shot(page, "skat-offline")
                assert Deal.objects.filter(table=table).count() == 10
                page.context.set_offline(False)
                page.evaluate("window.dispatchEvent(new Event('online'))")
                wait_count(page, 12)
            continue
        wait_count(page, number)
    assert sorted(Deal.objects.filter(table=table).values_list("number", flat=True)) == list(
        range(1, 37))
    assert page.locator("#pending li").count() == 0
    confirm = page.locator("#confirm")
    confirm.wait_for(state="visible")
    shot(page, "skat-confirm")
    confirm_all(page)
    table.refresh_from_db()
    assert table.submitted

    board = page.context.new_page()
    board.goto(f"{live_server.url}/p/{tournament.slug}/")
    best = Seat.objects.filter(table=table).order_by("-score").first()
    best_score = board_row(board, best.participant_id).locator(".score")
    best_score.wait_for()
    assert best_score.inner_text() == str(best.score)
    assert board.locator("tbody tr").count() == 3
    shot(board, "board")


def test_a_baptistenskat_partie_with_struck_last_bid(live_server, page, in_process_tasks):
    tournament, table = setup_table("baptistenskat", 4, {"profi_rule": True})
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    for number in range(1, 11):
        cards = 4 + number
        page.check("[data-field=trump] input[value=red]")
        bid_rows = page.locator("[data-field=bids] .count-row")
        for i in range(3):
            bid_rows.nth(i).locator("button[data-value='1']").click()
        last = bid_rows.nth(3)
        struck = last.locator("button.struck")
        assert struck.count() == 1 and struck.inner_text() == str(cards - 3)
        last.locator("button[data-value='0']").click()
        trick_rows = page.locator("[data-field=tricks] .count-row")
        trick_rows.nth(0).locator(f"button[data-value='{cards - 3}']").click()
        for i in range(1, 4):
            trick_rows.nth(i).locator("button[data-value='1']").click()
        assert "0" in page.locator("[data-countdown-for=tricks]").inner_text()
        if number == 1:
            shot(page, "baptistenskat-deal")
        if number == 6:
            page.context.set_offline(True)
        page.click("#save-deal")
        if number == 6:
            page.wait_for_function("() => document.querySelectorAll('#pending li').length == 1")
            page.context.set_offline(False)
            page.evaluate("window.dispatchEvent(new Event('online'))")
        wait_count(page, number)
    assert Deal.objects.filter(table=table).count() == 10
    confirm_all(page)
    shot(page, "baptistenskat-submitted")
    scores = {s.seat: s.score for s in Seat.objects.filter(table=table)}
    assert sum(scores.values()) != 0


def test_ramsch_and_a_correction_on_the_tablet(live_server, page, in_process_tasks):
    tournament, table = setup_table("skat", 3, {"ramsch": True})
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=mode] input[value=ramsch]")
    points = page.locator("[data-field=points] input")
    for i, value in enumerate(["60", "40", "10"]):
        points.nth(i).fill(value)
    page.fill("#f-skat_points", "10")
    page.click("#save-deal")
    wait_count(page, 1)
    assert Deal.objects.get(table=table).scores == [-70, 0, 0]
    # tap the row to correct it: seat 1 made 70, seat 3 none (Jungfrau)
    page.click("#sheet tr.deal-row")
    assert page.locator("[data-field=mode] input[value=ramsch]").is_checked()
    points.nth(0).fill("70")
    points.nth(2).fill("0")
    page.check("[data-field=jungfrau] input")
    page.click("#save-deal")
    page.wait_for_function(  # the running total, with a minus sign
        "() => document.querySelector('#sheet tr.deal-row .run').textContent.trim()"
        " == '\u2212160'")
    deal = Deal.objects.get(table=table)
    assert deal.scores == [-160, 0, 0] and deal.version == 2


def settle(page):
    """Leave the sheet so no preview or refresh request of the page is in flight while the
    test thread reads or writes the database (SQLite's shared test database locks tables)."""
    page.goto("about:blank")


def test_schafkopf_deal_on_the_tablet(live_server, page, in_process_tasks):
    _, table = setup_table("schafkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=rufspiel]")
    page.click("[data-field=declarer] label[data-seat-option='2']")
    page.click("[data-field=partner] label[data-seat-option='3']")
    page.check("[data-field=called_ace] input[value=acorns]")
    page.click("#save-deal")
    wait_count(page, 1)
    settle(page)
    assert Deal.objects.get(table=table).scores == [-1, 1, 1, -1]


def test_labatarde_deal_on_the_tablet(live_server, page, in_process_tasks):
    _, table = setup_table("labatarde", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=trump] input[value=spades]")
    bids = page.locator("[data-field=bids] .count-row")
    for i in range(3):
        bids.nth(i).locator("button[data-value='1']").click()
    assert bids.nth(3).locator("button.struck").inner_text() == "2"
    bids.nth(3).locator("button[data-value='0']").click()
    tricks = page.locator("[data-field=tricks] .count-row")
    for i, made in enumerate([2, 1, 1, 1]):
        tricks.nth(i).locator(f"button[data-value='{made}']").click()
    page.click("#save-deal")
    wait_count(page, 1)
    settle(page)
    assert Deal.objects.get(table=table).scores == [1, 1, 0, 0]


def test_basler_deal_on_the_tablet(live_server, page, in_process_tasks):
    _, table = setup_table("basler", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.fill("[data-field=tricks] input[data-index='0']", "7")
    page.dispatch_event("[data-field=tricks] input[data-index='0']", "change")
    page.check("[data-field=last_trick] input[value=A]")
    page.fill("[data-field=card_points] input[data-index='0']", "22")
    page.dispatch_event("[data-field=card_points] input[data-index='0']", "change")
    page.click("#save-deal")
    wait_count(page, 1)
    shot(page, "basler-deal")
    settle(page)
    assert Deal.objects.get(table=table).scores == [32, 23, 32, 23]


def seat_names(table):
    return {s.seat: s.participant.player.name
            for s in table.seats.select_related("participant__player")}


def test_schafkopf_sie_thrown_in_and_the_partner_in_the_list(live_server, page,
                                                             in_process_tasks):
    _, table = setup_table("schafkopf", 4)
    names = seat_names(table)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    # a rufspiel: its row names the called partner
    page.check("[data-field=game] input[value=rufspiel]")
    page.click("[data-field=declarer] label[data-seat-option='2']")
    page.click("[data-field=partner] label[data-seat-option='4']")
    page.check("[data-field=called_ace] input[value=bells]")
    page.click("#save-deal")
    wait_count(page, 1)
    who = page.locator("#sheet tr.deal-row[data-number='1'] .who").inner_text()
    assert f"Spieler: {names[2]}" in who and f"Mitspieler: {names[4]}" in who
    # the button and the list say what the rule text says: zusammengeworfen
    button = page.locator(".passed-button")
    assert button.inner_text() == "Zusammengeworfen"
    button.click()
    wait_count(page, 2)
    assert page.locator("#sheet tr.deal-row[data-number='2'] .words").inner_text() \
        == "zusammengeworfen"
    # a sie: points, schwarz and its 8 laufende go without typing
    page.check("[data-field=game] input[value=sie]")
    assert not page.locator("#f-laufende").is_visible()
    assert not page.locator("#f-declarer_points").is_visible()
    page.click("[data-field=declarer] label[data-seat-option='3']")
    page.wait_for_function("() => document.querySelector('#preview').textContent.length > 0")
    shot(page, "schafkopf-sie")
    page.click("#save-deal")
    wait_count(page, 3)
    assert "8 Laufende" in page.locator("#sheet tr.deal-row[data-number='3'] .words").inner_text()
    shot(page, "schafkopf-list")
    settle(page)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert deals[1].record == {"game": "passed"}
    # a sie: (base solo 2 + 8 laufende) × 4 per opponent
    assert deals[2].record["laufende"] == 8 and deals[2].scores == [-40, -40, 120, -40]


def test_a_correction_greys_the_dealer_of_the_corrected_deal(live_server, page,
                                                             in_process_tasks):
    """At a 5-table the dealer sits out: correcting deal 2 greys seat 2 (its dealer), as
    entering deal 3 greys seat 3 — also for deals stored before the page was opened."""
    _, table = setup_table("schafkopf", 5)
    for number in (1, 2):
        deal_record(table_id=table.pk, number=number, record={"game": "passed"},
                    actor=Actor(by_table=True))
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    inactive = ("() => Array.from(document.querySelectorAll("
                "'[data-field=declarer] [data-seat-option].inactive'), l => l.dataset.seatOption)")
    assert page.evaluate(inactive) == ["3"]
    page.click("#sheet tr.deal-row[data-number='2']")
    page.locator("#edit-number").wait_for(state="visible")
    assert page.evaluate(inactive) == ["2"]
    assert page.locator("[data-field=declarer] [data-seat-option='2'] input").is_disabled()
    assert page.locator(".seats li.dealer").get_attribute("data-seat") == "2"
    shot(page, "correction-dealer")
    page.click("#cancel-edit")
    assert page.evaluate(inactive) == ["3"]
