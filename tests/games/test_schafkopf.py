"""Bavarian Schafkopf engine: every check and formula of games.md §2, worked by hand.

Values v below are per opponent; a single game's declarer gets ±3v.
"""

from __future__ import annotations

import pytest

from games.engines import DealContext, EngineUserError, get_engine

ENGINE = get_engine("schafkopf")

RUF = {"game": "rufspiel", "declarer": 1, "partner": 3, "called_ace": "acorns",
       "declarer_points": 61}
SOLO = {"game": "solo", "declarer": 2, "suit": "hearts", "declarer_points": 61}
WENZ = {"game": "wenz", "declarer": 2, "declarer_points": 61}
SOLO_TOUT = {"game": "solo_tout", "declarer": 2, "suit": "leaves", "declarer_points": 120,
             "schwarz": True}
SIE = {"game": "sie", "declarer": 2}
PASSED = {"game": "passed"}

CUSTOM = {"base_rufspiel": 5, "base_solo": 15, "schneider": 3, "schwarz": 7, "laufende": 2}


def ctx(number: int = 1, players: int = 4, rules: dict | None = None) -> DealContext:
    return DealContext(number=number, players=players, rules=ENGINE.options(rules))



def refused(deal, **where) -> set[str]:
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(deal, ctx(**where))
    return {e.field for e in exc.value.errors}


DROP = object()  # with_(deal, field=DROP) leaves the field out


def with_(base: dict, **changes) -> dict:
    deal = dict(base, **changes)
    return {k: v for k, v in deal.items() if v is not DROP}


# --------------------------------------------------------------------------- the engine


def test_engine_describes_itself():
    described = ENGINE.describe()
    assert described["key"] == "schafkopf"
    assert described["name"] == {"de": "Schafkopf", "en": "Bavarian Schafkopf"}
    assert described["table_sizes"] == [4, 5]
    assert described["preferred_table_size"] == 4
    assert described["options"]["tariff"]["default"] == "tournament"
    assert described["options"]["round_deals"]["default"] == 32
    assert ENGINE.figures == ("won", "lost")


def test_round_length_is_an_option():
    assert ENGINE.sheet_length(4, ENGINE.options({})) == 32
    assert ENGINE.sheet_length(5, ENGINE.options({"round_deals": 20})) == 20


@pytest.mark.parametrize("players", [3, 6, "4"])
def test_only_tables_of_four_or_five(players):
    with pytest.raises(EngineUserError) as exc:
        ENGINE.score_sheet([], players)
    assert exc.value.errors[0].field == "players"


def test_dealer_sits_out_only_at_a_five_table():
    assert ENGINE.active_seats(ctx(number=1, players=4)) == [1, 2, 3, 4]
    assert ENGINE.active_seats(ctx(number=1, players=5)) == [2, 3, 4, 5]
    assert ENGINE.active_seats(ctx(number=7, players=5)) == [1, 3, 4, 5]


# --------------------------------------------------------------------------- normalised records


def test_defaults_are_filled_in():
    c = ctx()
    assert ENGINE.validate_deal(RUF, c) == dict(RUF, schwarz=False, laufende=0, doublings=0)
    assert ENGINE.validate_deal(SIE, c) == dict(SIE, declarer_points=120, schwarz=True,
                                                laufende=8, doublings=0)
    assert ENGINE.validate_deal(PASSED, c) == {"game": "passed"}


def test_sie_may_state_its_fixed_result():
    deal = with_(SIE, declarer_points=120, schwarz=True, laufende=8, doublings=2)
    assert ENGINE.validate_deal(deal, ctx())["doublings"] == 2


# --------------------------------------------------------------------------- refusals

# The table of single refusals is conformance data: games/conformance/schafkopf.json
# (run by tests/games/test_conformance_cases.py).


def test_every_bad_field_is_reported_at_once():
    deal = {"game": "rufspiel", "declarer": 9, "partner": 9, "called_ace": "hearts",
            "suit": "bells", "declarer_points": 130, "schwarz": "no", "laufende": 20,
            "doublings": 7}
    assert refused(deal) == {"declarer", "partner", "called_ace", "suit", "declarer_points",
                             "schwarz", "laufende", "doublings"}


def test_unknown_fields_are_named_even_when_the_game_is_bad():
    assert refused({"game": "skat", "declarer": 1, "trumpf": "x"}) == {"game", "trumpf"}


