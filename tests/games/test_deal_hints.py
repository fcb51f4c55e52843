"""What the entry form learns about the next deal from each engine."""

from games.engines import DealContext, get_engine


def hints(game, number, players, rules=None):
    engine = get_engine(game)
    return engine.deal_hints(DealContext(number, players, engine.options(rules or {})))


def test_skat_four_table_leaves_the_dealer_out():
    h = hints("skat", 2, 4)
    assert h["dealer"] == 2 and h["active_seats"] == [1, 3, 4]


def test_baptistenskat_cards_and_bidding_order():
    h = hints("baptistenskat", 3, 4)
    assert h["cards"] == 7
    assert h["bidding_order"] == [4, 1, 2, 3]  # left of dealer 3 first, the dealer last
    assert h["forbidden_total"] is None
    assert hints("baptistenskat", 1, 4, {"profi_rule": True})["forbidden_total"] == 5


def test_labatarde_last_bidder_may_not_make_the_bids_add_up():
    h = hints("labatarde", 1, 5)
    assert h["cards"] == 9 and h["forbidden_total"] == 9 and h["two_packs"] is True
    assert h["bidding_order"][-1] == h["dealer"] == 1
