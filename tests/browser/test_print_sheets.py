"""The blank paper sheets (console → "Spiellisten drucken") rendered to A4 PDFs by
Chromium: every game at its tables of 3, 4 and 5 (and La Bâtarde's widest, 7), and the
biggest series (Skat's 48 deals at a table of 4): one page per table, every column wide
enough to write in, the rows tall enough, the foot printed once under the last deal.

Widths and heights are measured in the print-emulated page at the A4 content width
(210 mm less the paper sheet's 7 mm margins); 96 CSS px are 25.4 mm."""

import secrets
from pathlib import Path

import pytest
from django.test import Client

from games.engines import get_engine
from games.presentation import presentation_of
from tests.browser.conftest import ARTIFACTS, needs_chromium, shot
from tests.browser.test_director_console import WIDER_THAN
from tests.browser.test_print_standings import FIRST, LAST, pdf_pages
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.models import Round, Seat, Table
from tournaments.pages.paper_sheets import CONTENT_WIDTH_MM
from tournaments.services import round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PX_PER_MM = 96 / 25.4
LEAST_WRITING_MM = 12     # a figure or a word written by hand
LEAST_NAME_MM = 20        # a player's name (the dealer, the declarer)
LEAST_ROW_MM = 4.2
# a name that takes two lines in the head of a sheet
NAME = ("Offene Vereinsmeisterschaft der Skatfreunde Oberhuber-Schwarzenbach im Vereinsheim "
        "zur Linde")


def long_names(count: int) -> list[str]:
    return [f"{FIRST[n % len(FIRST)]} {LAST[(n * 5) % len(LAST)]}" for n in range(count)]


def drawn(game: str, players: int, rules: dict | None = None):
    """A tournament of ``game`` whose first round seats ``players`` (as the draw splits
    them), every player with a long name."""
    club = ClubFactory(name="Kartenfreunde Oberhuber-Schwarzenbach 1952 e. V.")
    director = StaffFactory(username=f"leitung-{game}-{players}")
    tournament = tournament_create(name=NAME,
                                   game=game, club=club, published=True, director=director,
                                   rules=rules or {})
    for n, name in enumerate(long_names(players)):
        ParticipantFactory(tournament=tournament, start_number=n + 1,
                           player=PlayerFactory(club=club, name=name))
    round_draw(tournament_id=tournament.pk, method="random", seed=3)
    return tournament, director


def one_table(game: str, players: int):
    """A tournament of ``game`` with one table of ``players`` (a size the draw would
    split, such as La Bâtarde's 7)."""
    club = ClubFactory()
    director = StaffFactory(username=f"leitung-{game}-{players}")
    tournament = tournament_create(name="Herbstturnier", game=game, club=club,
                                   director=director)
    rnd = Round.objects.create(tournament=tournament, number=1, method="random", seed=1)
    table = Table.objects.create(round=rnd, number=1, entry_token=secrets.token_urlsafe(16))
    for n, name in enumerate(long_names(players)):
        participant = ParticipantFactory(tournament=tournament, start_number=n + 1,
                                         player=PlayerFactory(club=club, name=name))
        Seat.objects.create(table=table, seat=n + 1, participant=participant)
    return tournament, director


# the print dialog cannot open headless: count the calls instead
COUNT_PRINTS = "window.prints = 0; window.print = () => { window.prints += 1; };"


