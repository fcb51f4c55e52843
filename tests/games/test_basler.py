"""Basler (48 cards) engine: every check and the team score of games.md §4, by hand.

Team A = seats 1 and 3, team B = seats 2 and 4; per-team lists are [A, B].
"""

from __future__ import annotations

import pytest

from games.engines import DealContext, EngineUserError, get_engine
from games.engines.basler import RANKS

ENGINE = get_engine("basler")

PLAIN = {"tricks": [6, 6], "last_trick": "A", "card_points": [20, 20]}

# A holds all four kings and three unter, B three ober; every other set rank is split
# two and two. Card points: A 16+3+6+2 = 27, B 0+9+2+2 = 13. Set-rank cards: A 14, B 10.
FULL = {
    "tricks": [7, 5],
    "last_trick": "B",
    "card_points": [27, 13],
    "melds": [
        {"seat": 1, "rank": "king", "count": 3},    # A  8
        {"seat": 3, "rank": "seven", "count": 3},   # A  6
        {"seat": 2, "rank": "two", "count": 4},     # B 10
        {"seat": 4, "rank": "banner", "count": 3},  # B  3
    ],
    "captured": [
        {"team": "A", "rank": "king", "count": 4},   # A 16
        {"team": "A", "rank": "unter", "count": 3},  # A  4
        {"team": "B", "rank": "ober", "count": 3},   # B  7
    ],
}

# Team A took every trick, so it holds four of each rank.
SWEEP = {
    "tricks": [12, 0],
    "last_trick": "A",
    "card_points": [40, 0],
    "captured": [{"team": "A", "rank": rank, "count": 4} for rank in RANKS],
}


def ctx(number: int = 1) -> DealContext:
    return DealContext(number=number, players=4, rules=ENGINE.options({}))


def score(deal: dict) -> list[int]:
    c = ctx()
    return ENGINE.score_deal(ENGINE.validate_deal(deal, c), c).scores


def refused(deal) -> set[str]:
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(deal, ctx())
    return {e.field for e in exc.value.errors}


DROP = object()  # with_(deal, field=DROP) leaves the field out


def with_(base: dict, **changes) -> dict:
    deal = dict(base, **changes)
    return {k: v for k, v in deal.items() if v is not DROP}


def meld(seat, rank, count=3):
    return {"seat": seat, "rank": rank, "count": count}


def cap(team, rank, count=3):
    return {"team": team, "rank": rank, "count": count}


# --------------------------------------------------------------------------- the engine


def test_engine_describes_itself():
    described = ENGINE.describe()
    assert described["key"] == "basler"
    assert described["name"] == {"de": "Basler Kartenspiel", "en": "Basler (48 cards)"}
    assert described["table_sizes"] == [4]
    assert described["preferred_table_size"] == 4
    assert described["standing_order"] == "desc"
    assert described["options"]["round_deals"]["default"] == 8


def test_round_length_is_an_option():
    assert ENGINE.sheet_length(4, ENGINE.options({})) == 8
    assert ENGINE.sheet_length(4, ENGINE.options({"round_deals": 3})) == 3


@pytest.mark.parametrize("players", [3, 5, 8])
def test_only_tables_of_four(players):
    with pytest.raises(EngineUserError) as exc:
        ENGINE.score_sheet([], players)
    assert exc.value.errors[0].field == "players"


@pytest.mark.parametrize("rules, field", [
    ({"round_deals": 0}, "rules.round_deals"),
    ({"round_deals": "8"}, "rules.round_deals"),
    ({"tariff": "tournament"}, "rules.tariff"),
])
def test_bad_rules(rules, field):
    with pytest.raises(EngineUserError) as exc:
        ENGINE.options(rules)
    assert [e.field for e in exc.value.errors] == [field]


def test_normalised_record_lists_no_sets_by_default():
    assert ENGINE.validate_deal(PLAIN, ctx()) == dict(PLAIN, melds=[], captured=[])


# --------------------------------------------------------------------------- scoring by hand


def test_plain_deal_is_tricks_last_trick_and_card_points():
    # A: 6 + 3 + 20 = 29; B: 6 + 20 = 26
    assert score(PLAIN) == [29, 26, 29, 26]


def test_full_deal():
    # A: 7 tricks + 27 card points + melds 8+6 + captured 16+4 = 68
    # B: 5 tricks + 3 last + 13 card points + melds 10+3 + captured 7 = 41
    assert score(FULL) == [68, 41, 68, 41]
    assert sum(score(FULL)[:2]) == 55 + 27 + 27


def test_sweep():
    # 12 + 3 + 40 + captured (8+7+6+5+4+3)·2 = 55 + 66
    assert score(SWEEP) == [121, 0, 121, 0]


