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


@pytest.mark.parametrize("more, penalties, factor", [
    ({}, [1, 0, 1, 2], 1),
    ({"mechoune": None, "choune": False}, [1, 0, 1, 2], 1),
    ({"mechoune": 3}, [2, 0, 2, 4], 2),
    ({"mechoune": 1, "choune": False}, [2, 0, 2, 4], 2),
    ({"mechoune": 3, "choune": True}, [4, 0, 4, 8], 4),
])
def test_seed_example_plain_mechouned_and_chouned(more, penalties, factor):
    result = scored({**SEED, **more})
    assert result.scores == penalties
    assert result.extra == {"multiplier": factor}


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


@pytest.mark.parametrize("record, number, players, bad", [
    ([], 1, 4, ["deal"]),
    (None, 1, 4, ["deal"]),
    (deal(dealer=1), 1, 4, ["dealer"]),
    ({"trump": "none", "bids": [2, 2, 0, 3], "tricks": [1, 2, 1, 1]}, 1, 4, ["cards"]),
    ({"cards": 5, "bids": [2, 2, 0, 3], "tricks": [1, 2, 1, 1]}, 1, 4, ["trump"]),
    ({"cards": 5, "trump": "none", "tricks": [1, 2, 1, 1]}, 1, 4, ["bids"]),
    ({"cards": 5, "trump": "none", "bids": [2, 2, 0, 3]}, 1, 4, ["tricks"]),
    # cards follow the schedule
    (deal(cards=6), 1, 4, ["cards"]),
    (deal(cards=5), 2, 4, ["cards", "tricks"]),
    (deal(cards=True), 1, 4, ["cards"]),
    (deal(cards=[5]), 1, 4, ["cards"]),
    # the six trump options only
    (deal(trump="red"), 1, 4, ["trump"]),
    (deal(trump="Spades"), 1, 4, ["trump"]),
    (deal(trump=None), 1, 4, ["trump"]),
    # one entry per seat, each 0..cards (entries named by 0-based list index)
    (deal(bids=(2, 2, 0)), 1, 4, ["bids"]),
    ({**deal(), "bids": {"1": 2}}, 1, 4, ["bids"]),
    (deal(bids=(2, 6, 0, 3)), 1, 4, ["bids.1"]),
    (deal(bids=(2, 2, -1, 3)), 1, 4, ["bids.2"]),
    (deal(bids=(2, 2, 0, "3")), 1, 4, ["bids.3"]),
    (deal(tricks=(1, 2, 1, 1, 0)), 1, 4, ["tricks"]),
    (deal(tricks=(True, 2, 1, 1)), 1, 4, ["tricks.0"]),
    (deal(tricks=(1, 2, 1, 1.5)), 1, 4, ["tricks.3"]),
    # tricks add up to the cards
    (deal(tricks=(1, 1, 1, 1)), 1, 4, ["tricks"]),
    (deal(tricks=(5, 5, 0, 0)), 1, 4, ["tricks"]),
    # the last bidder (the dealer) may not make the bids add up to the cards
    (deal(bids=(2, 2, 0, 1)), 1, 4, ["bids.0"]),
    (deal(8, bids=(2, 2, 2, 2), tricks=(2, 2, 2, 2)), 4, 4, ["bids.3"]),
    (deal(11, bids=(5, 5, 1), tricks=(5, 5, 1)), 5, 3, ["bids.1"]),
    (deal(10, bids=(1, 1, 1, 1, 1, 1, 4), tricks=(1, 1, 1, 1, 1, 1, 4), preference="simple"),
     6, 7, ["bids.5"]),
    # méchoune: a seat or null; choune: a bool, only after a méchoune
    (deal(mechoune=0), 1, 4, ["mechoune"]),
    (deal(mechoune=5), 1, 4, ["mechoune"]),
    (deal(mechoune=True), 1, 4, ["mechoune"]),
    (deal(mechoune="2"), 1, 4, ["mechoune"]),
    (deal(mechoune=2.0), 1, 4, ["mechoune"]),
    (deal(choune=True), 1, 4, ["choune"]),
    (deal(mechoune=None, choune=True), 1, 4, ["choune"]),
    (deal(mechoune=2, choune=1), 1, 4, ["choune"]),
    (deal(mechoune=2, choune="true"), 1, 4, ["choune"]),
    (deal(mechoune=2, choune=None), 1, 4, ["choune"]),
    # preference: never with one pack, always with two
    (deal(preference="marked"), 1, 4, ["preference"]),
    (deal(7, (2, 2, 2), (3, 2, 2), preference="simple"), 1, 3, ["preference"]),
    ({k: v for k, v in five().items() if k != "preference"}, 1, 5, ["preference"]),
    (five(preference=None), 1, 5, ["preference"]),
    (five(preference="both"), 1, 5, ["preference"]),
    (five(preference=True), 1, 5, ["preference"]),
    # everything wrong at once: every field reported in one pass
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
