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

REFUSALS = [
    # (case, deal, field)
    ("deal not an object", "tricks", "deal"),
    ("unknown field", with_(PLAIN, bonus=3), "bonus"),
    ("tricks missing", with_(PLAIN, tricks=DROP), "tricks"),
    ("tricks not a pair", with_(PLAIN, tricks=[12]), "tricks"),
    ("tricks not a list", with_(PLAIN, tricks="6,6"), "tricks"),
    ("tricks as text", with_(PLAIN, tricks=[6, "6"]), "tricks.1"),
    ("tricks as bool", with_(PLAIN, tricks=[True, 11]), "tricks.0"),
    ("tricks above 12", with_(PLAIN, tricks=[13, -1]), "tricks.0"),
    ("tricks below 0", with_(PLAIN, tricks=[13, -1]), "tricks.1"),
    ("tricks not adding up to 12", with_(PLAIN, tricks=[6, 5]), "tricks"),
    ("last trick missing", with_(PLAIN, last_trick=DROP), "last_trick"),
    ("last trick unknown team", with_(PLAIN, last_trick="C"), "last_trick"),
    ("last trick lower case", with_(PLAIN, last_trick="a"), "last_trick"),
    ("last trick by a team without tricks", with_(SWEEP, last_trick="B"), "last_trick"),
    ("card points missing", with_(PLAIN, card_points=DROP), "card_points"),
    ("card points not adding up to 40", with_(PLAIN, card_points=[20, 21]), "card_points"),
    ("card points above 40", with_(PLAIN, card_points=[41, -1]), "card_points.0"),
    ("card points below 0", with_(PLAIN, card_points=[41, -1]), "card_points.1"),
    ("card points as float", with_(PLAIN, card_points=[20.0, 20]), "card_points.0"),
    ("melds not a list", with_(PLAIN, melds={"seat": 1}), "melds"),
    ("meld not an object", with_(PLAIN, melds=[["king", 3]]), "melds.0"),
    ("meld unknown key", with_(PLAIN, melds=[dict(meld(1, "king"), suit="x")]), "melds.0.suit"),
    ("meld seat missing", with_(PLAIN, melds=[{"rank": "king", "count": 3}]), "melds.0.seat"),
    ("meld seat 5", with_(PLAIN, melds=[meld(5, "king")]), "melds.0.seat"),
    ("meld seat as text", with_(PLAIN, melds=[meld("1", "king")]), "melds.0.seat"),
    ("meld seat as bool", with_(PLAIN, melds=[meld(True, "king")]), "melds.0.seat"),
    ("meld rank without a set value", with_(PLAIN, melds=[meld(1, "nine")]), "melds.0.rank"),
    ("meld count 2", with_(PLAIN, melds=[meld(1, "king", 2)]), "melds.0.count"),
    ("meld count 5", with_(PLAIN, melds=[meld(1, "king", 5)]), "melds.0.count"),
    ("meld count as text", with_(PLAIN, melds=[meld(1, "king", "3")]), "melds.0.count"),
    ("rank melded by two seats", with_(PLAIN, melds=[meld(1, "king"), meld(2, "king")]),
     "melds.1.rank"),
    ("rank melded twice by one seat", with_(PLAIN, melds=[meld(2, "ober"), meld(2, "ober")]),
     "melds.1.rank"),
    ("melds beyond a hand of 12", with_(PLAIN, melds=[meld(1, "king", 4), meld(1, "ober", 4),
                                                      meld(1, "seven", 4), meld(1, "two")]),
     "melds.3.count"),
    ("captured not a list", with_(PLAIN, captured="king"), "captured"),
    ("captured unknown team", with_(PLAIN, captured=[cap("C", "king")]), "captured.0.team"),
    ("captured team missing", with_(PLAIN, captured=[{"rank": "two", "count": 3}]),
     "captured.0.team"),
    ("captured unknown key", with_(PLAIN, captured=[dict(cap("A", "two"), seat=1)]),
     "captured.0.seat"),
    ("captured rank unknown", with_(PLAIN, captured=[cap("A", "ace")]), "captured.0.rank"),
    ("captured count 2", with_(PLAIN, captured=[cap("A", "two", 2)]), "captured.0.count"),
    ("rank captured by both teams", with_(PLAIN, captured=[cap("A", "two"), cap("B", "two")]),
     "captured.1.rank"),
    ("rank captured twice by one team",
     with_(PLAIN, captured=[cap("A", "two"), cap("A", "two")]), "captured.1.rank"),
    ("captured count beyond the team's cards",
     {"tricks": [0, 12], "last_trick": "B", "card_points": [0, 40],
      "captured": [cap("A", "seven")] + [cap("B", r, 4) for r in RANKS if r != "seven"]},
     "captured.0.count"),
    # one trick is 4 cards: two sets of 3 (6 cards) do not fit in team A's one trick
    ("captured sets together beyond the team's cards",
     {"tricks": [1, 11], "last_trick": "B", "card_points": [0, 40],
      "captured": [cap("A", "seven"), cap("A", "two")]},
     "captured.1.count"),
    ("captured sets together beyond 4 × tricks (3 tricks, 13 cards)",
     {"tricks": [3, 9], "last_trick": "B", "card_points": [0, 40],
      "captured": [cap("A", "seven", 4), cap("A", "two", 3), cap("A", "banner", 3),
                   cap("A", "unter", 3)]},
     "captured.3.count"),
    ("card points below the captured point ranks",
     with_(PLAIN, card_points=[10, 30], captured=[cap("A", "king", 4)]), "card_points.0"),
]


@pytest.mark.parametrize("deal, field", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refused(deal, field):
    assert field in refused(deal)


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
