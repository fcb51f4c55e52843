"""The director's console in a real Chromium: a player withdraws mid-round, the table's
sheet is ended early with a reason, the round is closed, reopened, a deal corrected on
the staff sheet, the round closed again and the evening finished — every hard step
confirmed on its own page, without relying on JavaScript (tablet width); the console
pages at 800 and 390 px without sideways scrolling; and the new pages on a phone
(390 px), in German and English."""

import pytest
from django.test import Client

from prizes.services import prizes_set
from tests.browser.conftest import VIEWPORTS, board_row, needs_chromium, settled, shot
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.models import Deal, Round, SheetEvent, Table, Tournament
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import (
    Actor,
    deal_record,
    round_close,
    round_draw,
    sheet_end,
    sheet_submit,
    tournament_create,
)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}


def setup_evening():
    """Six players at two 3-tables with 3-deal series; table 1 has played its sheet."""
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Donnerstag", game="skat", club=club, published=True,
                                   director=director,
                                   rules={"series_deals_3": 3, "series_deals_4": 4})
    for n in range(6):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=4)
    done, short = rnd.tables.order_by("number")
    actor = Actor(user=director)
    deal_record(table_id=done.pk, number=1, record=CLUBS_WON, actor=actor)
    for number in (2, 3):
        deal_record(table_id=done.pk, number=number, record={"passed": True}, actor=actor)
    sheet_submit(table_id=done.pk, actor=actor)
    deal_record(table_id=short.pk, number=1, record={"passed": True}, actor=actor)
    return tournament, director, done, short


def logged_in(browser, live_server, user, viewport, locale="de-DE"):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale=locale)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


WIDER_THAN = """w => [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > w + 1 && !el.querySelector('*'))
    .slice(0, 8).map(el => el.tagName + '.' + el.className + ' ' + el.textContent.slice(0, 30)
                     + ' ' + Math.round(el.getBoundingClientRect().width))"""


def no_sideways_scroll(page):
    width = page.evaluate("() => document.documentElement.scrollWidth")
    limit = page.viewport_size["width"]
    assert width <= limit, (page.url, width, page.evaluate(WIDER_THAN, limit))


def confirm(page, text):
    """The confirmation page of a step that is hard to undo: it says what happens; the
    step is done only by its "Ja, …" button."""
    page.wait_for_selector("#confirm-step")
    assert text in page.locator("main").inner_text()
    with page.expect_navigation():
        page.click("#confirm-step")


