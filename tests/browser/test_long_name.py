"""The longest name allowed, unbroken (issue 53, item 9): the board never scrolls
sideways (390 and 1920 px) and the printed standings keep every column (Chromium's PDF,
looked at as PNG with pdftoppm)."""

import shutil
import subprocess
from pathlib import Path

import pytest

from clubs.models import Player
from tests.browser.conftest import ARTIFACTS, needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_print_standings import thirteen_players
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

LONGEST = "Maximilianeoberhuberschwarzenbachlüdenscheidt" * 3
LONGEST = LONGEST[:Player._meta.get_field("name").max_length]


def long_named():
    tournament = thirteen_players()
    first = tournament.participants.get(start_number=1)
    Player.objects.filter(pk=first.player_id).update(name=LONGEST)
    standings_recompute(tournament_id=tournament.pk, full=True)
    return tournament


@pytest.mark.parametrize("width", [390, 1920])
def test_the_board_never_scrolls_sideways(live_server, browser, in_process_tasks, width):
    tournament = long_named()
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/p/{tournament.slug}/")
    page.wait_for_selector("table.standings tbody tr")
    assert LONGEST[:20] in page.inner_text("table.standings")
    no_sideways_scroll(page)
    shot(page, "long-name-board")
    # every column of the standings is on the screen
    for cell in page.locator("table.standings thead th").all():
        if cell.is_visible():
            box = cell.bounding_box()
            assert box["x"] + box["width"] <= width + 1, box
    context.close()


def test_the_print_keeps_every_column(live_server, browser, in_process_tasks):
    tournament = long_named()
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(f"{live_server.url}/p/{tournament.slug}/print/?round=1")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1000})
    table = page.locator("table.standings").first
    right = table.bounding_box()["x"] + table.bounding_box()["width"]
    for cell in table.locator("thead th").all():
        box = cell.bounding_box()
        assert box is not None and box["width"] > 10, cell.inner_text()
        assert box["x"] + box["width"] <= 718 + 1, (cell.inner_text(), box)
    assert right <= 718 + 1
    pdf = page.pdf(format="A4", print_background=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = Path(ARTIFACTS / "long-name-print.pdf")
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path),
                        str(ARTIFACTS / "long-name-print")], check=True)
    context.close()