def test_passed_deal_allows_no_other_field():
    assert refused({"game": "passed", "declarer_points": 0, "x": 1}) == {"declarer_points", "x"}


@pytest.mark.parametrize("deal, where", [
    (with_(RUF, laufende=14), {}),
    (with_(SOLO, laufende=14, doublings=4), {}),
    (with_(WENZ, laufende=4), {}),
    (with_(RUF, declarer=2, partner=5), {"players": 5}),
    (with_(RUF, called_ace="bells"), {}),
    (with_(RUF, declarer_points=0, schwarz=True), {}),
    (with_(RUF, declarer_points=0), {}),  # the declaring party took a 0-point trick
    (with_(SOLO_TOUT, schwarz=False), {}),
])
def test_accepted(deal, where):
    ENGINE.validate_deal(deal, ctx(**where))


# --------------------------------------------------------------------------- scoring by hand

# The hand-worked scores of every game and tariff are conformance data:
# games/conformance/schafkopf.json (run by tests/games/test_conformance_cases.py).


def test_extra_shows_value_and_result():
    c = ctx()
    scored = ENGINE.score_deal(ENGINE.validate_deal(with_(SOLO, declarer_points=95,
                                                          laufende=3), c), c)
    assert scored.extra == {"value": 6, "won": True, "schneider": True, "laufende": 3}


# --------------------------------------------------------------------------- sheets and totals


def test_totals_count_won_and_lost_games_for_the_declaring_party():
    deals = [
        RUF,                                                   # 1+3 win 1
        with_(SOLO, declarer_points=40),                       # 2 loses 6
        PASSED,
        with_(RUF, declarer=4, partner=2, declarer_points=30), # 4+2 lose 2 (schneider)
        with_(WENZ, declarer=3),                               # 3 wins 6
    ]
    result = ENGINE.score_sheet(deals, 4, {"round_deals": 5})
    assert result.complete
    assert [d.scores for d in result.deals] == [
        [1, -1, 1, -1], [2, -6, 2, 2], [0, 0, 0, 0], [2, -2, 2, -2], [-2, -2, 6, -2]]
    assert result.totals == [
        {"seat": 1, "score": 3, "won": 1, "lost": 0},
        {"seat": 2, "score": -11, "won": 0, "lost": 2},
        {"seat": 3, "score": 11, "won": 2, "lost": 0},
        {"seat": 4, "score": -3, "won": 0, "lost": 1},
    ]


def test_five_table_totals_keep_the_sitting_out_dealer_at_zero_for_that_deal():
    result = ENGINE.score_sheet([with_(RUF, declarer=2, partner=4), PASSED], 5)
    assert not result.complete
    assert [row["score"] for row in result.totals] == [0, 1, -1, 1, -1]


def test_rank_key_breaks_ties_by_won_games():
    rows = [{"seat": 1, "score": 5, "won": 1, "lost": 0},
            {"seat": 2, "score": 5, "won": 3, "lost": 2},
            {"seat": 3, "score": 7, "won": 0, "lost": 0}]
    assert [r["seat"] for r in sorted(rows, key=ENGINE.rank_key)] == [3, 2, 1]
    assert ENGINE.rank_key(rows[0]) == (-5, -1)


def test_sheet_errors_name_the_deal():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.score_sheet([RUF, with_(RUF, partner=1), PASSED, {"game": "x"}], 4)
    assert [(e.deal, e.number, e.field) for e in exc.value.errors] == [
        (1, 2, "partner"), (3, 4, "game")]


def test_too_many_deals():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.score_sheet([PASSED] * 3, 4, {"round_deals": 2})
    assert [e.field for e in exc.value.errors] == ["deals"]


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("tariff", ["tournament", "money_10_50", "money_20_50", CUSTOM,
                                    dict.fromkeys(CUSTOM, 0)])
def test_tariffs_accepted(tariff):
    assert ENGINE.options({"tariff": tariff})["tariff"] == tariff


# Single bad options: games/conformance/schafkopf.json.


def test_every_bad_option_is_reported():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.options({"tariff": "x", "round_deals": -3, "y": 1})
    assert {e.field for e in exc.value.errors} == {"rules.tariff", "rules.round_deals",
                                                  "rules.y"}


def test_messages_render_their_parameters():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(with_(SOLO, declarer=1), ctx(players=5))
    assert exc.value.errors[0].render() == "Seat 1 deals this hand and sits out."
