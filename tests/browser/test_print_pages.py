"""Every other printout rendered to an A4 PDF by Chromium: the table cards (one page per
table), the payout list and the two cash reports (one page each for a club evening of 13
players); their lists span the page, every column is wide enough to read, a row is one
line and no number breaks. The standings print has its own test
(test_print_standings.py). The "Print" button opens the print dialog once.

The pages are measured in the print-emulated page at the A4 content width (210 mm less
the 1 cm margins of ``@page``); 96 CSS px are 25.4 mm."""

import datetime

import pytest

from prizes.services import prizes_set
from tests.browser.conftest import needs_chromium
from tests.browser.test_print_sheets import printed as printed_at
from tests.browser.test_print_standings import pdf_pages, thirteen_players
from tournaments.models import Table

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PX_PER_MM = 96 / 25.4
CONTENT_WIDTH_MM = 190
# a column of figures (a place, a start number) and a column of words (a name, a date)
LEAST_FIGURES_MM = 7
LEAST_WORDS_MM = 15

@pytest.fixture
def evening(in_process_tasks):
    tournament = thirteen_players()
    director = tournament.directors.get()
    tournament.club.admins.add(director)
    prizes_set(tournament_id=tournament.pk, data={
        "entry_fee_cents": 1250, "places_percent": [50, 30, 20],
        "places_goods": ["", "Präsentkorb mit regionalen Spezialitäten", ""]})
    return tournament, director


def printed(browser, live_server, director, path: str, name: str):
    """The page printed at this file's content width, its "Print" button pressed once."""
    return printed_at(browser, live_server, director, path, name,
                      width_mm=CONTENT_WIDTH_MM, press_print=True)


def check_list(page, selector: str) -> None:
    """The list spans the page, each column is readable and each row is one line."""
    table = page.locator(selector)
    assert table.bounding_box()["width"] >= 0.95 * CONTENT_WIDTH_MM * PX_PER_MM
    for th in table.locator("thead th").all():
        width = th.bounding_box()["width"] / PX_PER_MM
        least = LEAST_FIGURES_MM if "num" in (th.get_attribute("class") or "") \
            else LEAST_WORDS_MM
        assert width >= least, (selector, th.inner_text(), round(width, 1))
    # a row is one line: every cell's text stands on one line, but a column of free text
    # (a goods prize's description) may wrap between words
    spans = table.locator("tbody td:not(.free-text)").evaluate_all(
        "tds => tds.map(td => { const r = document.createRange(); r.selectNodeContents(td);"
        " const rects = [...r.getClientRects()].filter(b => b.height > 0);"
        " return rects.length ? Math.max(...rects.map(b => b.bottom))"
        " - Math.min(...rects.map(b => b.top)) : 0; })")
    assert spans and max(spans) < 24, (selector, spans)
    wrapped = table.locator("td.num").evaluate_all(
        "tds => tds.filter(td => td.getClientRects().length && "
        "td.scrollWidth > td.clientWidth + 1).map(td => td.textContent)")
    assert wrapped == [], (selector, wrapped)


def test_table_cards_print_one_page_per_table(live_server, browser, evening):
    tournament, director = evening
    tables = Table.objects.filter(round__tournament=tournament).count()
    context, page, pdf = printed(browser, live_server, director,
                                 f"/console/t/{tournament.pk}/rounds/1/cards/", "print-cards")
    cards = page.locator("section.table-card").all()
    assert len(cards) == tables
    for card in cards:
        qr = card.locator(".qr svg").bounding_box()
        assert qr["width"] >= 30 * PX_PER_MM and abs(qr["width"] - qr["height"]) < 1
    assert pdf_pages(pdf) == tables
    context.close()


@pytest.mark.parametrize("name, path, selector", [
    ("print-prizes", "/console/t/{pk}/prizes/print/", "table.payouts"),
    ("print-cash", "/clubs/tournaments/{pk}/cash/", "table.cash"),
    ("print-season-cash", "/clubs/{slug}/seasons/{year}/cash/", "table.cash"),
])
def test_lists_print_on_one_a4_page(live_server, browser, evening, name, path, selector):
    tournament, director = evening
    path = path.format(pk=tournament.pk, slug=tournament.club.slug,
                       year=(tournament.date or datetime.date.today()).year)
    context, page, pdf = printed(browser, live_server, director, path, name)
    check_list(page, selector)
    assert pdf_pages(pdf) == 1
    context.close()


def test_player_cards_print_eight_whole_cards_to_a_page(live_server, browser, evening,
                                                         settings):
    """13 players: two A4 pages (8 + 5 cards); each card is 95 x 68 mm with all it says
    inside it, its QR code at least 30 mm square and its link written out in full."""
    tournament, director = evening
    settings.SITE_URL = "http://192.168.178.120:8000"  # a venue address, as long as they get
    context, page, pdf = printed(browser, live_server, director,
                                 f"/console/t/{tournament.pk}/player-cards/", "print-player-cards")
    sheets = page.locator(".card-sheet").all()
    assert [s.locator(".player-card").count() for s in sheets] == [8, 5]
    assert pdf_pages(pdf) == 2  # no sheet of cards spills onto a third page
    for sheet in sheets:
        assert sheet.bounding_box()["height"] <= 277 * PX_PER_MM  # A4 less the margins
    tokens = dict(tournament.participants.values_list("pk", "personal_token"))
    for card in page.locator(".player-card").all():
        box = card.bounding_box()
        assert abs(box["width"] - 95 * PX_PER_MM) < 2 and abs(box["height"] - 68 * PX_PER_MM) < 2
        qr = card.locator(".qr svg").bounding_box()
        assert qr["width"] >= 30 * PX_PER_MM and abs(qr["width"] - qr["height"]) < 1
        for part in (".card-name", ".card-scan", ".card-url", ".card-secret", ".qr svg"):
            inner = card.locator(part).bounding_box()
            assert inner["y"] >= box["y"] and inner["y"] + inner["height"] <= box["y"] + box[
                "height"], part
            assert inner["x"] + inner["width"] <= box["x"] + box["width"], part
        # the name is shown whole (not cut off), and breaks between words only
        name = card.locator(".card-name")
        assert name.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        pk = int(card.get_attribute("id").removeprefix("card-"))
        assert card.locator(".card-url").inner_text().replace("\n", "") == (
            f"http://192.168.178.120:8000/me/{tokens[pk]}/")
    context.close()
