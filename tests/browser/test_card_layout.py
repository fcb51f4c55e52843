"""What people see on the score cards and the season table (issue 53): at 390 and 800 px
an empty list says so from the left as the other empty states do; in each deal row of the
live score card the deal's score and the running total stand apart, the head row above the
deals; the Seeger-Fabian foot rows show their whole label; the season table's last column
keeps the padding of the others from the card's edge. Screenshots at both widths."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_player_page import first_round
from tests.browser.test_readable_lists import NAMES, players
from tests.browser.test_season_ranked_by import three_evenings
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import Table
from tournaments.services import Actor, deals_record, round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 800)
GRAND_WON = {"declarer": 1, "game": "grand", "matadors": 4, "won": True,
             "schneider": True, "schwarz": True, "hand": True}
GRAND_LOST = {"declarer": 2, "game": "grand", "matadors": -3, "won": False, "hand": True}

# the text box of an element (its words, not its padding)
TEXT_BOX = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const b = r.getBoundingClientRect();
  return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; }"""

# per deal row's score cell: the deal's score and the running total, and the cell
CELLS = """() => [...document.querySelectorAll('.me-card tr.deal-row td.score, '
                                        + 'section tr.deal-row td.score')].map(td => {
  const box = el => { if (!el || !el.offsetParent) return null;
    const r = document.createRange(); r.selectNodeContents(el);
    const b = r.getBoundingClientRect();
    return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };
  const c = td.getBoundingClientRect();
  return {cell: {left: c.left, right: c.right, top: c.top, bottom: c.bottom},
          delta: box(td.querySelector('.delta')), run: box(td.querySelector('.run'))}; })"""


# a table's box and the inside of its card's border
INSIDE_CARD = """t => { const s = t.closest('section'); const c = s.getBoundingClientRect();
  const st = getComputedStyle(s); const b = t.getBoundingClientRect();
  return [{left: b.left, right: b.right},
          {left: c.left + parseFloat(st.borderLeftWidth),
           right: c.right - parseFloat(st.borderRightWidth)}]; }"""


def apart(a, b):
    return (a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
            or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5)


def inside(box, cell):
    return (box["left"] >= cell["left"] - 0.5 and box["right"] <= cell["right"] + 0.5
            and box["top"] >= cell["top"] - 0.5 and box["bottom"] <= cell["bottom"] + 0.5)


def page_at(browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


@pytest.mark.layout
def test_an_empty_score_card_says_so_from_the_left(live_server, browser, in_process_tasks):
    _director, _tournament, table = first_round()
    token = table.seats.get(seat=2).participant.personal_token
    for width in WIDTHS:
        context, page, errors = page_at(browser, width)
        page.goto(f"{live_server.url}/me/{token}/")
        cell = page.locator(".me-card td.no-deals")
        assert cell.inner_text() == "Noch keine Spiele."
        text = cell.evaluate(TEXT_BOX)
        box = cell.bounding_box()
        # from the left like the other empty states, not pushed to the right edge
        assert text["left"] - box["x"] < 16, (width, text, box)
        no_sideways_scroll(page)
        shot(page, "me-no-deals")
        context.close()
        assert errors == []


def check_card(page, width, where):
    cells = page.evaluate(CELLS)
    assert cells, where
    for cell in cells:
        for part in ("delta", "run"):
            if cell[part]:
                assert inside(cell[part], cell["cell"]), (where, width, part, cell)
        if cell["delta"] and cell["run"]:
            assert apart(cell["delta"], cell["run"]), (where, width, cell)
    # the head row above the first deal, also while the page scrolls past the card
    page.locator("table.paper-list tr.deal-row").last.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    head = page.locator("table.paper-list thead tr").first.bounding_box()
    first = page.locator("table.paper-list tr.deal-row").first.bounding_box()
    assert head["y"] + head["height"] <= first["y"] + 0.5, (where, width, head, first)
    # every label of the Seeger-Fabian list whole inside its cell and on the screen
    for th in page.locator("table.seeger-fabian th[scope=row]").all():
        text = th.evaluate(TEXT_BOX)
        box = th.bounding_box()
        assert text["right"] <= box["x"] + box["width"] + 0.5, (where, width, th.inner_text())
        assert text["right"] <= width, (where, width, th.inner_text())
    # every list within its card's border, none reaching over it to the screen's edge
    for table in page.locator("section table.list").all():
        box, card = table.evaluate(INSIDE_CARD)
        assert card["left"] - 0.5 <= box["left"] and box["right"] <= card["right"] + 0.5, (
            where, width, box, card)
    no_sideways_scroll(page)


@pytest.mark.layout
def test_the_live_score_card_has_nothing_overlapping_or_cut(live_server, browser,
                                                            in_process_tasks):
    """A 4-table of Skat with four-figure totals: the Seeger-Fabian list's four columns
    within the card, down to a phone of 360 px."""
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Dienstagsrunde", game="skat", club=club,
                                   published=True, director=director, rules={})
    players(tournament, club, NAMES[:4])
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    # at a 4-table the dealer (seat n in deal n) sits out
    records = [GRAND_LOST, GRAND_WON, GRAND_WON, GRAND_LOST, GRAND_LOST, GRAND_WON, GRAND_WON,
               GRAND_LOST]
    deals_record(table_id=table.pk, records=records, actor=Actor(user=director))
    participant = table.seats.get(seat=2).participant
    for width in (360, *WIDTHS):  # 360: the narrowest phones in use
        context, page, errors = page_at(browser, width)
        page.goto(f"{live_server.url}/me/{participant.personal_token}/")
        assert page.locator(".me-card table.seeger-fabian").count() == 1
        check_card(page, width, "me")
        shot(page, "me-live-card")
        page.goto(f"{live_server.url}/p/{tournament.slug}/player/{participant.pk}/")
        check_card(page, width, "player")
        shot(page, "board-player-card")
        context.close()
        assert errors == []


@pytest.mark.layout
def test_the_season_tables_last_column_keeps_its_padding(live_server, browser, club,
                                                         director):
    season = three_evenings(club, director)
    for width in WIDTHS:
        context, page, errors = page_at(browser, width)
        page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/2026/?game={season.game}")
        section = page.locator("main section").first
        inner = section.evaluate("""s => { const r = s.getBoundingClientRect();
            const st = getComputedStyle(s);
            return r.right - parseFloat(st.paddingRight) - parseFloat(st.borderRightWidth); }""")
        for cell in page.locator("table.data tr > :last-child").all():
            if not cell.is_visible():
                continue
            text = cell.evaluate(TEXT_BOX)
            box = cell.bounding_box()
            # the figure keeps the cell's padding, and the cell stays inside the card's
            assert text["right"] <= box["x"] + box["width"] - 4, (width, cell.inner_text())
            assert box["x"] + box["width"] <= inner + 0.5, (width, cell.inner_text())
        no_sideways_scroll(page)
        shot(page, "season-last-column")
        context.close()
        assert errors == []
