"""A deal the server refuses on the tablet, in every game, in a real Chromium: the form
keeps everything typed and tapped (online, where the refusal comes straight back, and
offline, where it comes when the queue is sent), and each message names its field
("Stiche von Anna: Bitte eintragen.")."""

import pytest

from tests.browser.conftest import needs_chromium, settled, shot
from tests.browser.test_tablet_sheet import settle, setup_table
from tournaments.models import Deal

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

# Everything the form holds: the ticked inputs, typed numbers, tapped counters, the rows of
# a list field and the matadors stepper.
SNAPSHOT = """() => {
  const form = document.getElementById('deal-form');
  const out = [];
  form.querySelectorAll('input').forEach((i, n) => {
    const tick = i.type === 'radio' || i.type === 'checkbox';
    if (tick && i.checked) { out.push(n + ':' + i.name + '=' + i.value); }
    if (!tick && i.type !== 'hidden') { out.push(n + ':' + i.name + '#' + i.value); }
  });
  form.querySelectorAll('[aria-checked=true]').forEach(b => out.push(
    b.closest('[data-field]').dataset.field + '@' + b.closest('[data-seat]').dataset.seat
    + '=' + b.dataset.value));
  form.querySelectorAll('select').forEach((s, n) => out.push('select' + n + '=' + s.value));
  form.querySelectorAll('[data-type=matadors] output').forEach(
    o => out.push('matadors=' + o.dataset.value));
  return out;
}"""


def names(table):
    return {s.seat: s.participant.player.name
            for s in table.seats.select_related("participant__player")}


def refused(page, expected_count=1):
    """Save and wait until the refusal's messages are shown."""
    settled(page)  # the last tap's preview has answered
    before = page.evaluate(SNAPSHOT)
    page.click("#save-deal")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#deal-form .field-error'))"
        ".some(e => e.textContent.trim())")
    settled(page)  # the list re-read and a late preview have run
    assert page.evaluate(SNAPSHOT) == before, "the refusal changed the form"
    assert page.locator("#pending li").count() == 0
    return before


def error(page, field):
    return page.locator(f"#deal-form [data-error-for='{field}']").inner_text().strip()


def tap_counts(page, field, values):
    rows = page.locator(f"[data-field={field}] .count-row")
    for i, value in enumerate(values):
        if value is not None:
            rows.nth(i).locator(f"button[data-value='{value}']").click()


def test_labatarde_keeps_the_taps_when_the_tricks_do_not_add_up(live_server, page,
                                                                in_process_tasks):
    _, table = setup_table("labatarde", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=trump] input[value=spades]")
    tap_counts(page, "bids", [1, 1, 1, 0])
    tap_counts(page, "tricks", [2, 2, 1, 1])
    before = refused(page)
    assert len([x for x in before if "@" in x]) == 8
    assert error(page, "tricks") == "Die Stiche müssen zusammen 5 ergeben."
    shot(page, "refused-labatarde")
    settle(page)
    assert not Deal.objects.filter(table=table).exists()


def test_baptistenskat_names_the_missing_trick_count(live_server, page, in_process_tasks):
    _, table = setup_table("baptistenskat", 4)
    who = names(table)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=trump] input[value=red]")
    tap_counts(page, "bids", [1, 1, 1, 0])
    order = [int(s) for s in page.locator("[data-field=tricks] .count-row").evaluate_all(
        "rows => rows.map(r => r.dataset.seat)")]
    tap_counts(page, "tricks", [2, 1, 2, None])
    before = refused(page)
    assert len([x for x in before if "@" in x]) == 7
    missing = order[3]
    assert error(page, f"tricks.{missing - 1}") == f"Stiche von {who[missing]}: Bitte eintragen."
    shot(page, "refused-baptistenskat")
    settle(page)
    assert not Deal.objects.filter(table=table).exists()


