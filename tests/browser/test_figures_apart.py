"""Figures on a phone (issue 53, item 7): the sheet's numbers stay at least 8 px apart
at every table size (a Skat 3- and 4-table, a Doppelkopf 5-table), and a negative number
carries the minus sign U+2212, never a hyphen that runs two figures together
("32-16"). Screenshots at 390 and 800 px."""

import re

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_tablet_sheet import setup_table
from tournaments.services import deals_record
from tournaments.services.actors import Actor

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

# every figure's text box in each row of the sheet's lists, left to right
GAPS = """() => {
  const gaps = [];
  for (const row of document.querySelectorAll('#sheet table.list tr')) {
    const boxes = [];
    for (const el of row.querySelectorAll('td.value, td.score .run, td.total, td.total-top,'
                                          + ' .seeger-fabian td')) {
      if (!el.offsetParent || !el.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      boxes.push([r.left, r.right, el.textContent.trim()]);
    }
    boxes.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < boxes.length; i++) {
      gaps.push([boxes[i][0] - boxes[i - 1][1], boxes[i - 1][2], boxes[i][2]]);
    }
  }
  return gaps;
}"""

GRAND_WON = {"declarer": 1, "game": "grand", "matadors": 4, "won": True}
GRAND_LOST = {"declarer": 2, "game": "grand", "matadors": -3, "won": False, "hand": True}
# at a 5-table the dealer sits out: deal n is dealt by seat n
DOKO = [{"game": "normal", "re": [2, 3], "re_points": 100},
        {"game": "solo_herz", "re": [3], "re_points": 150},
        {"game": "normal", "re": [1, 4], "re_points": 40},
        {"game": "normal", "re": [2, 5], "re_points": 200},
        {"game": "solo_herz", "re": [1], "re_points": 60}]


@pytest.mark.layout
@pytest.mark.parametrize("game,players,records", [
    ("skat", 3, [GRAND_WON, GRAND_LOST] * 3),
    ("skat", 4, [GRAND_LOST, GRAND_WON, GRAND_LOST]),
    ("doppelkopf", 5, DOKO)])
def test_figures_stay_apart_and_minus_reads_as_minus(live_server, page, game, players,
                                                    records, in_process_tasks):
    _, table = setup_table(game, players)
    deals_record(table_id=table.pk, records=records, actor=Actor(by_table=True))
    for width in (390, 800):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/t/{table.entry_token}/")
        page.wait_for_selector("#sheet table.list")
        no_sideways_scroll(page)
        shot(page, f"figures-{game}-{players}")
        gaps = page.evaluate(GAPS)
        assert gaps, "no figures side by side"
        assert [g for g in gaps if g[0] < 7.9] == []
        text = page.inner_text("#sheet")
        assert "\u2212" in text
        assert not re.search(r"-\d", text)  # no hyphen-minus before a figure
