"""The board of a championship's field on a phone: the standings in pages of at most
``PAGE_ROWS`` rows (``?page=N``), searched by name (``?q=``) or opened at a player's own
row (``?find=<participant>``); the polled part of a 3,000-player board is at most 60 KB.
The print keeps the whole list."""

import pytest
from django.test import Client

from tests.scale import stored_field
from tournaments.pages.board import PAGE_ROWS

pytestmark = pytest.mark.django_db

PLAYERS = 3000


@pytest.fixture
def championship(club):
    return stored_field(club=club, players=PLAYERS)


def get(url: str, **headers):
    resp = Client(HTTP_ACCEPT_LANGUAGE="de").get(url, **headers)
    assert resp.status_code == 200, (url, resp.status_code)
    return resp


def rows(resp) -> int:
    return rows_of(resp.content.decode())


def test_the_polled_part_of_a_3000_player_board_is_at_most_60_kb(championship):
    tournament, field = championship
    part = get(f"/p/{tournament.slug}/standings/")
    assert rows(part) == PAGE_ROWS <= 200
    assert len(part.content) <= 60 * 1024, len(part.content)
    assert "Seite 1 von 30" in part.content.decode()
    last = get(f"/p/{tournament.slug}/standings/?page=30")
    assert rows(last) == PLAYERS - 29 * PAGE_ROWS
    assert row_of(field[-1]) in last.content.decode()
    assert last["ETag"] != part["ETag"]
    assert get(f"/p/{tournament.slug}/standings/?page=999").content == last.content


def test_a_player_finds_their_own_row_and_searches_by_name(championship):
    tournament, field = championship
    own = field[2345]
    found = get(f"/p/{tournament.slug}/?find={own.pk}").content.decode()
    assert row_of(own) in found and rows_of(found) == PAGE_ROWS
    # the page polls its own part
    assert f'hx-get="/p/{tournament.slug}/standings/?page=24"' in found
    searched = get(f"/p/{tournament.slug}/standings/?q=Nummer+2345+").content.decode()
    assert rows_of(searched) == 1 and row_of(own) in searched
    none = get(f"/p/{tournament.slug}/standings/?q=niemand").content.decode()
    assert rows_of(none) == 0 and "Kein Spieler dieses Namens." in none


def rows_of(html: str) -> int:
    """The rows of the standings (each has one score)."""
    return html.count('<td class="num score">')


def row_of(participant) -> str:
    """What a participant's row holds: the link to their page on the board."""
    return f'/player/{participant.pk}/">'


def test_the_print_keeps_the_whole_list(championship):
    tournament, _field = championship
    printed = get(f"/p/{tournament.slug}/print/?round=1")
    assert printed.content.decode().count("Spielerin Nummer") == PLAYERS
