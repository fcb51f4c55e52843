"""The printed standings (``/p/<slug>/print/``) rendered to an A4 PDF by Chromium: 13
players fit on one page per list, the last rows stay with the rest, and the table spans
the page's width (it used 60 % with the club name wrapped on three lines). Its "Print"
button opens the print dialog once."""

import re
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS, needs_chromium
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, deal_record, round_draw, sheet_submit, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
FIRST = ["Maximiliane", "Ingrid", "Hans-Joachim", "Annegret", "Friedrich", "Gertrud",
         "Wolfgang", "Hildegard", "Karl-Heinz", "Elfriede", "Walburga", "Ottmar", "Rosemarie"]
LAST = ["Oberhuber-Schwarzenbach", "Braun", "Weißenberger", "Müller-Lüdenscheidt",
        "Schneider", "Hinterberger", "Kowalczyk", "Zimmermann", "Großkopf", "Lindemann",
        "Brandstätter", "Eichhorn", "Falkenstein-Reuß"]


def pdf_pages(data: bytes) -> int:
    """The page count of a PDF without poppler: its page objects ("/Type /Page", not
    "/Type /Pages"); Chromium writes them uncompressed."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def thirteen_players():
    club = ClubFactory(name="Skatfreunde Oberhuber-Schwarzenbach 1952 e. V.")
    director = StaffFactory(username="leitung")
    tournament = tournament_create(name="Preisskat im Vereinsheim zum Jahresabschluss",
                                   game="skat", club=club, published=True, director=director,
                                   rules={"series_deals_3": 3, "series_deals_4": 4})
    for n, (first, last) in enumerate(zip(FIRST, LAST, strict=True)):
        ParticipantFactory(tournament=tournament, start_number=n + 1,
                           player=PlayerFactory(club=club, name=f"{first} {last}"))
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=7)
    actor = Actor(user=director)
    for table in rnd.tables.all():
        length = 4 if table.seats.count() == 4 else 3
        for number in range(1, length + 1):
            record = CLUBS_WON if number == 1 else {"passed": True}
            if length == 4 and number == 1:
                record = {**CLUBS_WON, "declarer": 3}  # the dealer sits out
            deal_record(table_id=table.pk, number=number, record=record, actor=actor)
        sheet_submit(table_id=table.pk, actor=actor)
    standings_recompute(tournament_id=tournament.pk)
    return tournament


@pytest.mark.smoke
@pytest.mark.parametrize("query, pages", [("?round=1", 1), ("", 2)])
def test_thirteen_players_print_on_one_a4_page_per_list(live_server, browser, in_process_tasks,
                                                       query, pages):
    tournament = thirteen_players()
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    # the print dialog cannot open headless: count the calls of the "Print" button
    page.add_init_script("window.prints = 0; window.print = () => { window.prints += 1; };")
    page.goto(f"{live_server.url}/p/{tournament.slug}/print/{query}")
    page.locator("[data-print]").click()
    assert page.evaluate("window.prints") == 1
    page.emulate_media(media="print")
    # A4 less 1 cm margins each side: 19 cm ≈ 718 CSS px
    page.set_viewport_size({"width": 718, "height": 1000})
    pdf = page.pdf(format="A4", print_background=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = "print-standings" + (query.replace("?", "-").replace("=", "") or "-all")
    Path(ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    for table in page.locator("table.standings").all():
        box = table.bounding_box()
        assert box["width"] >= 0.95 * 718, box
    # every player of the tournament's club: the club stands once in the head, not in a
    # column that wrapped each row onto three lines
    assert page.locator("table.standings .club-col").count() == 0
    assert tournament.club.name in page.locator(".print-head").inner_text()
    rows = page.locator("table.standings tbody tr").all()
    heights = [row.bounding_box()["height"] for row in rows]
    assert max(heights) < 30, heights  # one line per player
    assert pdf_pages(pdf) == pages
    context.close()
