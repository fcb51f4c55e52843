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


def play(page, game, re, points, *, checks=(), numbers=(), number=None, shot_as=None,
         preview=False):
    """Tap one deal into the form and save it: the game, the Re seats, the Augen, then
    the counters (``numbers``) and the other choices (``checks``: selectors)."""
    page.check(f"[data-field=game] input[value={game}]")
    for seat in re:
        page.check(f"[data-field=re] input[value='{seat}']")
    set_number(page, "re_points", points)
    for field, value in numbers:
        set_number(page, field, value)
    for selector in checks:
        page.check(selector)
    if preview:  # the value the server computed, shown before saving
        page.wait_for_function(
            "() => document.querySelector('#preview').textContent.length > 0")
    if shot_as:
        shot(page, shot_as)
    page.click("#save-deal")
    wait_count(page, number)


def test_doppelkopf_deals_on_the_tablet(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    # D1: Re 1 + 3 with 80 Augen, Kontra announced "Kontra"
    play(page, "normal", (1, 3), 80, number=1, preview=True,
         checks=["[data-field='announcements.kontra'] input[value=kontra]"])
    # a Herz solo by seat 2, won with 130: seat 2's Pflichtsolo
    play(page, "solo_herz", (2,), 130, number=2)
    # a normal game with Sonderpunkte of Kontra (D5)
    play(page, "normal", (1, 4), 125, number=3, shot_as="doppelkopf-form",
         checks=["[data-field='extras.kontra.karlchen'] input"],
         numbers=[("extras.kontra.fuchs", 2)])
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
