"""Doppelkopf on the tablet in a real Chromium: the Re party tapped, the Augen, the
announcements and Sonderpunkte as nested fields, a Pflichtsolo, and the due seat shown
during the Vorführung (games.md §8)."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_tablet_sheet import settle, setup_table, wait_count
from tournaments.models import Deal
from tournaments.services import deals_record
from tournaments.services.actors import Actor

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def set_number(page, field, value):
    selector = f"[data-field='{field}'] input"
    page.fill(selector, str(value))
    page.dispatch_event(selector, "change")


def test_doppelkopf_deals_on_the_tablet(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    # D1: Re 1 + 3 with 80 Augen, Kontra announced "Kontra"
    page.check("[data-field=game] input[value=normal]")
    page.check("[data-field=re] input[value='1']")
    page.check("[data-field=re] input[value='3']")
    set_number(page, "re_points", 80)
    page.check("[data-field='announcements.kontra'] input[value=kontra]")
    page.wait_for_function("() => document.querySelector('#preview').textContent.length > 0")
    page.click("#save-deal")
    wait_count(page, 1)
    # a Herz solo by seat 2, won with 130: seat 2's Pflichtsolo
    page.check("[data-field=game] input[value=solo_herz]")
    page.check("[data-field=re] input[value='2']")
    set_number(page, "re_points", 130)
    page.click("#save-deal")
    wait_count(page, 2)
    # a normal game with Sonderpunkte of Kontra (D5)
    page.check("[data-field=game] input[value=normal]")
    page.check("[data-field=re] input[value='1']")
    page.check("[data-field=re] input[value='4']")
    set_number(page, "re_points", 125)
    set_number(page, "extras.kontra.fuchs", 2)
    page.check("[data-field='extras.kontra.karlchen'] input")
    shot(page, "doppelkopf-form")
    page.click("#save-deal")
    wait_count(page, 3)
    shot(page, "doppelkopf-deals")
    settle(page)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [d.scores for d in deals] == [[-5, 5, -5, 5], [-1, 3, -1, -1], [-2, 2, 2, -2]]
    assert deals[0].record["announcements"]["kontra"] == "kontra"
    assert deals[1].extra["compulsory"] is True and deals[1].extra["dealer"] == 2
    assert deals[2].record["extras"]["kontra"] == {"fuchs": 2, "doppelkopf": 0,
                                                   "karlchen": True}


def test_the_due_pflichtsolo_is_shown(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    normal = {"game": "normal", "re": [1, 2], "re_points": 130}
    records = [normal] * 2 + [{"game": "solo_herz", "re": [4], "re_points": 130}] + \
        [normal] * 4 + [{"game": "solo_kreuz", "re": [2], "re_points": 130}] + [normal] * 14
    deals_record(table_id=table.pk, records=records, actor=Actor(by_table=True))
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    due = page.locator("[data-hint-seat=due]")
    due.wait_for(state="visible")
    seat3 = table.seats.select_related("participant__player").get(seat=3)
    assert due.locator("output").inner_text() == seat3.participant.player.name
    shot(page, "doppelkopf-due")
