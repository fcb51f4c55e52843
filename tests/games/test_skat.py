"""Skat engine: every rule and example of games.md §1, table-driven from the ISkO."""

from __future__ import annotations

import pytest

from games.conformance import case as conformance_case
from games.engines import get_engine
from games.engines.base import DealContext, EngineUserError
from games.engines.skat import LEGAL_BIDS, SUIT_BASES

ENGINE = get_engine("skat")


# --------------------------------------------------------------------------- helpers


def ctx(players: int = 3, number: int = 1, **rules) -> DealContext:
    return DealContext(number=number, players=players, rules=ENGINE.options(rules))


def scored(deal, players: int = 3, number: int = 1, **rules):
    context = ctx(players, number, **rules)
    return ENGINE.score_deal(ENGINE.validate_deal(deal, context), context)


def declarer_score(deal, **kw) -> int:
    return scored(deal, **kw).scores[deal["declarer"] - 1]


def game(kind: str = "clubs", matadors: int | None = 1, won: bool = True,
         declarer: int = 1, **fields) -> dict:
    """A declared game; ``matadors`` is left out for null games."""
    deal = {"declarer": declarer, "game": kind, "won": won, **fields}
    if kind != "null":
        deal["matadors"] = matadors
    return deal


def refusal(call) -> list:
    with pytest.raises(EngineUserError) as exc:
        call()
    for error in exc.value.errors:
        assert error.render()  # every message renders with its params
    return exc.value.errors


def assert_refused(deal, field: str, players: int = 3, number: int = 1, **rules) -> None:
    errors = refusal(lambda: scored(deal, players, number, **rules))
    assert field in {e.field for e in errors}, errors


# --------------------------------------------------------------------------- the engine


def test_engine_is_registered_with_its_attributes():
    assert ENGINE.key == "skat"
    assert (ENGINE.name_de, ENGINE.name_en) == ("Skat", "Skat")
    assert ENGINE.table_sizes == (3, 4)
    assert ENGINE.preferred_table_size == 4
    assert ENGINE.standing_order == "desc"
    assert ENGINE.figures == ("game_points", "won", "lost")
    assert ENGINE.supports_summary


def test_default_options():
    assert ENGINE.default_options() == {
        "kontra_re": False, "lost_hand_single": False, "grand_ouvert_base": 24,
        "ramsch": False, "scoring": "seeger_fabian", "series_deals_3": 36,
        "series_deals_4": 48}


def test_options_are_described_in_both_languages():
    described = ENGINE.describe()["options"]
    assert [c["value"] for c in described["grand_ouvert_base"]["choices"]] == [24, 36]
    assert described["scoring"]["choices"][1] == {
        "value": "plain", "label": {"en": "Game points only", "de": "Nur Spielpunkte"}}
    assert (described["series_deals_4"]["min"], described["series_deals_4"]["max"]) == (1, 96)
    for option in described.values():
        assert option["help"]["en"] and option["help"]["de"]


# --------------------------------------------------------------------------- games.md examples


# games.md's examples are conformance data: games/conformance/skat.json (run by
# tests/games/test_conformance_cases.py).


def test_extra_carries_value_and_result():
    extra = scored(game("hearts", 2, won=False, declarer=2)).extra
    assert extra == {"declarer": 2, "game": "hearts", "value": 30, "won": False,
                     "overbid": False}


# --------------------------------------------------------------------------- game values


@pytest.mark.parametrize("suit", list(SUIT_BASES))
@pytest.mark.parametrize("matadors", [k * sign for k in range(1, 12) for sign in (1, -1)])
def test_suit_value_mit_and_ohne_1_to_11(suit, matadors):
    assert declarer_score(game(suit, matadors)) == SUIT_BASES[suit] * (abs(matadors) + 1)


@pytest.mark.parametrize("matadors", [1, 2, 3, 4, -1, -2, -3, -4])
def test_grand_value_mit_and_ohne_1_to_4(matadors):
    assert declarer_score(game("grand", matadors)) == 24 * (abs(matadors) + 1)