def printed(browser, live_server, director, path: str, name: str,
            width_mm: float = CONTENT_WIDTH_MM, press_print: bool = False):
    """The page at ``path`` emulating print at ``width_mm``, and its A4 PDF; with
    ``press_print``, its "Print" button is pressed first and must open the dialog once."""
    client = Client()
    client.force_login(director)
    context = browser.new_context(locale="de-DE")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.add_init_script(COUNT_PRINTS)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(f"{live_server.url}{path}")
    assert response.status == 200, (path, response.status)
    if press_print:
        page.locator("[data-print]").first.click()
        assert page.evaluate("window.prints") == 1, path
    page.emulate_media(media="print")
    page.set_viewport_size({"width": round(width_mm * PX_PER_MM), "height": 1000})
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    Path(ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    assert errors == []
    return context, page, pdf


def mm(box) -> float:
    return box["width"] / PX_PER_MM


# the lines a cell's text takes: the distinct tops of its text's boxes
LINES = """el => { const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


def check_sheet(section, game: str) -> None:
    """Every column of one printed sheet is wide enough to write in, every row tall
    enough, and the foot is a plain row group (a footer group repeats on every page)."""
    shown = presentation_of(game)
    heads = section.locator("table.paper-grid thead tr:last-child th").all()
    players = section.locator("table.paper-grid thead th.seat-head").count()
    kinds = ["number", "name", *shown.sheet_column_kinds]
    after = len(shown.sheet_columns_after)
    kinds += (["word"] * (len(heads) - players - after - len(kinds)) + ["seat"] * players
              + ["word"] * after)
    widths = [mm(th.bounding_box()) for th in heads]
    for kind, width, th in zip(kinds, widths, heads, strict=True):
        least = {"number": 5, "name": LEAST_NAME_MM}.get(kind, LEAST_WRITING_MM)
        assert width >= least, (game, kind, th.inner_text(), round(width, 1))
    # no head spills over its column, nor breaks inside a word (a line per word at most)
    spilt = section.locator("table.paper-grid thead tr:last-child th").evaluate_all(
        "ths => ths.filter(th => th.scrollWidth > th.clientWidth + 1)"
        ".map(th => th.textContent)")
    assert spilt == [], (game, spilt)
    for th in section.locator("thead th.seat-head").all():
        label = th.inner_text()
        lines = th.evaluate(LINES)
        assert lines <= len(label.split()), (game, label, lines)
    rows = section.locator("table.paper-grid tbody tr, table.paper-grid tfoot tr").all()
    heights = {round(row.bounding_box()["height"] / PX_PER_MM, 1) for row in rows}
    assert min(heights) >= LEAST_ROW_MM - 0.05, (game, heights)
    assert section.locator("table.paper-grid tfoot").evaluate(
        "el => getComputedStyle(el).display") == "table-row-group"
    # the whole table and its page stay inside the content width
    table = section.locator("table.paper-grid").bounding_box()
    assert mm(table) <= CONTENT_WIDTH_MM + 0.5, (game, mm(table))


GAMES = [  # (game, players drawn, the table sizes they make)
    ("skat", 7, [3, 4]),
    ("schafkopf", 9, [4, 5]),
    ("baptistenskat", 7, [3, 4]),
    ("labatarde", 7, [3, 4]),
    ("basler", 8, [4, 4]),
    ("doppelkopf", 9, [4, 5]),
]


@pytest.mark.parametrize("game, players, sizes", GAMES)
def test_every_game_prints_one_a4_page_per_table(live_server, browser, game, players, sizes):
    tournament, director = drawn(game, players)
    context, page, pdf = printed(browser, live_server, director,
                                 f"/console/t/{tournament.pk}/rounds/1/paper/",
                                 f"paper-{game}")
    sections = page.locator("section.paper-sheet").all()
    assert sorted(s.locator("thead th.seat-head").count() for s in sections) == sizes
    engine = get_engine(game)
    for section in sections:
        check_sheet(section, game)
        seats = section.locator("thead th.seat-head").count()
        rules = engine.options(tournament.rules)
        room = engine.sheet_room([], seats, rules)
        # where the engine fixes no number of deals, a row more per seat for the rows that
        # are no game (an annulled game, the time-up line)
        expected = room if room is not None else engine.sheet_length(seats, rules) + seats
        assert section.locator("tbody tr").count() == expected
        # the dealer stands where the engine knows him before anything is played
        # (Doppelkopf: deal 1 only, a Pflichtsolo keeps the dealer)
        dealers = section.locator("tbody tr td:nth-child(2)").all_inner_texts()
        known = len(engine.deal_plan([], seats, rules))
        assert all(dealers[:known]) and not any(dealers[known:]), (game, dealers)
    assert pdf_pages(pdf) == len(sections), (game, pdf_pages(pdf))
    context.close()


@pytest.mark.parametrize("game, players", [("labatarde", 7), ("baptistenskat", 6)])
def test_the_widest_tables_print_on_one_page(live_server, browser, game, players):
    tournament, director = one_table(game, players)
    context, page, pdf = printed(browser, live_server, director,
                                 f"/console/t/{tournament.pk}/rounds/1/paper/",
                                 f"paper-{game}-{players}")
    section = page.locator("section.paper-sheet")
    check_sheet(section, game)
    # seven columns of seats: the heads are the initials, the head of the page spells
    # out the names
    heads = [th.inner_text() for th in section.locator("thead th.seat-head").all()]
    assert all(len(label) <= 3 for label in heads), heads
    assert all(f"({label})" in section.locator(".paper-seats").inner_text()
               for label in heads)
    assert pdf_pages(pdf) == 1
    context.close()


@pytest.mark.parametrize("deals, pages", [(48, 1), (96, 2)])
def test_the_biggest_series_fits_its_page(live_server, browser, deals, pages):
    """Skat's series of 48 deals at a table of 4 with the Seeger-Fabian foot: one page.
    The longest series the rules allow (96) goes on to a second page: the column heads
    again, the foot once, under deal 96."""
    tournament, director = drawn("skat", 8, {"series_deals_4": deals})
    context, page, pdf = printed(browser, live_server, director,
                                 f"/console/t/{tournament.pk}/rounds/1/paper/",
                                 f"paper-skat-series-{deals}")
    sections = page.locator("section.paper-sheet").all()
    assert len(sections) == 2
    for section in sections:
        check_sheet(section, "skat")
        assert section.locator("tbody tr").count() == deals
        assert "Seeger-Fabian" in section.locator("tfoot").inner_text()
        # a sheet going on over a page names its table again on the next one
        assert section.locator("thead tr.paper-repeat").count() == (pages > 1)
    assert pdf_pages(pdf) == 2 * pages
    context.close()


@pytest.mark.parametrize("width", [390, 800])
def test_the_sheets_on_screen_scroll_only_inside_their_table(live_server, browser, width):
    """Before printing the director sees the sheets on a phone or a tablet: the page never
    scrolls sideways (a sheet's grid scrolls in its own box)."""
    tournament, director = drawn("skat", 7)
    client = Client()
    client.force_login(director)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    for path in ("paper", "cards"):
        page.goto(f"{live_server.url}/console/t/{tournament.pk}/rounds/1/{path}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, \
            page.evaluate(WIDER_THAN, width)
        shot(page, f"print-{path}-screen")
    page.goto(f"{live_server.url}/console/t/{tournament.pk}/rounds/1/paper/")
    page.locator("section.paper-sheet").first.screenshot(
        path=str(ARTIFACTS / f"print-paper-sheet-{width}.png"))
    context.close()
