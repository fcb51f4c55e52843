"""La Bâtarde engine: games.md §5 and rules/la-batarde.txt, table-driven."""

import pytest

from games.engines import DealContext, EngineUserError, get_engine
from games.engines.labatarde import SCHEDULES, pack_size

ENGINE = get_engine("labatarde")
SEED = {"cards": 5, "trump": "spades", "bids": [2, 2, 0, 3], "tricks": [1, 2, 1, 1]}


def ctx(number=1, players=4):
    return DealContext(number=number, players=players, rules=ENGINE.options({}))


def deal(cards=5, bids=(2, 2, 0, 3), tricks=(1, 2, 1, 1), trump="spades", **more):
    return {"cards": cards, "trump": trump, "bids": list(bids), "tricks": list(tricks), **more}


def five(**more):
    """A valid first deal at a 5-table (two packs, 9 cards)."""
    return deal(9, (2, 2, 0, 3, 1), (1, 2, 1, 1, 4), **{"preference": "marked", **more})


def fields(exc_info):
    return [e.field for e in exc_info.value.errors]


def scored(record, number=1, players=4):
    c = ctx(number, players)
    return ENGINE.score_deal(ENGINE.validate_deal(record, c), c)


# --------------------------------------------------------------------------- scoring


# The seed's example (plain, méchouned, chouned) is conformance data:
# games/conformance/labatarde.json (run by tests/games/test_conformance_cases.py).


def test_met_bids_cost_nothing_even_chouned():
    assert scored(deal(bids=(1, 1, 1, 1), tricks=(1, 1, 1, 2), mechoune=2, choune=True)).scores \
        == [0, 0, 0, 4]


def test_every_trump_option_is_accepted():
    for trump in ("all", "spades", "hearts", "diamonds", "clubs", "none"):
        assert scored(deal(trump=trump)).record["trump"] == trump


def test_normalised_record_fills_in_defaults_and_drops_an_empty_preference():
    record = scored(deal(preference=None)).record
    assert record == {**SEED, "mechoune": None, "choune": False}
    assert scored(five(), 1, 5).record["preference"] == "marked"


# --------------------------------------------------------------------------- deal checks


# One bad field at a time: games/conformance/labatarde.json. Here: every bad field of a
# deal is reported in one pass, in order.
@pytest.mark.parametrize("record, number, players, bad", [
    (deal(cards=5), 2, 4, ["cards", "tricks"]),
    ({"cards": 6, "trump": "x", "bids": [9, 0, 0, 0], "tricks": [0], "choune": True, "z": 0},
     1, 4, ["z", "cards", "trump", "bids.0", "tricks", "choune"]),
])
def test_bad_deal_names_every_bad_field(record, number, players, bad):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(record, ctx(number, players))
    assert fields(exc_info) == bad


@pytest.mark.parametrize("players", [5, 6, 7])
def test_two_pack_games_take_either_preference(players):
    cards = SCHEDULES[players][0]
    bids = [0] * players
    tricks = [cards] + [0] * (players - 1)
    for preference in ("marked", "simple"):
        record = deal(cards, bids, tricks, trump="none", preference=preference)
        assert scored(record, 1, players).scores == [cards] + [0] * (players - 1)


def test_bids_may_add_up_to_more_or_fewer_than_the_cards():
    assert scored(deal(bids=(0, 0, 0, 0), tricks=(5, 0, 0, 0))).scores == [5, 0, 0, 0]
    assert scored(deal(bids=(5, 5, 5, 5), tricks=(5, 0, 0, 0))).scores == [0, 5, 5, 5]


@pytest.mark.parametrize("number, players", [(0, 4), (11, 4), (13, 3), (13, 7), (-1, 5), (None, 4)])
def test_deal_outside_the_partie_is_refused_on_number(number, players):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.validate_deal(deal(), ctx(number, players))
    assert fields(exc_info) == ["number"]


# ----------------------------------------------------------------------- schedules, tables, options


def test_schedules_are_the_rule_books_table():
    assert SCHEDULES == {
        3: (7, 8, 9, 10, 11, 12, 12, 11, 10, 9, 8, 7),
        4: (5, 6, 7, 8, 9, 9, 8, 7, 6, 5),
        5: (9, 10, 11, 12, 13, 14, 14, 13, 12, 11, 10, 9),
        6: (7, 8, 9, 10, 11, 12, 12, 11, 10, 9, 8, 7),
        7: (5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5),
    }


@pytest.mark.parametrize("players, pack, length", [
    (3, 36, 12), (4, 36, 10), (5, 72, 12), (6, 72, 12), (7, 72, 12),
])
def test_packs_and_sheet_lengths(players, pack, length):
    assert pack_size(players) == pack
    assert ENGINE.sheet_length(players, {}) == length
    assert players * max(SCHEDULES[players]) <= pack


@pytest.mark.parametrize("players", [2, 8, 0])
def test_table_sizes(players):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.check_table(players, {})
    assert fields(exc_info) == ["players"]


@pytest.mark.parametrize("rules, bad", [
    ({"mechoune": False}, ["rules.mechoune"]),
    ({"rounds": 10, "variant": "x"}, ["rules.rounds", "rules.variant"]),
    ("strict", ["rules"]),
])
def test_there_are_no_options(rules, bad):
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.options(rules)
    assert fields(exc_info) == bad
    assert ENGINE.options({}) == {}


def test_describe_lowest_wins():
    described = ENGINE.describe()
    assert (described["key"], described["name"]) == ("labatarde", {"de": "La Bâtarde",
                                                                   "en": "La Bâtarde"})
    assert described["table_sizes"] == [3, 4, 5, 6, 7]
    assert described["preferred_table_size"] == 4
    assert described["standing_order"] == "asc"
    assert described["options"] == {}


# --------------------------------------------------------------------------- whole sheets


def full_sheet(players):
    """Seat 1 bids and takes every trick, seat 2 bids one trick and takes none."""
    rest = [0] * (players - 2)
    more = {"preference": "simple"} if pack_size(players) == 72 else {}
    return [deal(c, [c, 1] + rest, [c, 0] + rest, **more) for c in SCHEDULES[players]]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_complete_sheet_lowest_penalty_ranks_first(players):
    result = ENGINE.score_sheet(full_sheet(players), players)
    assert result.complete
    length = len(SCHEDULES[players])
    assert [row["score"] for row in result.totals] == [0, length] + [0] * (players - 2)
    assert [ENGINE.rank_key(row) for row in result.totals][:2] == [(0,), (length,)]
    assert sorted(result.totals, key=ENGINE.rank_key)[-1]["seat"] == 2


def test_sheet_errors_name_deal_index_and_number():
    deals = full_sheet(4)[:3]
    deals[1]["mechoune"] = 9
    with pytest.raises(EngineUserError) as exc_info:
        ENGINE.score_sheet(deals, 4)
    (error,) = exc_info.value.errors
    assert (error.field, error.deal, error.number) == ("mechoune", 1, 2)