@pytest.mark.parametrize("fields, multiplier", [
    ({}, 2),
    ({"hand": True}, 3),
    ({"schneider": True}, 3),
    ({"schneider": True, "schwarz": True}, 4),
    ({"schwarz": True}, 4),  # schwarz implies schneider
    ({"hand": True, "schneider": True}, 4),
    ({"hand": True, "schneider": True, "schneider_announced": True}, 5),
    ({"hand": True, "schwarz": True}, 5),
    ({"hand": True, "schwarz": True, "schneider_announced": True}, 6),
    ({"hand": True, "schwarz": True, "schwarz_announced": True}, 7),
    ({"hand": True, "schwarz": True, "schneider_announced": True,
      "schwarz_announced": True}, 7),
    ({"ouvert": True, "schwarz": True}, 8),
    ({"ouvert": True, "schwarz": True, "hand": True, "schneider": True,
      "schneider_announced": True, "schwarz_announced": True}, 8),
])
def test_every_level_adds_one_to_the_multiplier(fields, multiplier):
    assert declarer_score(game("clubs", 1, **fields)) == 12 * multiplier


def test_highest_suit_multiplier_is_18():
    deal = game("diamonds", 11, ouvert=True, schwarz=True)
    assert declarer_score(deal) == 9 * 18


def test_highest_grand_multiplier_is_11():
    assert declarer_score(game("grand", -4, ouvert=True, schwarz=True)) == 24 * 11


@pytest.mark.parametrize("hand, ouvert, value", [
    (False, False, 23), (True, False, 35), (False, True, 46), (True, True, 59)])
@pytest.mark.parametrize("won", [True, False])
def test_null_values_won_and_lost(hand, ouvert, value, won):
    result = scored(game("null", won=won, hand=hand, ouvert=ouvert))
    assert result.extra["value"] == value
    assert result.scores[0] == (value if won else -2 * value)


def test_null_ouvert_is_not_implicitly_hand():
    record = ENGINE.validate_deal(game("null", ouvert=True), ctx())
    assert record["hand"] is False


# --------------------------------------------------------------------------- lost games


def test_lost_game_is_doubled():
    assert declarer_score(game("hearts", 2, won=False)) == -60


def test_lost_hand_game_is_doubled():
    assert declarer_score(game("hearts", 2, won=False, hand=True)) == -80


def test_declarer_made_schneider_loses_with_schneider_counted():
    deal = game("hearts", 1, won=False, schneider=True, declarer_points=25)
    assert declarer_score(deal) == -2 * 10 * 3


def test_declarer_made_schwarz_loses_with_schwarz_counted():
    deal = game("hearts", 1, won=False, schwarz=True, declarer_points=0)
    assert declarer_score(deal) == -2 * 10 * 4


def test_lost_grand_schneider():
    deal = game("grand", 2, won=False, schneider=True, declarer_points=30)
    assert declarer_score(deal) == -2 * 24 * 4


# --------------------------------------------------------------------------- announcements


def test_missed_schneider_announcement_loses_at_the_announced_level():
    # mit 1, game, hand, schneider (announced, so it counts), announced: 5 × 11
    deal = game("spades", 1, won=False, hand=True, schneider_announced=True,
                declarer_points=75)
    assert declarer_score(deal) == -110


def test_missed_schwarz_announcement_loses_at_the_announced_level():
    deal = game("grand", 2, won=False, hand=True, schneider=True, schwarz_announced=True,
                declarer_points=100)
    assert declarer_score(deal) == -2 * 24 * 8


@pytest.mark.parametrize("deal", [
    game("spades", 1, hand=True, schneider_announced=True, schneider=False),
    game("spades", 1, hand=True, schwarz_announced=True, schneider=True, schwarz=False),
    game("clubs", 2, ouvert=True, schneider=True, schwarz=False),  # ouvert needs every trick
])
def test_won_with_a_missed_announcement_is_refused(deal):
    assert_refused(deal, "won")


@pytest.mark.parametrize("deal,value", [
    (game("spades", 4, hand=True, schneider_announced=True), 88),  # rules/skat.txt
    (game("clubs", 2, ouvert=True), 108),
    (game("grand", 4, ouvert=True), 264),
])
def test_a_won_game_reached_the_levels_it_announced(deal, value):
    """A level left out of a won game's record is taken as reached (the example of
    rules/skat.txt names no Schneider flag); only an explicit false is a miss."""
    assert declarer_score(deal) == value


@pytest.mark.parametrize("field", ["schneider_announced", "schwarz_announced"])
def test_announcement_outside_a_hand_game_is_refused(field):
    assert_refused(game("spades", 1, schneider=True, schwarz=True, **{field: True}), field)


