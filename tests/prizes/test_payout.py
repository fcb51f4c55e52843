"""Prize lists and payouts without a database (games.md §6 "Entry fees and prizes")."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import EngineUserError
from prizes.payout import (
    PrizeConfig,
    check_lot,
    check_prize_config,
    payouts,
    place_amounts,
    pot_cents,
    prize_ties,
)


def field(*ranks):
    """Standings rows: participant p + 1 has start number p + 1 and the given rank."""
    return [{"participant": i + 1, "start_number": i + 1, "rank": r, "name": f"P{i + 1}"}
            for i, r in enumerate(ranks)]


def percent(*places, payout=100, goods=()):
    return check_prize_config({"entry_fee_cents": 1000, "payout_percent": payout,
                               "places_percent": list(places), "places_goods": list(goods)})


def paid(result):
    return [(p["participant"], p["place"], p["amount_cents"]) for p in result["payouts"]]


# --------------------------------------------------------------------------- the pot


@pytest.mark.parametrize(("fees", "share", "pot"), [
    (40 * 1000, 100, 40_000),          # 40 players, 10 € each, all paid out
    (40 * 1000, 90, 36_000),
    (1001, Fraction(3333, 100), 333),  # 333.6333 cents: rounded down, never more than came in
    (999, Fraction(1, 100), 0),
    (0, 100, 0),
    (37 * 1250, Fraction(875, 10), 40_468),  # 40,468.75 → 40,468
])
def test_pot_is_the_share_of_the_fees_rounded_down(fees, share, pot):
    assert pot_cents(fees, share) == pot


@pytest.mark.parametrize(("places", "pot", "amounts"), [
    ([50, 30, 20], 40_000, [20_000, 12_000, 8_000]),
    ([33.34, 33.33, 33.33], 1000, [334, 333, 333]),   # 333.4 + 333.3 + 333.3: the cent to 1st
    ([33.33, 33.33, 33.34], 100, [34, 33, 33]),       # leftover cents go to the best places
    ([25, 25, 25, 25], 1003, [251, 251, 251, 250]),   # 100 % that does not divide into cents
    ([0, 60, 40], 101, [0, 61, 40]),                  # a place without a share gets no cent
    ([100], 7, [7]),
])
def test_percent_places_add_up_to_the_pot_exactly(places, pot, amounts):
    assert place_amounts(percent(*places), pot) == amounts
    assert sum(amounts) == pot


def test_fixed_amounts_and_goods_only_places():
    config = check_prize_config({"entry_fee_cents": 500, "places_cents": [5000, 2500],
                                 "places_goods": ["", "", "Gans", "Wein"]})
    assert config.places == 4
    assert place_amounts(config, 123) == [5000, 2500, 0, 0]


# --------------------------------------------------------------------------- who gets what


def test_payout_follows_the_standings():
    result = payouts(percent(50, 30, 20), field(1, 2, 3, 4, 5), fees_cents=2000)
    assert result["pot_cents"] == 2000
    assert paid(result) == [(1, 1, 1000), (2, 2, 600), (3, 3, 400)]
    assert result["paid_cents"] == 2000 and result["undistributed_cents"] == 0
    assert result["ties"] == [] and result["lot"] is None
    assert result["payouts"][0] == {"place": 1, "participant": 1, "name": "P1",
                                    "start_number": 1, "amount_cents": 1000, "goods": "",
                                    "tied": False}


def test_tied_players_share_the_places_they_occupy():
    # players 2 and 3 tie for 2nd: they share places 2 and 3 (600 + 400) in equal parts
    result = payouts(percent(50, 30, 20), field(1, 2, 2, 4), fees_cents=2000)
    assert paid(result) == [(1, 1, 1000), (2, 2, 500), (3, 2, 500)]
    assert result["ties"] == [[2, 3]]


def test_tie_at_the_last_prize_place_shares_only_the_prize_places_it_covers():
    # three players tie for 3rd with three prize places: they share place 3 alone
    result = payouts(percent(50, 30, 20), field(1, 2, 3, 3, 3, 6), fees_cents=1000)
    assert paid(result) == [(1, 1, 500), (2, 2, 300), (3, 3, 67), (4, 3, 67), (5, 3, 66)]
    assert result["paid_cents"] == 1000 and result["ties"] == [[3, 4, 5]]


def test_remainder_cents_go_to_the_tied_players_with_the_lowest_start_numbers():
    rows = field(1, 2, 2, 2)
    rows[1]["start_number"], rows[3]["start_number"] = 9, 2  # participant 4 starts before 2
    result = payouts(percent(40, 35, 25), rows, fees_cents=1001)
    # places 2 + 3 + 4 beyond the list: 350 + 250 = 600 → 200 each; place 1: 400 + 1 cent
    assert paid(result) == [(1, 1, 401), (4, 2, 200), (3, 2, 200), (2, 2, 200)]
    result = payouts(percent(40, 35, 25), rows, fees_cents=1000 + 2 * 1)
    amounts = {p["participant"]: p["amount_cents"] for p in result["payouts"]}
    assert (amounts[4], amounts[3], amounts[2]) == (201, 200, 200)


def test_a_hundred_percent_that_does_not_divide_into_cents():
    result = payouts(percent(33.34, 33.33, 33.33), field(1, 2, 3), fees_cents=1000)
    assert paid(result) == [(1, 1, 334), (2, 2, 333), (3, 3, 333)]
    assert result["paid_cents"] == result["pot_cents"] == 1000


def test_fewer_players_than_prize_places_leaves_money_in_the_pot():
    result = payouts(percent(50, 30, 20), field(1, 2), fees_cents=2000)
    assert paid(result) == [(1, 1, 1000), (2, 2, 600)]
    assert result["undistributed_cents"] == 400 and result["paid_cents"] == 1600
    assert [p["place"] for p in result["places"]] == [1, 2, 3]


def test_no_players_and_no_prize_list():
    assert payouts(percent(100), [], fees_cents=0)["payouts"] == []
    result = payouts(check_prize_config({"entry_fee_cents": 1000}), field(1, 2),
                     fees_cents=2000)
    assert result["payouts"] == [] and result["undistributed_cents"] == 2000


def test_payout_percent_keeps_the_rest_for_the_club():
    result = payouts(percent(60, 40, payout=80), field(1, 2, 3), fees_cents=3000)
    assert result["pot_cents"] == 2400 and paid(result) == [(1, 1, 1440), (2, 2, 960)]


def test_fixed_amounts_above_the_pot_are_paid_and_the_shortfall_shown():
    config = check_prize_config({"entry_fee_cents": 1000, "places_cents": [5000, 3000]})
    result = payouts(config, field(1, 2, 3), fees_cents=3000)
    assert paid(result) == [(1, 1, 5000), (2, 2, 3000)]
    assert result["shortfall_cents"] == 5000 and result["undistributed_cents"] == 0


def test_goods_at_tied_places_go_in_start_number_order():
    config = percent(100, goods=["", "Gans", "Wein"])
    result = payouts(config, field(1, 2, 2, 4), fees_cents=1000)
    assert [(p["participant"], p["goods"]) for p in result["payouts"]] == [
        (1, ""), (2, "Gans"), (3, "Wein")]


# --------------------------------------------------------------------------- lots


def test_a_recorded_lot_overrides_the_sharing():
    config = percent(50, 30, 20)
    rows = field(1, 2, 2, 2)
    order = check_lot([4, 2, 3], rows, config)
    result = payouts(config, rows, fees_cents=2000, lot=order)
    assert result["lot"] == "applied"
    assert paid(result) == [(1, 1, 1000), (4, 2, 600), (2, 3, 400), (3, 4, 0)]


def test_a_lot_over_two_ties_orders_each_tie():
    config = percent(40, 30, 20, 10)
    rows = field(1, 1, 3, 3)
    result = payouts(config, rows, fees_cents=1000, lot=check_lot([2, 4, 1, 3], rows, config))
    assert paid(result) == [(2, 1, 400), (1, 2, 300), (4, 3, 200), (3, 4, 100)]


def test_a_lot_that_no_longer_matches_the_ties_is_stale_and_ignored():
    config = percent(50, 30, 20)
    result = payouts(config, field(1, 2, 2, 4), fees_cents=2000, lot=[3, 2, 4])
    assert result["lot"] == "stale"
    assert paid(result) == [(1, 1, 1000), (2, 2, 500), (3, 2, 500)]


@pytest.mark.parametrize(("order", "ranks", "fields"), [
    ("3,2", (1, 2, 2), ["order"]),                 # not a list
    ([2, 3], (1, 2, 3), ["order"]),                # nobody tied at a prize place
    ([4, 5], (1, 2, 3, 4, 4), ["order"]),          # the only tie is beyond the places
    ([2, 3, 9], (1, 2, 2), ["order.2"]),           # someone not tied
    ([2, 2, 3], (1, 2, 2), ["order.1"]),           # named twice
    ([3], (1, 2, 2), ["order"]),                   # one missing
    ([True, 3], (1, 2, 2), ["order.0", "order"]),  # a bool is not an id
])
def test_a_lot_must_name_exactly_the_tied_players(order, ranks, fields):
    with pytest.raises(EngineUserError) as caught:
        check_lot(order, field(*ranks), percent(50, 30, 20))
    assert [e.field for e in caught.value.errors] == fields


def test_prize_ties_lists_only_ties_reaching_a_prize_place():
    assert prize_ties(field(1, 2, 2, 4, 4), 3) == [[2, 3]]
    assert prize_ties(field(1, 2, 2, 2, 5, 5), 5) == [[2, 3, 4], [5, 6]]
    assert prize_ties(field(1, 2, 2, 2, 5, 5), 4) == [[2, 3, 4]]


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(("body", "fields"), [
    ([], [""]),
    ({}, ["entry_fee_cents"]),
    ({"entry_fee_cents": -1}, ["entry_fee_cents"]),
    ({"entry_fee_cents": 100_001}, ["entry_fee_cents"]),
    ({"entry_fee_cents": 10.0}, ["entry_fee_cents"]),
    ({"entry_fee_cents": True}, ["entry_fee_cents"]),
    ({"entry_fee_cents": 1000, "payout_percent": 100.5}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "payout_percent": -1}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "payout_percent": 12.345}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "payout_percent": "90"}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "payout_percent": float("nan")}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "payout_percent": float("inf")}, ["payout_percent"]),
    ({"entry_fee_cents": 1000, "places_percent": [50, 30]}, ["places_percent"]),
    ({"entry_fee_cents": 1000, "places_percent": [50, 30, "20"]}, ["places_percent.2"]),
    ({"entry_fee_cents": 1000, "places_percent": [50, 60, -10]}, ["places_percent.2"]),
    ({"entry_fee_cents": 1000, "places_percent": []}, ["places_percent"]),
    ({"entry_fee_cents": 1000, "places_percent": 100}, ["places_percent"]),
    ({"entry_fee_cents": 1000, "places_percent": [1] * 501}, ["places_percent"]),
    ({"entry_fee_cents": 1000, "places_percent": [100], "places_cents": [5]},
     ["places_percent", "places_cents"]),
    ({"entry_fee_cents": 1000, "places_cents": [5000, -1, 10_000_001]},
     ["places_cents.1", "places_cents.2"]),
    ({"entry_fee_cents": 1000, "places_cents": []}, ["places_cents"]),
    ({"entry_fee_cents": 1000, "places_goods": ["Gans", 5, "x" * 201, "a\x00b", "\ud800"]},
     ["places_goods.1", "places_goods.2", "places_goods.3", "places_goods.4"]),
    ({"entry_fee_cents": 1000, "prizes": []}, ["prizes"]),
    ({"entry_fee_cents": -5, "payout_percent": 200, "places_percent": [99]},
     ["entry_fee_cents", "payout_percent", "places_percent"]),
])
def test_bad_prize_lists_name_every_offending_field(body, fields):
    with pytest.raises(EngineUserError) as caught:
        check_prize_config(body)
    assert [e.field for e in caught.value.errors] == fields
    assert all(e.render() for e in caught.value.errors)


def test_a_valid_prize_list_round_trips():
    body = {"entry_fee_cents": 1250, "payout_percent": 87.5,
            "places_percent": [33.34, 33.33, 33.33], "places_goods": ["Gans", " Wein "]}
    config = check_prize_config(body)
    assert config.places_percent == (Fraction(3334, 100), Fraction(3333, 100),
                                     Fraction(3333, 100))
    assert config.payout_percent == Fraction(175, 2)
    again = config.as_dict()
    assert again == {**body, "places_goods": ["Gans", "Wein"]}
    assert check_prize_config(again) == config
    assert check_prize_config({"entry_fee_cents": 0}) == PrizeConfig()
    assert check_prize_config({"entry_fee_cents": 0, "places_cents": [500],
                               "places_goods": ["", " ", ""]}).places == 1


# --------------------------------------------------------------------------- properties


@st.composite
def prize_fields(draw):
    players = draw(st.integers(0, 30))
    ranks, position = [], 1
    while len(ranks) < players:
        size = draw(st.integers(1, min(4, players - len(ranks))))
        ranks += [position] * size
        position += size
    starts = draw(st.permutations(list(range(1, players + 1))))
    rows = [{"participant": 100 + i, "start_number": starts[i], "rank": ranks[i]}
            for i in range(players)]
    places = draw(st.integers(1, 12))
    cuts = sorted(draw(st.lists(st.integers(0, 10_000), min_size=places - 1,
                                max_size=places - 1)))
    basis = [b - a for a, b in zip([0, *cuts], [*cuts, 10_000], strict=True)]
    config = check_prize_config({"entry_fee_cents": 1000,
                                 "payout_percent": draw(st.integers(0, 100)),
                                 "places_percent": [b / 100 if b % 100 else b // 100
                                                    for b in basis]})
    return rows, config, draw(st.integers(0, 10_000_000))


@settings(max_examples=300, deadline=None)
@given(prize_fields())
def test_payouts_never_exceed_the_pot_and_use_it_all_when_every_place_is_taken(case):
    rows, config, fees = case
    result = payouts(config, rows, fees_cents=fees)
    assert result["paid_cents"] <= result["pot_cents"] <= fees
    assert result["paid_cents"] + result["undistributed_cents"] == result["pot_cents"]
    if len(rows) >= config.places:
        assert result["paid_cents"] == result["pot_cents"]
    by_rank: dict[int, list[int]] = {}
    for payout in result["payouts"]:
        by_rank.setdefault(payout["place"], []).append(payout["amount_cents"])
    for amounts in by_rank.values():
        assert max(amounts) - min(amounts) <= 1


@settings(max_examples=150, deadline=None)
@given(prize_fields(), st.randoms(use_true_random=False))
def test_payouts_ignore_the_order_of_the_standings_rows(case, rnd: random.Random):
    rows, config, fees = case
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    assert payouts(config, shuffled, fees_cents=fees) == payouts(config, rows, fees_cents=fees)


@settings(max_examples=150, deadline=None)
@given(prize_fields(), st.randoms(use_true_random=False))
def test_a_lot_pays_each_position_whole_and_the_same_total(case, rnd: random.Random):
    rows, config, fees = case
    ties = prize_ties(rows, config.places)
    if not ties:
        return
    order = [pid for group in ties for pid in group]
    rnd.shuffle(order)
    shared = payouts(config, rows, fees_cents=fees)
    drawn = payouts(config, rows, fees_cents=fees, lot=check_lot(order, rows, config))
    assert drawn["lot"] == "applied" and drawn["paid_cents"] == shared["paid_cents"]
    amounts = place_amounts(config, drawn["pot_cents"])
    for payout in drawn["payouts"]:
        place = payout["place"]
        assert payout["amount_cents"] == (amounts[place - 1] if place <= config.places else 0)


def test_prize_list_errors_speak_german():
    from django.utils import translation

    from games.messages import render

    with pytest.raises(EngineUserError) as caught:
        check_prize_config({"entry_fee_cents": 1000, "places_percent": [50, 30.5],
                            "places_goods": ["\ud800"]})
    with translation.override("de"):
        assert [render(e) for e in caught.value.errors] == [
            "Die Prozente müssen zusammen genau 100 ergeben.",
            "Enthält Zeichen, die nicht gespeichert werden können."]
