"""A Doppelkopf sheet's counts on the pages (games.md 8.1): an annulled game and the time-up
marker are rows but no games of the round, so the paper list and the console say "24 of
24", never "25 of 24"; the console's paper grid has a usable row for every game still to
come, the dealer named only where it is known ahead."""

import re

import pytest

from tests.pages.test_paper_grid import setup
from tournaments.services import deals_record
from tournaments.services.actors import Actor

pytestmark = pytest.mark.django_db

NORMAL = {"game": "normal", "re": [1, 2], "re_points": 130}
ANNULLED = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}


def solo(seat):
    return {"game": "solo_herz", "re": [seat], "re_points": 130}


def test_an_annulled_game_is_no_game_of_the_round(club, django_assert_max_num_queries):
    client, table = setup(club, "doppelkopf", 4)
    records = [NORMAL] * 5 + [ANNULLED] + [solo(s) for s in (1, 2, 3, 4)] + [NORMAL] * 15
    deals_record(table_id=table.pk, records=records, actor=Actor(by_table=True))
    sheet = client.get(f"/console/table/{table.pk}/sheet/").content.decode()
    assert 'data-count="25"' in sheet  # 25 rows
    assert re.search(r"24 von 24 Spielen", sheet) and "25 von 24" not in sheet
    # each game's value in the value column, as on the DDV list (v from Re's view)
    values = re.findall(r'<td class="value">([^<]*)</td>', sheet)
    # the annulled game has none: its words take the value's cell
    assert len(values) == 24 and values[:5] == ["+1"] * 5
    assert sheet.count('<td class="game-col" colspan="2">') == 1
    with django_assert_max_num_queries(40):
        console = client.get(f"/console/t/{table.round.tournament_id}/").content.decode()
    assert "24 / 24" in console and "25 / 24" not in console


def test_time_up_counts_the_games_played_and_the_pflichtsoli(club):
    client, table = setup(club, "doppelkopf", 4)
    deals_record(table_id=table.pk, records=[NORMAL] * 10 + [solo(2), {"game": "time_up"}],
                 actor=Actor(by_table=True))
    sheet = client.get(f"/console/table/{table.pk}/sheet/").content.decode()
    assert "11 von 14 Spielen" in sheet
    console = client.get(f"/console/t/{table.round.tournament_id}/").content.decode()
    assert "11 / 14" in console


def test_the_paper_grid_has_a_row_for_every_game_to_come(club):
    client, table = setup(club, "doppelkopf", 4)
    deals_record(table_id=table.pk, records=[NORMAL, solo(3)], actor=Actor(by_table=True))
    page = client.get(f"/console/table/{table.pk}/paper/").content.decode()
    numbers = [int(n) for n in re.findall(r'class="grid-row" data-row="\d+" data-number="(\d+)"',
                                           page)]
    # 22 games of the round to come, and a row more per seat for annulled games
    assert numbers == list(range(3, 3 + 22 + 4))
    legends = re.findall(r"<legend>(.*?)</legend>", page, re.S)
    seat2 = table.seats.select_related("participant__player").get(seat=2)
    assert seat2.participant.player.name in legends[0]  # a Pflichtsolo keeps the dealer
    assert all("Geber" not in legend for legend in legends[1:])
    # the rows after the first take the rest of the round: 3 normal games and an
    # annulled one typed in, stored in order
    post = {}
    for index, record in enumerate([NORMAL, ANNULLED, NORMAL, NORMAL]):
        post[f"d{index}-game"] = record["game"]
        if "re" in record:
            post[f"d{index}-re_1"], post[f"d{index}-re_2"] = "1", "2"
            post[f"d{index}-re_points"] = "130"
        else:
            post[f"d{index}-penalties0_seat"] = "2"
            post[f"d{index}-penalties0_kind"] = "serious"
    answer = client.post(f"/console/table/{table.pk}/paper/", post)
    assert answer.status_code == 302
    assert list(table.deals.order_by("number").values_list("record__game", flat=True)) \
        == ["normal", "solo_herz", "normal", "annulled", "normal", "normal"]