def test_schwarz_announced_implies_schneider_announced():
    record = ENGINE.validate_deal(
        game("spades", 1, hand=True, schwarz=True, schwarz_announced=True), ctx())
    assert record["schneider_announced"] is True
    assert record["schneider"] is True


def test_schwarz_announced_with_schneider_not_announced_is_refused():
    deal = game("spades", 1, hand=True, schwarz=True, schwarz_announced=True,
                schneider_announced=False)
    assert_refused(deal, "schneider_announced")


def test_schwarz_without_schneider_is_refused():
    assert_refused(game("spades", 1, schwarz=True, schneider=False), "schneider")


@pytest.mark.parametrize("field", ["hand", "schneider_announced", "schwarz_announced"])
def test_ouvert_with_an_implied_field_false_is_refused(field):
    assert_refused(game("clubs", 2, ouvert=True, schwarz=True, **{field: False}), field)


def test_ouvert_implies_hand_and_both_announcements():
    record = ENGINE.validate_deal(game("clubs", 2, ouvert=True, schwarz=True), ctx())
    assert record["hand"] and record["schneider_announced"] and record["schwarz_announced"]


def test_lost_ouvert_counts_every_level():
    deal = game("clubs", 2, won=False, ouvert=True, schneider=True, declarer_points=95)
    assert declarer_score(deal) == -216


# --------------------------------------------------------------------------- overbid


def test_overbid_suit_game_takes_the_next_multiple_reaching_the_bid():
    # found the club jack in the skat: ohne 3 became mit 1 (24), bid was 48
    assert scored(game("clubs", 1, won=False, bid=48)).scores[0] == -96


def test_overbid_suit_hand_without_the_planned_schneider():
    deal = game("spades", 1, won=False, hand=True, bid=44, declarer_points=80)
    result = scored(deal)
    assert result.extra == {"declarer": 1, "game": "spades", "value": 44, "won": False,
                            "overbid": True}
    assert result.scores[0] == -88


def test_overbid_grand_rounds_up_to_a_multiple_of_24():
    # grand mit 1 = 48 < bid 50 → 72
    assert declarer_score(game("grand", 1, won=False, bid=50)) == -144


def test_overbid_null_is_lost_at_its_own_value():
    result = scored(game("null", won=False, bid=24))
    assert result.extra["value"] == 23
    assert result.extra["overbid"] is True
    assert result.scores[0] == -46


@pytest.mark.parametrize("deal", [
    game("diamonds", -1, bid=22),
    game("grand", 1, bid=50, declarer_points=70),
    game("null", bid=24),
    game("null", hand=True, bid=36),
])
def test_won_overbid_game_is_refused(deal):
    assert_refused(deal, "won")


def test_bid_equal_to_the_value_is_won():
    assert declarer_score(game("diamonds", -1, bid=18, declarer_points=61)) == 18


def test_overbid_lost_with_enough_points_is_accepted():
    # ohne 1 with schneider = 27 < bid 30 → 36
    assert declarer_score(game("diamonds", -1, won=False, bid=30, declarer_points=90,
                               schneider=True)) == -72


# --------------------------------------------------------------------------- bids


@pytest.mark.parametrize("bid", [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46,
                                 48, 59, 264, 216])
def test_legal_bids_are_accepted(bid):
    assert scored(game("grand", -4, bid=bid, won=bid <= 120)).scores[0] != 0


def test_legal_bid_values_are_the_products_and_null_values():
    bids = LEGAL_BIDS[24]
    assert min(bids) == 18
    assert {23, 35, 46, 59} <= bids
    assert max(bids) == 264
    assert {19, 21, 25, 26, 28, 29, 31, 17} & bids == set()


@pytest.mark.parametrize("bid", [0, 17, 19, 21, 25, 37, -18, 265, 288, 1000])
def test_illegal_bid_is_refused(bid):
    assert_refused(game("clubs", 1, bid=bid), "bid")


@pytest.mark.parametrize("bid", ["18", True, 18.0, [18]])
def test_bid_of_the_wrong_type_is_refused(bid):
    assert_refused(game("clubs", 1, bid=bid), "bid")


def test_bid_null_means_not_given():
    assert declarer_score(game("clubs", 1, bid=None)) == 24


# --------------------------------------------------------------------------- declarer points


