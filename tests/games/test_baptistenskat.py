"""Baptistenskat engine: games.md §3 and rules/baptistenskat.txt, table-driven."""

import pytest

from games.engines import DealContext, EngineUserError, get_engine
from games.engines.baptistenskat import MAX_ROUNDS, cards_in_deal, max_deals

ENGINE = get_engine("baptistenskat")


def ctx(number=1, players=4, **rules):
    return DealContext(number=number, players=players, rules=ENGINE.options(rules))


def deal(cards=5, bids=(1, 1, 1, 1), tricks=(2, 1, 1, 1), trump="red", **more):
    return {"cards": cards, "trump": trump, "bids": list(bids), "tricks": list(tricks), **more}


def fields(exc_info):
    return [e.field for e in exc_info.value.errors]


def score(record, **ctx_args):
    c = ctx(**ctx_args)
    return ENGINE.score_deal(ENGINE.validate_deal(record, c), c).scores


# --------------------------------------------------------------------------- scoring


# The seed's examples and the scoring table are conformance data:
# games/conformance/baptistenskat.json (run by tests/games/test_conformance_cases.py).


def test_score_deal_shows_highest_bid():
    c = ctx(number=6)
    scored = ENGINE.score_deal(ENGINE.validate_deal(deal(10, (3, 2, 5, 0), (3, 2, 3, 2)), c), c)
    assert scored.extra == {"highest_bid": 5}


# --------------------------------------------------------------------------- deal checks


# One bad field at a time: games/conformance/baptistenskat.json. Here: every bad field of a
# deal is reported in one pass, in order.
@pytest.mark.parametrize("record, number, players, rules, bad", [
    (deal(cards=5), 2, 4, {}, ["cards", "tricks"]),
    (deal(tricks=(6, 0, 0, -1)), 1, 4, {}, ["tricks.0", "tricks.3"]),
    ({"cards": 9, "trump": "x", "bids": [9, 0, 0, 0], "tricks": [0], "y": 1}, 1, 4, {},
     ["y", "cards", "trump", "bids.0", "tricks"]),
])
def test_bad_deal_names_every_bad_field(record, number, players, rules, bad):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(record, ctx(number, players, **rules))
    assert fields(exc_info) == bad


def test_an_untapped_count_is_missing_not_out_of_range():
    """The tablet sends an entry nobody tapped as null: it says so, not a range."""
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(deal(tricks=(2, 1, 2, None)), ctx())
    [error] = exc_info.value.errors
    assert (error.field, error.message) == ("tricks.3", "Please enter it.")
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(deal(tricks=(2, 1, 1, 9)), ctx())
    assert exc_info.value.errors[0].message == "Must be a whole number from 0 to %(high)s."


def test_bids_adding_up_are_fine_without_the_pro_rule():
    assert score(deal(bids=(2, 1, 1, 1))) == [40, 10, 10, 10]


def test_pro_rule_allows_bids_that_do_not_add_up():
    assert score(deal(bids=(1, 1, 1, 1)), profi_rule=True) == [-10, 20, 20, 20]


def test_bids_may_add_up_to_more_than_the_cards():
    scores = score(deal(bids=(5, 5, 5, 5), tricks=(5, 0, 0, 0)), profi_rule=True)
    assert scores == [100, -50, -50, -50]


def test_validate_returns_a_normalised_copy():
    record = deal()
    normal = ENGINE.validate_deal(record, ctx())
    assert normal == record
    assert normal["bids"] is not record["bids"]


@pytest.mark.parametrize("number, players, rules", [
    (0, 4, {}), (11, 4, {}), (8, 6, {}), (4, 4, {"rounds": 3}), ("1", 4, {}),
])
def test_deal_outside_the_partie_is_refused_on_number(number, players, rules):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(deal(), ctx(number, players, **rules))
    assert fields(exc_info) == ["number"]


@pytest.mark.parametrize("players", [2, 7])
def test_deal_at_a_table_of_the_wrong_size_is_refused(players):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(deal(), DealContext(1, players, ENGINE.options({})))
    assert fields(exc_info) == ["players"]


# ------------------------------------------------------------------------ partie length and options


