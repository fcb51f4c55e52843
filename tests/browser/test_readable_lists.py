"""Lists and tables read well at 390 px (a phone) and 800 px (a small tablet): no table
cell breaks a number ("+3 / 6", "-1 / 70") or a word ("Ingri d Brau n"), nothing scrolls
sideways, and at four or five seats the column heads take short names.

Every page with a list is visited: the tablet sheet of a 3-seat Skat table, a 4-seat
Schafkopf table and a 5-seat La Bâtarde table, the public board, a player's page and the
director's tournament page, with long German names and three- and four-digit numbers."""

import pytest

from tests.browser.conftest import ARTIFACTS, needs_chromium, shot
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, deal_record, round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NAMES = ["Maximiliane Oberhuber-Schwarzenbach", "Ingrid Braun", "Hans-Joachim Weißenberger",
         "Annegret Müller-Lüdenscheidt", "Friedrich Wilhelm Schneider"]
GRAND_WON = {"declarer": 1, "game": "grand", "matadors": 4, "won": True,
             "schneider": True, "schwarz": True, "hand": True}
GRAND_LOST = {"declarer": 2, "game": "grand", "matadors": 2, "won": False}
RUFSPIEL = {"game": "rufspiel", "declarer": 2, "partner": 3, "called_ace": "acorns",
            "declarer_points": 64, "laufende": 3, "doublings": 1}
SOLO_LOST = {"game": "solo", "declarer": 1, "suit": "hearts", "declarer_points": 30,
             "laufende": 4, "doublings": 2}
BATARDE = {"cards": 9, "trump": "spades", "bids": [2, 2, 0, 3, 1], "tricks": [1, 2, 1, 1, 4],
           "preference": "marked"}

# For each text node in a table cell, each whitespace-separated word: a DOM Range over it
# lies on exactly one line (hidden text has no boxes and is skipped).
BROKEN_WORDS = """() => {
  const bad = [];
  for (const cell of document.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('td, th') !== cell) continue;
      if (node.parentElement.closest('.visually-hidden')) continue;
      const words = /\\S+/g;
      for (let m = words.exec(node.data); m; m = words.exec(node.data)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
        if (!rects.length) continue;
        const lines = new Set(rects.map(r => Math.round(r.bottom)));
        if (lines.size !== 1 || rects.length !== 1) bad.push(`${m[0]} (${rects.length} boxes)`);
      }
    }
  }
  return bad.slice(0, 12);
}"""


def no_broken_words(page):
    assert page.evaluate(BROKEN_WORDS) == [], page.url


def players(tournament, club, names):
    for n, name in enumerate(names):
        ParticipantFactory(tournament=tournament, start_number=n + 1,
                           player=PlayerFactory(club=club, name=name))


def setup_tables():
    club = ClubFactory(name="Skatfreunde Oberhuber-Schwarzenbach e. V.")
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    actor = Actor(user=director)
    tables = {}

    games = [("skat", "Preisskat im Vereinsheim", 3, 3, 8,
              lambda n: GRAND_WON if n % 2 else GRAND_LOST),
             ("schafkopf", "Schafkopfrunde", 4, 2, 6, lambda n: RUFSPIEL if n % 3 else SOLO_LOST),
             ("labatarde", "La Bâtarde am Donnerstag", 5, 2, 1, lambda n: BATARDE)]
    for game, title, seats, seed, deals, record in games:
        tournament = tournament_create(name=title, game=game, club=club, published=True,
                                       director=director)
        players(tournament, club, NAMES[:seats])
        table = Table.objects.get(round=round_draw(tournament_id=tournament.pk,
                                                   method="random", seed=seed))
        for number in range(1, deals + 1):
            deal_record(table_id=table.pk, number=number, record=record(number), actor=actor)
        tables[game] = (tournament, table)
    for tournament, _ in tables.values():
        standings_recompute(tournament_id=tournament.pk)
    return director, tables


@pytest.mark.parametrize("width, language", [(390, "de"), (800, "de"), (390, "en")])
def test_lists_break_no_number_and_no_word(live_server, browser, in_process_tasks, width,
                                           language):
    director, tables = setup_tables()
    context, page, errors = logged_in(browser, live_server, director, "phone")
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    page.set_viewport_size({"width": width, "height": 900})
    paths = {}
    for game, (tournament, table) in tables.items():
        participant = table.seats.get(seat=1).participant
        paths.update({
            f"{game}-sheet": f"/t/{table.entry_token}/",
            f"{game}-board": f"/p/{tournament.slug}/",
            f"{game}-player": f"/p/{tournament.slug}/player/{participant.pk}/",
            f"{game}-console": f"/console/t/{tournament.pk}/",
            f"{game}-staff-sheet": f"/console/table/{table.pk}/",
        })
    for name, path in paths.items():
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (path, response.status)
        shot(page, f"readable-{language}-{name}")
        no_sideways_scroll(page)
        no_broken_words(page)
        if name.endswith("-board"):  # every column keeps a visible head
            assert all(page.locator("table.standings thead th").all_inner_texts()), name
    # a phone shows initials with a legend at a 4-seat table, a small tablet short names
    page.goto(f"{live_server.url}{paths['schafkopf-sheet']}")
    page.wait_for_load_state("networkidle")  # the sheet re-reads (and redraws) its list once
    heads = page.locator("#sheet thead th.seat-head").all_inner_texts()
    if width == 390:
        assert "MO" in heads and "IB" in heads, heads
        assert "Maximiliane Oberhuber-Schwarzenbach" in page.locator(".name-legend").inner_text()
    else:
        assert "Maximiliane O." in heads and "Ingrid B." in heads, heads
    # the totals stay in view (under the names, at the top of the screen) while the deals
    # scroll past
    page.goto(f"{live_server.url}{paths['skat-sheet']}")
    page.set_viewport_size({"width": width, "height": 500})
    page.wait_for_load_state("networkidle")  # the sheet re-reads its list once on load
    page.locator("#sheet tbody tr").nth(6).evaluate("el => el.scrollIntoView({block: 'end'})")
    page.wait_for_function("""() => {
        const box = document.querySelector('#sheet tr.totals-top td.total-top')
            .getBoundingClientRect();
        return window.scrollY > 0 && box.top >= 0 && box.bottom <= window.innerHeight; }""")
    assert page.locator("#sheet thead tr.totals-top td.total-top").first.inner_text() == \
        page.locator("#sheet tfoot td.total").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"readable-{language}-skat-sheet-scrolled-{width}.png"))
    # scrolled back to the top, the head sits above the first deal, where it belongs
    page.evaluate("() => window.scrollTo(0, 0)")
    order = page.evaluate("""() => [
        document.querySelector('#sheet thead').getBoundingClientRect().bottom,
        document.querySelector('#sheet tbody tr').getBoundingClientRect().top]""")
    assert order[0] <= order[1] + 1, order
    page.goto("about:blank")
    context.close()
    assert errors == []