@pytest.mark.parametrize("deal", [
    game("clubs", 1, declarer_points=55),  # won with 55, no overbid
    game("clubs", 1, won=False, declarer_points=61),  # lost with 61, no reason
    game("clubs", 1, won=False, declarer_points=85),
    game("clubs", 1, declarer_points=95),  # schneider, but not marked
    game("clubs", 1, won=False, declarer_points=30),  # declarer schneidered, not marked
    game("clubs", 1, schneider=True, declarer_points=89),
    game("clubs", 1, schwarz=True, declarer_points=100),
    game("clubs", 1, won=False, schneider=True, schwarz=True, declarer_points=23),
    game("grand", 1, won=False, schwarz=True, declarer_points=30),
    game("grand", 1, won=False, schwarz=True, declarer_points=119),
    game("clubs", 1, declarer_points=121),
    game("clubs", 1, won=False, declarer_points=-1),
    game("clubs", 1, declarer_points="61"),
    game("clubs", 1, declarer_points=61.0),
])
def test_declarer_points_disagreeing_with_the_result_are_refused(deal):
    assert_refused(deal, "declarer_points")


@pytest.mark.parametrize("deal, score", [
    (game("clubs", 1, declarer_points=61), 24),
    (game("clubs", 1, won=False, declarer_points=60), -48),
    (game("clubs", 1, schneider=True, declarer_points=90), 36),
    (game("clubs", 1, won=False, schneider=True, declarer_points=30), -72),
    (game("clubs", 1, won=False, declarer_points=31), -48),
    (game("clubs", 1, schwarz=True, declarer_points=120), 48),
    (game("clubs", 1, won=False, schwarz=True, declarer_points=0), -96),
    # played schwarz, the declarer keeps the Skat: an ace and a ten are 21 points
    (game("grand", 1, won=False, schwarz=True, declarer_points=21), -192),
    (game("clubs", 1, won=False, schneider=True, schwarz=True, declarer_points=22), -96),
    (game("clubs", 1, won=False, schneider=True, declarer_points=0), -72),
    (game("clubs", 1, schneider=True, declarer_points=120), 36),  # opponents took a 0 trick
])
def test_declarer_points_agreeing_with_the_result(deal, score):
    assert declarer_score(deal) == score


# --------------------------------------------------------------------------- seats and dealer


@pytest.mark.parametrize("number", range(1, 9))
def test_dealer_who_declares_at_a_4_table_is_refused(number):
    dealer = (number - 1) % 4 + 1
    assert_refused(game(declarer=dealer), "declarer", players=4, number=number)


@pytest.mark.parametrize("number", range(1, 5))
def test_dealer_scores_zero_at_a_4_table(number):
    dealer = (number - 1) % 4 + 1
    declarer = dealer % 4 + 1
    scores = scored(game(declarer=declarer), players=4, number=number).scores
    assert scores[dealer - 1] == 0
    assert scores[declarer - 1] == 24
    assert sum(scores) == 24


@pytest.mark.parametrize("number", range(1, 4))
def test_dealer_may_declare_at_a_3_table(number):
    assert declarer_score(game(declarer=number), number=number) == 24


@pytest.mark.parametrize("declarer", [0, 4, -1, True, "1", 1.0, None])
def test_declarer_must_be_a_seat(declarer):
    assert_refused(game(declarer=declarer), "declarer")


def test_active_seats():
    assert ENGINE.active_seats(DealContext(5, 4, {})) == [2, 3, 4]
    assert ENGINE.active_seats(DealContext(5, 3, {})) == [1, 2, 3]


def test_table_of_five_is_refused():
    errors = refusal(lambda: ENGINE.score_sheet([], 5))
    assert errors[0].field == "players"


# --------------------------------------------------------------------------- fields and types


def test_deal_that_is_not_an_object_is_refused():
    assert refusal(lambda: scored([1, 2]))[0].field == "deal"


def test_unknown_field_is_refused():
    assert_refused(game(trumps="clubs"), "trumps")


@pytest.mark.parametrize("field", ["declarer", "game", "won"])
def test_missing_required_field_is_refused(field):
    deal = game()
    del deal[field]
    assert_refused(deal, field)


def test_missing_matadors_in_a_suit_game_is_refused():
    assert_refused(game("hearts", None), "matadors")


@pytest.mark.parametrize("field", ["hand", "ouvert", "schneider", "schneider_announced",
                                   "schwarz", "schwarz_announced", "won", "passed"])
@pytest.mark.parametrize("value", [1, 0, "true", None, [True]])
def test_bool_fields_must_be_json_bools(field, value):
    assert_refused(game(**{field: value}), field)