def test_skat_keeps_the_game_and_names_the_card_points(live_server, page, in_process_tasks):
    _, table = setup_table("skat", 3)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.click("[data-field=declarer] label[data-seat-option='2']")
    page.check("[data-field=game] input[value=hearts]")
    page.click("[data-field=matadors] button[data-step='1']")
    page.check("[data-field=hand] input")
    page.check("[data-field=won] input[value=true]")
    page.click("details.more summary")
    page.fill("#f-declarer_points", "40")
    refused(page)
    assert error(page, "declarer_points") == (
        "Augen des Alleinspielers: Gewonnen ist ein Spiel erst mit 61 Augen oder mehr.")
    shot(page, "refused-skat")


def test_schafkopf_keeps_the_rufspiel_and_names_the_partner(live_server, page,
                                                                in_process_tasks):
    _, table = setup_table("schafkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=rufspiel]")
    page.click("[data-field=declarer] label[data-seat-option='2']")
    page.click("[data-field=partner] label[data-seat-option='2']")
    page.check("[data-field=called_ace] input[value=acorns]")
    page.fill("#f-declarer_points", "70")
    page.fill("#f-laufende", "3")
    refused(page)
    assert error(page, "partner") == ("Mitspieler (hat die gerufene Sau): Der Mitspieler kann "
                                      "nicht zugleich der Spieler sein.")
    assert page.locator("#f-declarer_points").input_value() == "70"
    shot(page, "refused-schafkopf")


def test_basler_keeps_the_rows_and_names_the_sets(live_server, page, in_process_tasks):
    _, table = setup_table("basler", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.fill("[data-field=tricks] input[data-index='0']", "7")
    page.dispatch_event("[data-field=tricks] input[data-index='0']", "change")
    page.check("[data-field=last_trick] input[value=A]")
    page.fill("[data-field=card_points] input[data-index='0']", "22")
    page.dispatch_event("[data-field=card_points] input[data-index='0']", "change")
    for _ in range(2):  # the same rank twice
        page.click("[data-field=melds] .add-row")
    refused(page)
    assert page.locator("[data-field=melds] [data-row]").count() == 2
    assert error(page, "melds") == ("Weis (drei oder vier Karten gleichen Rangs auf einer Hand): "
                                    "Dieser Rang ist in diesem Spiel schon eingetragen.")
    shot(page, "refused-basler")


def test_doppelkopf_keeps_the_re_party_and_names_it(live_server, page, in_process_tasks):
    _, table = setup_table("doppelkopf", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.check("[data-field=game] input[value=normal]")
    page.check("[data-field=re] input[value='1']")
    page.fill("[data-field=re_points] input", "150")
    page.dispatch_event("[data-field=re_points] input", "change")
    refused(page)
    assert error(page, "re").startswith("Re-Partei")
    shot(page, "refused-doppelkopf")


def test_a_refusal_after_the_outage_keeps_every_tap(live_server, page, in_process_tasks):
    """Offline the deal queues; sent later and refused, it opens in the form as tapped."""
    _, table = setup_table("labatarde", 4)
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.context.set_offline(True)
    page.check("[data-field=trump] input[value=hearts]")
    tap_counts(page, "bids", [2, 1, 1, 0])
    tap_counts(page, "tricks", [3, 1, 1, 1])
    before = page.evaluate(SNAPSHOT)
    page.click("#save-deal")
    page.wait_for_function("() => document.querySelectorAll('#pending li').length == 1")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator("#fix-number").wait_for(state="visible")
    settled(page)
    assert page.evaluate(SNAPSHOT) == before
    shown = page.evaluate("() => Array.from(document.querySelectorAll('[data-error-for]'),"
                          " e => e.dataset.errorFor + '=' + e.textContent)"
                          ".filter(t => !t.endsWith('='))")
    assert error(page, "tricks") == "Die Stiche müssen zusammen 5 ergeben.", shown
    page.reload()  # the refused deal and its taps survive a reload as well
    page.locator("#fix-number").wait_for(state="visible")
    settled(page)
    assert page.evaluate(SNAPSHOT) == before