@pytest.mark.smoke
def test_withdraw_end_close_reopen_correct_close(live_server, browser, in_process_tasks):
    tournament, director, done, short = setup_evening()
    Tournament.objects.filter(pk=tournament.pk).update(club_evening=True)
    leaver = short.seats.get(seat=1).participant
    context, page, errors = logged_in(browser, live_server, director, "tablet")
    console = f"{live_server.url}/console/t/{tournament.pk}/"
    page.goto(console)
    assert "6 Spieler anwesend" in page.locator("#present-count").inner_text()

    # the player leaves mid-round: the console asks first; "Abbrechen" changes nothing
    row = page.locator(f"#participant-{leaver.pk}")
    with page.expect_navigation():
        row.locator("button.withdraw-toggle").click()
    shot(page, "console-confirm-withdraw")
    with page.expect_navigation():
        page.click("text=Abbrechen")
    leaver.refresh_from_db()
    assert not leaver.withdrawn
    with page.expect_navigation():
        page.locator(f"#participant-{leaver.pk} button.withdraw-toggle").click()
    confirm(page, "zurückziehen?")
    assert "5 Spieler anwesend" in page.locator("#present-count").inner_text()
    row = page.locator(f"#participant-{leaver.pk}")
    assert "zurückgezogen" in row.inner_text() and "anwesend" not in row.inner_text()
    leaver.refresh_from_db()
    assert leaver.withdrawn

    # the close button waits for table 2; end its sheet early with a reason and the yes box
    assert page.locator("#group-now button", has_text="Runde 1 abschließen").is_disabled()
    page.locator(f"#end-sheet-{short.pk} summary").click()
    form = page.locator(f"form[action$='/tables/{short.pk}/end/']")
    form.locator("input[name=reason]").fill("Spieler musste gehen")
    form.locator("input[name=confirm]").check()
    shot(page, "console-end-sheet")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=vorzeitig beendet: Spieler musste gehen")
    short.refresh_from_db()
    assert short.submitted and short.shortened

    # close (asked first), reopen (asked first)
    with page.expect_navigation():
        page.locator("#group-now button", has_text="Runde 1 abschließen").click()
    confirm(page, "Runde 1 abschließen?")
    page.wait_for_selector("text=Runde 1 abgeschlossen.")
    assert Round.objects.get(tournament=tournament).closed
    with page.expect_navigation():
        page.locator("#group-round button", has_text="Runde wieder öffnen").click()
    confirm(page, "Runde 1 wieder öffnen?")
    page.wait_for_selector("text=zur Korrektur wieder geöffnet")
    assert Round.objects.get(tournament=tournament).reopened

    # correct deal 1 of table 1 on the staff sheet: clubs won becomes spades won
    page.goto(f"{live_server.url}/console/table/{done.pk}/")
    page.click("tr.deal-row[data-number='1']")
    page.wait_for_selector("[data-mode-edit]:not([hidden])")
    page.check("[data-field=game] input[value=spades]")
    page.wait_for_function("() => document.querySelector('#preview').textContent.length > 0")
    page.click("#save-deal")
    page.wait_for_function("() => document.querySelector('[data-mode-edit]').hidden")
    page.wait_for_function("() => document.querySelector('#sheet table')"
                           ".dataset.version != '" + str(done.version) + "'")
    deal = Deal.objects.get(table=done, number=1)
    assert deal.record["game"] == "spades" and deal.version == 2
    before = SheetEvent.objects.get(table=done, action="deal_update").before
    assert before["record"]["game"] == "clubs"
    shot(page, "console-corrected")

    # close again; the standings follow the correction
    page.goto(console)
    with page.expect_navigation():
        page.locator("#group-now button", has_text="Runde 1 erneut abschließen").click()
    confirm(page, "Runde 1 abschließen?")
    page.wait_for_selector("text=Runde 1 abgeschlossen.")
    assert Round.objects.get(tournament=tournament).closed

    # finish the evening (asked first); the message names the evening
    with page.expect_navigation():
        page.locator("#finish-form button").click()
    confirm(page, "Den Abend beenden?")
    assert "Der Abend ist beendet." in page.locator(".messages").inner_text()
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    standings_recompute(tournament_id=tournament.pk)
    declarer = done.seats.get(seat=2).participant
    page.goto(f"{live_server.url}/p/{tournament.slug}/")
    score = board_row(page, declarer.pk).locator(".score").inner_text()
    assert int(score) == 22 + 50  # spades with 1 = 22, plus 50 for the won game
    assert "zurückgezogen" in board_row(page, leaver.pk).inner_text()
    shot(page, "board-after-correction")
    context.close()
    assert errors == []


FITS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