@pytest.mark.parametrize("value", ["Kreuz", "CLUBS", 12, None, "ramsch"])
def test_unknown_game_is_refused(value):
    assert_refused(game(value), "game")


@pytest.mark.parametrize("kind, matadors", [
    ("clubs", 0), ("clubs", 12), ("clubs", -12), ("grand", 5), ("grand", -5),
    ("grand", 0), ("hearts", True), ("hearts", "2"), ("hearts", 1.5)])
def test_matadors_out_of_range_or_type_is_refused(kind, matadors):
    assert_refused(game(kind, matadors), "matadors")


@pytest.mark.parametrize("field", ["schneider", "schneider_announced", "schwarz",
                                   "schwarz_announced"])
def test_schneider_or_schwarz_on_a_null_game_is_refused(field):
    assert_refused(game("null", hand=True, **{field: True}), field)


def test_matadors_on_a_null_game_is_refused():
    assert_refused({**game("null"), "matadors": 1}, "matadors")


def test_declarer_points_on_a_null_game_is_refused():
    assert_refused(game("null", declarer_points=0), "declarer_points")


def test_false_levels_on_a_null_game_are_accepted():
    assert declarer_score(game("null", schneider=False, schwarz=False)) == 23


def test_every_bad_field_is_reported_at_once():
    deal = {"declarer": 9, "game": "skat", "won": "yes", "colour": 1}
    fields = {e.field for e in refusal(lambda: scored(deal))}
    assert fields == {"declarer", "game", "won", "colour"}


def test_validation_is_idempotent():
    deals = [game("spades", 4, hand=True, schneider_announced=True, schneider=True),
             game("clubs", 2, ouvert=True, schwarz=True), game("null", won=False),
             game("grand", -2, won=False, bid=120, declarer_points=70), {"passed": True}]
    for deal in deals:
        record = ENGINE.validate_deal(deal, ctx())
        assert ENGINE.validate_deal(record, ctx()) == record


# --------------------------------------------------------------------------- kontra and re


def test_kontra_doubles_and_re_quadruples():
    assert declarer_score(game(kontra=True), kontra_re=True) == 48
    assert declarer_score(game(kontra=True, re=True), kontra_re=True) == 96
    assert declarer_score(game(won=False, kontra=True), kontra_re=True) == -96
    assert declarer_score(game(won=False, kontra=True, re=True), kontra_re=True) == -192


def test_re_needs_kontra():
    assert_refused(game(re=True), "re", kontra_re=True)


@pytest.mark.parametrize("field", ["kontra", "re"])
def test_kontra_re_without_the_option_is_refused(field):
    assert_refused(game(**{"kontra": True, field: True}), field)


def test_kontra_false_without_the_option_is_accepted():
    assert declarer_score(game(kontra=False, re=False)) == 24


def test_kontra_leaves_50_and_b_unchanged():
    deals = [game(won=False, declarer=1, kontra=True, re=True)]
    totals = ENGINE.score_sheet(deals, 3, {"kontra_re": True}).totals
    assert [row["score"] for row in totals] == [-96 * 2 - 50, 40, 40]


# --------------------------------------------------------------------------- lost_hand_single


@pytest.mark.parametrize("deal, score", [
    (game("hearts", 2, won=False, hand=True), -40),
    (game("hearts", 2, won=False), -60),
    (game("hearts", 2, hand=True), 40),
    (game("null", won=False, hand=True), -35),
    (game("null", won=False, ouvert=True), -92),
    (game("clubs", 2, won=False, ouvert=True, schneider=True), -108),
])
def test_lost_hand_single(deal, score):
    assert declarer_score(deal, lost_hand_single=True) == score


# --------------------------------------------------------------------------- grand ouvert base


def test_grand_ouvert_base_36():
    assert declarer_score(game("grand", 4, ouvert=True, schwarz=True),
                          grand_ouvert_base=36) == 396
    assert declarer_score(game("grand", 4, hand=True), grand_ouvert_base=36) == 24 * 6


def test_grand_ouvert_bids_are_legal_only_at_base_36():
    deal = game("grand", 1, ouvert=True, schwarz=True, bid=288)
    assert declarer_score(deal, grand_ouvert_base=36) == 288
    assert_refused(deal, "bid")


def test_overbid_grand_ouvert_at_base_36_rounds_to_36():
    deal = game("grand", 1, won=False, ouvert=True, schneider=True, bid=324)
    assert scored(deal, grand_ouvert_base=36).extra["value"] == 324


