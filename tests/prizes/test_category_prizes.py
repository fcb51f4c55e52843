"""Prize lists per category (games.md §10.3): a player may win in several categories,
unless ``one_prize_per_player``: then the overall list pays first and a category prize
passes to the next player of that category."""

import pytest

from games.errors import UserError
from prizes.payout import category_payouts, check_prize_config, payouts


def rows(*ids):
    return [{"participant": pid, "rank": n, "start_number": pid, "name": f"P{pid}"}
            for n, pid in enumerate(ids, start=1)]


CONFIG = check_prize_config({
    "entry_fee_cents": 1000, "places_cents": [3000, 2000],
    "categories": {"Damen": {"places_cents": [500]},
                   "Senioren": {"places_cents": [400], "places_goods": ["Schinken"]}}})
OVERALL = payouts(CONFIG, rows(1, 2, 3, 4, 5), fees_cents=10_000)["payouts"]
LISTS = {"Damen": rows(2, 3, 5), "Senioren": rows(3, 4)}


def paid(result):
    return {r["category"]: [(p["participant"], p["amount_cents"], p["goods"])
                            for p in r["payouts"]] for r in result}


def test_a_player_may_win_in_several_categories():
    assert paid(category_payouts(CONFIG, LISTS, overall=OVERALL)) == {
        "Damen": [(2, 500, "")], "Senioren": [(3, 400, "Schinken")]}


def test_one_prize_per_player_passes_it_to_the_next_of_the_category():
    result = category_payouts(CONFIG, LISTS, overall=OVERALL, one_prize_per_player=True)
    # 2 won overall: Damen passes to 3; 3 won Damen: Senioren passes to 4
    assert paid(result) == {"Damen": [(3, 500, "")], "Senioren": [(4, 400, "Schinken")]}


def test_tied_players_of_a_category_share_as_the_overall_list_does():
    tied = [{"participant": 7, "rank": 1, "start_number": 7},
            {"participant": 8, "rank": 1, "start_number": 8}]
    result = category_payouts(CONFIG, {"Damen": tied})
    assert paid(result)["Damen"] == [(7, 250, ""), (8, 250, "")]


def test_the_config_keeps_its_category_lists_and_names_bad_ones():
    assert check_prize_config(CONFIG.as_dict()) == CONFIG
    with pytest.raises(UserError) as caught:
        check_prize_config({"entry_fee_cents": 0,
                            "categories": {"Damen": {"places_cents": [-1], "x": 1}}})
    assert {e.field for e in caught.value.errors} == {"categories.Damen.places_cents.0",
                                                      "categories.Damen.x"}
    with pytest.raises(UserError):
        check_prize_config({"entry_fee_cents": 0, "categories": ["Damen"]})