@pytest.mark.parametrize("width", [800, 390])
def test_the_console_pages_fit_800_and_390_px(live_server, browser, width):
    """No console page scrolls sideways: the paste boxes (players, club members), the
    groups of steps, the current round, the folded older rounds, a confirmation page and
    the prize page's tie note."""
    tournament, director, done, short = setup_evening()
    actor = Actor(user=director)
    sheet_end(table_id=short.pk, reason="Ein Spieler musste leider früher nach Hause gehen",
              actor=actor)
    round_close(round_id=done.round_id, actor=actor)
    round_draw(tournament_id=tournament.pk, method="random", seed=5)
    # the prize page's category lists: their payouts and their fields in the form
    tournament.categories = ["Damen", "Seniorinnen und Senioren"]
    tournament.save(update_fields=["categories"])
    tournament.participants.filter(start_number__in=[2, 3]).update(categories=["Damen"])
    prizes_set(tournament_id=tournament.pk, data={
        "entry_fee_cents": 500, "places_percent": [60, 40],
        "places_goods": ["Präsentkorb mit Wein und Käse", "Gutschein"],
        "categories": {"Damen": {"places_cents": [1500, 750],
                                 "places_goods": ["Blumenstrauß", ""]}}})
    context, page, errors = logged_in(browser, live_server, director, "tablet")
    page.set_viewport_size({"width": width, "height": 900})
    base = f"{live_server.url}/console/t/{tournament.pk}"
    for path, name in ((f"{base}/", "console"), (f"{live_server.url}/console/", "console-home"),
                       (f"{base}/prizes/", "console-prizes"),
                       (f"{live_server.url}/clubs/{tournament.club.slug}/members/",
                        "club-members")):
        page.goto(path)
        if name == "club-members":  # the member paste box
            page.fill("textarea[name=csv]", "Name;Mitgliedsnummer\n" + "Anna Beispiel;1\n" * 3)
        if name == "console":
            page.fill("textarea[name=names]", "Anna\nBernd")
            page.locator("#older-rounds summary").first.click()
        scroll, inner = page.evaluate(FITS)
        assert scroll <= inner, (name, width, scroll, page.evaluate(WIDER_THAN, inner))
        shot(page, f"{name}-{width}")
    page.goto(f"{base}/")
    with page.expect_navigation():
        page.locator("button.withdraw-toggle").first.click()
    page.wait_for_selector("#confirm-step")
    scroll, inner = page.evaluate(FITS)
    assert scroll <= inner, ("confirm", width, scroll)
    shot(page, f"console-confirm-{width}")
    context.close()
    assert errors == []


@pytest.mark.parametrize("locale,words", [("de-DE", ("Gesamt", "zurückgezogen")),
                                          ("en-GB", ("Overall", "withdrawn"))])
def test_new_pages_fit_a_phone(live_server, browser, locale, words):
    tournament, director, done, short = setup_evening()
    leaver = short.seats.get(seat=1).participant
    leaver.withdrawn = True
    leaver.save()
    sheet_end(table_id=short.pk, reason="Ein Spieler musste leider früher nach Hause gehen",
              actor=Actor(user=director))
    standings_recompute(tournament_id=tournament.pk)
    context, page, errors = logged_in(browser, live_server, director, "phone", locale)
    lang = locale[:2]
    page.goto(f"{live_server.url}/p/{tournament.slug}/print/")
    if lang == "en":  # the language switch of the site, as a person would use it
        with page.expect_navigation():  # the switch submits; wait for its page, not the old one
            page.select_option("#lang-select", "en")
    for path in (f"/p/{tournament.slug}/print/", f"/p/{tournament.slug}/print/?round=1",
                 f"/p/{tournament.slug}/", f"/p/{tournament.slug}/?round=1",
                 f"/console/t/{tournament.pk}/", f"/p/{tournament.slug}/player/{leaver.pk}/"):
        page.goto(f"{live_server.url}{path}")
        no_sideways_scroll(page)
    page.goto(f"{live_server.url}/p/{tournament.slug}/print/")
    text = page.locator("main").inner_text()
    assert all(word in text for word in words), text
    shot(page, f"print-standings-{lang}")
    page.goto(f"{live_server.url}/console/t/{tournament.pk}/")
    shot(page, f"console-shortened-{lang}")
    assert Table.objects.get(pk=short.pk).shortened
    context.close()
    assert errors == []


def test_no_error_while_choosing_only_after_saving(live_server, browser):
    """A half-entered deal is no error: the preview shows nothing red while the director
    is still choosing; saving it shows what is missing, at the field."""
    tournament, director, done, short = setup_evening()
    context, page, errors = logged_in(browser, live_server, director, "tablet")
    page.goto(f"{live_server.url}/console/table/{short.pk}/")
    with page.expect_response(lambda r: r.url.endswith("/preview/")) as answer:
        page.check("[data-field=game] input[value=clubs]")
    assert answer.value.status == 400  # the server knows the deal is unfinished …
    settled(page)
    shown = page.evaluate("() => [...document.querySelectorAll('[data-error-for]')]"
                          ".map(el => el.textContent.trim()).filter(Boolean)")
    assert shown == []  # … but says nothing while the director is still choosing
    page.click("#save-deal")
    page.wait_for_function("() => [...document.querySelectorAll('[data-error-for]')]"
                           ".some(el => el.textContent.trim())")
    shot(page, "staff-sheet-error-after-save")
    context.close()
    assert errors == []