# --------------------------------------------------------------------------- passed deals


def test_passed_deal_scores_nothing():
    result = scored({"passed": True}, players=4)
    assert result.scores == [0, 0, 0, 0]
    assert result.record == {"passed": True}


def test_passed_deal_with_other_fields_is_refused():
    assert_refused({"passed": True, "declarer": 1}, "declarer")
    assert_refused({"passed": True, "colour": 1}, "colour")


def test_passed_false_is_a_declared_game():
    assert declarer_score(game(passed=False)) == 24


def test_passed_deals_count_towards_the_series():
    result = ENGINE.score_sheet([{"passed": True}] * 36, 3)
    assert result.complete
    assert [row["score"] for row in result.totals] == [0, 0, 0]


# --------------------------------------------------------------------------- ramsch


def ramsch(points, skat, **fields) -> dict:
    return {"ramsch": True, "points": points, "skat_points": skat, **fields}


@pytest.mark.parametrize("deal, scores", [
    (ramsch([40, 50, 20], 10), [0, -60, 0]),
    (ramsch([50, 50, 10], 10), [-50, -50, 0]),  # tie: own points, the skat for nobody
    (ramsch([39, 39, 39], 3), [-39, -39, -39]),
    (ramsch([70, 40, 0], 10, jungfrau=True), [-160, 0, 0]),
    (ramsch([60, 60, 0], 0, jungfrau=True), [-120, -120, 0]),
    (ramsch([0, 110, 0], 10, durchmarsch=2), [0, 120, 0]),
    (ramsch([0, 110, 0], 10), [0, -120, 0]),  # all tricks but no durchmarsch claimed
    (ramsch([0, 110, 0], 10, durchmarsch=None, passed=True), [0, -120, 0]),
])
def test_ramsch_scores(deal, scores):
    assert scored(deal, ramsch=True).scores == scores


def test_ramsch_at_a_4_table_lists_the_active_seats_or_every_seat():
    # deal 2: seat 2 deals and sits out
    short = scored(ramsch([40, 50, 20], 10), players=4, number=2, ramsch=True)
    full = scored(ramsch([40, None, 50, 20], 10), players=4, number=2, ramsch=True)
    assert short.scores == full.scores == [0, 0, -60, 0]
    assert short.record == full.record
    assert short.record["points"] == [40, None, 50, 20]


@pytest.mark.parametrize("deal, field", [
    (ramsch([40, 50, 20], 10), "ramsch"),  # option off: checked below with ramsch off
])
def test_ramsch_without_the_option_is_refused(deal, field):
    assert_refused(deal, field)


@pytest.mark.parametrize("deal, field", [
    (ramsch([40, 50, 20], 9), "points"),  # 119
    (ramsch([40, 50], 30), "points"),
    (ramsch([40, 50, 20, 0], 10), "points"),
    (ramsch([40, "50", 20], 10), "points.1"),
    (ramsch([40, 121, -51], 10), "points.1"),
    (ramsch({"1": 40}, 10), "points"),
    (ramsch([40, 50, 20], 23), "skat_points"),
    (ramsch([40, 50, 20], -1), "skat_points"),
    (ramsch([40, 50, 20], None), "skat_points"),
    (ramsch([40, 50, 20], 10, jungfrau=True), "jungfrau"),
    (ramsch([40, 50, 20], 10, jungfrau=1), "jungfrau"),
    (ramsch([110, 0, 0], 10, durchmarsch=1, jungfrau=True), "jungfrau"),
    (ramsch([100, 10, 0], 10, durchmarsch=1), "durchmarsch"),
    (ramsch([110, 0, 0], 10, durchmarsch=4), "durchmarsch"),
    (ramsch([110, 0, 0], 10, durchmarsch=True), "durchmarsch"),
    (ramsch([40, 50, 20], 10, passed=False), "passed"),
    (ramsch([40, 50, 20], 10, kontra=True), "kontra"),
    (ramsch([40, 50, 20], 10, declarer=1), "declarer"),
    ({"ramsch": True, "skat_points": 10}, "points"),
])
def test_bad_ramsch_is_refused(deal, field):
    assert_refused(deal, field, ramsch=True)


def test_ramsch_with_points_for_the_dealer_is_refused():
    assert_refused(ramsch([5, 40, 50, 15], 10), "points.0", players=4, ramsch=True)