@pytest.mark.parametrize("players, limit", [(3, 23), (4, 15), (5, 10), (6, 7)])
def test_max_deals_is_the_last_deal_the_deck_allows(players, limit):
    assert max_deals(players) == limit
    last, first_too_many = cards_in_deal(limit, players), cards_in_deal(limit + 1, players)
    assert players * last <= 79 < players * first_too_many


@pytest.mark.parametrize("players, rounds, length", [
    (3, 10, 10), (4, 10, 10), (5, 10, 10), (6, 10, 7),
    (4, 15, 15), (4, 16, 15), (3, 23, 23), (5, 23, 10), (6, 23, 7), (6, 1, 1),
])
def test_sheet_length_is_rounds_capped_by_the_deck(players, rounds, length):
    assert ENGINE.sheet_length(players, ENGINE.options({"rounds": rounds})) == length


def test_default_partie_at_six_players_has_seven_deals_up_to_13_cards():
    rules = ENGINE.options({})
    assert ENGINE.sheet_length(6, rules) == 7
    assert cards_in_deal(7, 6) == 13


def test_default_partie_at_four_players_has_5_to_14_cards():
    assert [cards_in_deal(r, 4) for r in range(1, 11)] == list(range(5, 15))


def test_defaults():
    assert ENGINE.options(None) == {"rounds": 10, "profi_rule": False}
    assert MAX_ROUNDS == 23


@pytest.mark.parametrize("rules, bad", [
    ({"round": 10}, "rules.round"),
    ({"rounds": "10"}, "rules.rounds"),
    ({"rounds": 10.0}, "rules.rounds"),
    ({"rounds": True}, "rules.rounds"),
    ({"rounds": 0}, "rules.rounds"),
    ({"rounds": 24}, "rules.rounds"),
    ({"rounds": 100}, "rules.rounds"),
    ({"profi_rule": 1}, "rules.profi_rule"),
    ({"profi_rule": "yes"}, "rules.profi_rule"),
])
def test_bad_options_are_refused_on_the_option(rules, bad):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.options(rules)
    assert fields(exc_info) == [bad]


def test_rules_must_be_an_object():
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.options([])
    assert fields(exc_info) == ["rules"]


def test_largest_rounds_is_accepted():
    assert ENGINE.options({"rounds": 23, "profi_rule": True}) == {"rounds": 23, "profi_rule": True}


@pytest.mark.parametrize("players", [1, 2, 7, 8])
def test_table_sizes(players):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.check_table(players, ENGINE.options({}))
    assert fields(exc_info) == ["players"]
    for good in (3, 4, 5, 6):
        ENGINE.check_table(good, ENGINE.options({}))


def test_describe():
    described = ENGINE.describe()
    assert described["key"] == "baptistenskat"
    assert described["table_sizes"] == [3, 4, 5, 6]
    assert described["preferred_table_size"] == 4
    assert described["standing_order"] == "desc"
    assert described["options"]["rounds"]["max"] == 23
    assert set(described["options"]) == {"rounds", "profi_rule"}


# --------------------------------------------------------------------------- whole sheets


def full_sheet(players, length):
    """Every seat bids 0 but the first, who bids and takes all the cards."""
    return [deal(players + r, bids=[players + r] + [0] * (players - 1),
                 tricks=[players + r] + [0] * (players - 1)) for r in range(1, length + 1)]


def test_complete_sheet_totals_and_higher_is_better():
    result = ENGINE.score_sheet(full_sheet(6, 7), 6)
    assert result.complete
    # seat 1 scores 20·cards doubled, the others 10·cards, over 7..13 cards
    assert [row["score"] for row in result.totals] == [20 * 70] + [10 * 70] * 5
    assert sorted(result.totals, key=ENGINE.rank_key)[0]["seat"] == 1


def test_too_many_deals_at_six_players():
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.score_sheet(full_sheet(6, 8), 6)
    assert fields(exc_info) == ["deals"]


def test_sheet_errors_name_deal_index_and_number():
    deals = full_sheet(4, 3)
    deals[2]["tricks"] = [0, 0, 0, 0]
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.score_sheet(deals, 4, {"rounds": 3})
    (error,) = exc_info.value.errors
    assert (error.field, error.deal, error.number) == ("tricks", 2, 3)


def test_partial_sheet_is_incomplete():
    result = ENGINE.score_sheet(full_sheet(4, 2), 4)
    assert not result.complete
    assert len(result.deals) == 2