def test_one_trick_of_four_kings():
    deal = {"tricks": [1, 11], "last_trick": "A", "card_points": [16, 24],
            "captured": [cap("A", "king", 4)] + [cap("B", r, 4) for r in RANKS if r != "king"]}
    # A: 1 + 3 + 16 + 16 = 36; B: 11 + 24 + (7+6+5+4+3)·2 = 85
    assert score(deal) == [36, 85, 36, 85]


@pytest.mark.parametrize("rank, count, value", [
    ("king", 3, 8), ("king", 4, 16), ("ober", 3, 7), ("ober", 4, 14),
    ("seven", 3, 6), ("seven", 4, 12), ("two", 3, 5), ("two", 4, 10),
    ("unter", 3, 4), ("unter", 4, 8), ("banner", 3, 3), ("banner", 4, 6),
])
def test_meld_values(rank, count, value):
    for seat, team_scores in ((1, [29 + value, 26]), (4, [29, 26 + value])):
        deal = with_(PLAIN, melds=[meld(seat, rank, count)])
        a, b = team_scores
        assert score(deal) == [a, b, a, b]


def test_partners_meld_separately_and_both_count():
    deal = with_(PLAIN, melds=[meld(1, "king"), meld(3, "ober")])
    assert score(deal) == [29 + 8 + 7, 26, 29 + 8 + 7, 26]


def test_a_rank_may_be_melded_and_captured():
    # the four kings melded by seat 1 are played and end in team B's tricks
    deal = {"tricks": [5, 7], "last_trick": "B", "card_points": [12, 28],
            "melds": [meld(1, "king", 4)], "captured": [cap("B", "king", 4)]}
    # A: 5 + 12 + 16 = 33; B: 7 + 3 + 28 + 16 = 54
    assert score(deal) == [33, 54, 33, 54]


def test_sheet_totals_sum_the_deals():
    result = ENGINE.score_sheet([PLAIN, FULL], 4, {"round_deals": 2})
    assert result.complete
    assert result.totals == [{"seat": 1, "score": 97}, {"seat": 2, "score": 67},
                             {"seat": 3, "score": 97}, {"seat": 4, "score": 67}]
    assert ENGINE.rank_key(result.totals[0]) < ENGINE.rank_key(result.totals[1])


# --------------------------------------------------------------------------- refusals

# The table of single refusals is conformance data: games/conformance/basler.json
# (run by tests/games/test_conformance_cases.py).


@pytest.mark.parametrize("tricks, counts", [
    (1, [4]), (2, [4, 4]), (2, [3, 3]), (3, [4, 4, 4]), (3, [4, 3, 3]), (6, [4] * 6),
])
def test_captured_sets_filling_the_tricks_exactly_are_accepted(tricks, counts):
    ranks = [r for r in RANKS if r not in ("king", "ober", "unter", "banner")] + \
        ["unter", "banner", "ober", "king"]
    captured = [cap("A", rank, n) for rank, n in zip(ranks, counts, strict=False)]
    points = sum({"king": 4, "ober": 3, "unter": 2, "banner": 1}.get(e["rank"], 0) * e["count"]
                 for e in captured)
    deal = {"tricks": [tricks, 12 - tricks], "last_trick": "B",
            "card_points": [points, 40 - points], "captured": captured}
    assert ENGINE.validate_deal(deal, ctx())["captured"] == captured


def test_captured_sets_beyond_the_tricks_message_counts_the_cards():
    deal = {"tricks": [1, 11], "last_trick": "B", "card_points": [0, 40],
            "captured": [cap("A", "seven"), cap("A", "two")]}
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(deal, ctx())
    (error,) = exc.value.errors
    assert error.render() == ("The sets captured by team A hold 6 cards, but its 1 tricks "
                              "hold only 4.")


def test_captured_point_sets_message_names_their_points():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(with_(PLAIN, card_points=[10, 30], captured=[cap("A", "king", 4)]),
                             ctx())
    error = next(e for e in exc.value.errors if e.field == "card_points.0")
    assert error.render() == "The sets captured by team A alone are worth 16 card points."


def test_every_bad_field_is_reported_at_once():
    deal = {"tricks": [6, 7], "last_trick": "X", "card_points": [30, 30],
            "melds": [meld(9, "king")], "captured": [cap("A", "nine")], "x": 1}
    assert refused(deal) == {"tricks", "last_trick", "card_points", "melds.0.seat",
                             "captured.0.rank", "x"}


def test_sheet_errors_name_the_deal():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.score_sheet([PLAIN, with_(PLAIN, last_trick="C")], 4)
    assert [(e.deal, e.number, e.field) for e in exc.value.errors] == [(1, 2, "last_trick")]