def test_ramsch_durchmarsch_by_the_dealer_is_refused():
    assert_refused(ramsch([110, 0, 0], 10, durchmarsch=1), "durchmarsch",
                   players=4, ramsch=True)


def test_ramsch_counts_as_game_points_but_no_declarer_game():
    deals = [ramsch([40, 50, 20], 10), game(declarer=1, won=False)]
    totals = ENGINE.score_sheet(deals, 3, {"ramsch": True}).totals
    assert totals == [
        {"seat": 1, "score": -48 - 50, "game_points": -48, "won": 0, "lost": 1},
        {"seat": 2, "score": -60 + 40, "game_points": -60, "won": 0, "lost": 0},
        {"seat": 3, "score": 40, "game_points": 0, "won": 0, "lost": 0},
    ]


def test_ramsch_false_is_a_plain_passed_deal():
    assert scored({"passed": True, "ramsch": False}).scores == [0, 0, 0]


# --------------------------------------------------------------------------- series


def test_series_lengths():
    assert ENGINE.sheet_length(3, ENGINE.options({})) == 36
    assert ENGINE.sheet_length(4, ENGINE.options({})) == 48
    assert ENGINE.sheet_length(3, ENGINE.options({"series_deals_3": 12})) == 12


def test_sheet_with_more_deals_than_the_series_is_refused():
    errors = refusal(lambda: ENGINE.score_sheet([{"passed": True}] * 37, 3))
    assert [e.field for e in errors] == ["deals"]
    errors = refusal(lambda: ENGINE.score_sheet([{"passed": True}] * 49, 4))
    assert [e.field for e in errors] == ["deals"]


def test_series_length_option_is_enforced():
    rules = {"series_deals_4": 2}
    errors = refusal(lambda: ENGINE.score_sheet([{"passed": True}] * 3, 4, rules))
    assert [e.field for e in errors] == ["deals"]
    assert ENGINE.score_sheet([{"passed": True}] * 2, 4, rules).complete


def test_incomplete_sheet():
    assert not ENGINE.score_sheet([{"passed": True}] * 47, 4).complete


def test_sheet_errors_name_the_deal():
    deals = [{"passed": True}, game(declarer=3, won=False), game(declarer=3)]
    errors = refusal(lambda: ENGINE.score_sheet(deals, 4))
    # deal 3 is dealt by seat 3
    assert [(e.deal, e.number, e.field) for e in errors] == [(2, 3, "declarer")]


# --------------------------------------------------------------------------- Seeger-Fabian


# The Seeger-Fabian sheets at a 3- and a 4-table: games/conformance/skat.json.
THREE_TABLE = conformance_case("skat", "skat-md-sf-3")["deals"]
FOUR_TABLE = conformance_case("skat", "skat-md-sf-4")["deals"]


def test_dealer_who_sat_out_gets_b_for_a_lost_game():
    # deal 1: seat 1 deals, seat 2 loses; seat 1 sat out and still gets 30
    totals = ENGINE.score_sheet([game(declarer=2, won=False)], 4).totals
    assert [row["score"] for row in totals] == [30, -48 - 50, 30, 30]


def test_plain_scoring_is_game_points():
    for deals, players in ((THREE_TABLE, 3), (FOUR_TABLE, 4)):
        totals = ENGINE.score_sheet(deals, players, {"scoring": "plain"}).totals
        assert [row["score"] for row in totals] == [row["game_points"] for row in totals]
        assert [row["won"] for row in totals] == \
            [row["won"] for row in ENGINE.score_sheet(deals, players).totals]


def test_rank_key_orders_by_score_then_won_then_lost():
    rows = [
        {"seat": 1, "score": 100, "won": 2, "lost": 1},
        {"seat": 2, "score": 100, "won": 3, "lost": 2},
        {"seat": 3, "score": 100, "won": 3, "lost": 1},
        {"seat": 4, "score": 120, "won": 0, "lost": 0},
        {"seat": 5, "score": 100, "won": 2, "lost": 1},
    ]
    ordered = sorted(rows, key=ENGINE.rank_key)
    assert [row["seat"] for row in ordered] == [4, 3, 2, 1, 5]
    assert ENGINE.rank_key(rows[0]) == ENGINE.rank_key(rows[4])


# --------------------------------------------------------------------------- summary entry


def summary(*figures) -> list[dict]:
    return [{"game_points": gp, "won": won, "lost": lost} for gp, won, lost in figures]


def test_summary_gives_the_same_totals_as_the_deals():
    for deals, players in ((THREE_TABLE, 3), (FOUR_TABLE, 4)):
        totals = ENGINE.score_sheet(deals, players).totals
        seats = [{k: row[k] for k in ("game_points", "won", "lost")} for row in totals]
        assert ENGINE.summary_totals(seats, players) == totals


def test_summary_plain_scoring():
    rows = ENGINE.summary_totals(summary((500, 10, 2), (-40, 1, 1), (0, 0, 0)), 3,
                                 {"scoring": "plain"})
    assert [row["score"] for row in rows] == [500, -40, 0]


def test_summary_seeger_fabian_at_a_3_table():
    rows = ENGINE.summary_totals(summary((500, 10, 2), (-40, 1, 1), (0, 0, 0)), 3)
    assert [row["score"] for row in rows] == [
        500 + 400 + 40, -40 + 0 + 80, 120]


@pytest.mark.parametrize("seats, field", [
    (summary((0, 0, 0), (0, 0, 0)), "seats"),
    ("nope", "seats"),
    (summary((0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)), "seats"),
    (summary((10, 0, 0), (0, 0, 0), (0, 0, 0)), "seats.0.game_points"),
    (summary((0, -1, 0), (0, 0, 0), (0, 0, 0)), "seats.0.won"),
    (summary((0, 0, 0), (0, 0, -2), (0, 0, 0)), "seats.1.lost"),
    (summary((0, 0, 0), (0, 0, 0), (0, True, 0)), "seats.2.won"),
    (summary((0, 0, 0), (0, 0, 0), (1.5, 1, 0)), "seats.2.game_points"),
    (summary((100, 20, 0), (0, 10, 7), (0, 0, 0)), "seats"),  # 37 games > 36
    ([{"game_points": 0, "won": 0}, *summary((0, 0, 0), (0, 0, 0))], "seats.0.lost"),
    ([{"game_points": 0, "won": 0, "lost": 0, "bonus": 3},
      *summary((0, 0, 0), (0, 0, 0))], "seats.0.bonus"),
    ([1, *summary((0, 0, 0), (0, 0, 0))], "seats.0"),
])
def test_bad_summary_is_refused(seats, field):
    errors = refusal(lambda: ENGINE.summary_totals(seats, 3))
    assert field in {e.field for e in errors}


def test_summary_counts_fit_the_series_length_of_the_table():
    seats = summary((100, 20, 0), (0, 10, 7), (0, 0, 0), (0, 0, 0))
    assert len(ENGINE.summary_totals(seats, 4)) == 4  # 37 ≤ 48
    errors = refusal(lambda: ENGINE.summary_totals(seats, 4, {"series_deals_4": 36}))
    assert [e.field for e in errors] == ["seats"]


def test_too_many_games_are_said_with_the_other_errors():
    """40 won and 20 lost in a 48-deal series is named in the same answer as a bad field
    of another seat, not only once that is fixed."""
    seats = summary((500, 40, 20), (0, 0, 0), (10, 0, 0), (0, 0, 0))
    errors = refusal(lambda: ENGINE.summary_totals(seats, 4))
    assert {e.field for e in errors} == {"seats", "seats.2.game_points"}


def test_summary_game_points_without_games_are_allowed_with_ramsch():
    rows = ENGINE.summary_totals(summary((-60, 0, 0), (0, 0, 0), (0, 0, 0)), 3,
                                 {"ramsch": True})
    assert rows[0]["score"] == -60


@pytest.mark.parametrize("players", [2, 5, "4", None, True])
def test_summary_with_a_bad_table_size_is_refused(players):
    assert refusal(lambda: ENGINE.summary_totals([], players))[0].field == "players"


def test_summary_with_bad_rules_is_refused():
    errors = refusal(lambda: ENGINE.summary_totals(summary((0, 0, 0)) * 3, 3, {"x": 1}))
    assert errors[0].field == "rules.x"


# --------------------------------------------------------------------------- options


# Bad options, one at a time: games/conformance/skat.json.


def test_validate_deal_tolerates_rules_without_defaults():
    context = DealContext(number=1, players=3, rules={})
    record = ENGINE.validate_deal(game("grand", 4, ouvert=True, schwarz=True), context)
    assert ENGINE.score_deal(record, context).scores[0] == 264
