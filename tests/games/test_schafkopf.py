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
WENZ_TOUT = {"game": "wenz_tout", "declarer": 2, "declarer_points": 120, "schwarz": True}
SIE = {"game": "sie", "declarer": 2}
PASSED = {"game": "passed"}

CUSTOM = {"base_rufspiel": 5, "base_solo": 15, "schneider": 3, "schwarz": 7, "laufende": 2}


def ctx(number: int = 1, players: int = 4, rules: dict | None = None) -> DealContext:
    return DealContext(number=number, players=players, rules=ENGINE.options(rules))


def score(deal: dict, **where) -> list[int]:
    c = ctx(**where)
    scores = ENGINE.score_deal(ENGINE.validate_deal(deal, c), c).scores
    assert sum(scores) == 0
    return scores


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

REFUSALS = [
    # (case, deal, where, field)
    ("deal not an object", [], {}, "deal"),
    ("game missing", {"declarer": 1}, {}, "game"),
    ("game unknown", with_(RUF, game="ramsch"), {}, "game"),
    ("game not a text", with_(RUF, game=["solo"]), {}, "game"),
    ("unknown field", with_(RUF, kontra=True), {}, "kontra"),
    ("passed with a declarer", {"game": "passed", "declarer": 1}, {}, "declarer"),
    ("declarer missing", with_(SOLO, declarer=DROP), {}, "declarer"),
    ("declarer seat 0", with_(SOLO, declarer=0), {}, "declarer"),
    ("declarer seat 5 at a 4-table", with_(SOLO, declarer=5), {}, "declarer"),
    ("declarer as text", with_(SOLO, declarer="2"), {}, "declarer"),
    ("declarer as bool", with_(SOLO, declarer=True), {}, "declarer"),
    ("declarer as float", with_(SOLO, declarer=2.0), {}, "declarer"),
    ("declarer is the 5-table dealer", with_(SOLO, declarer=1), {"players": 5}, "declarer"),
    ("partner is the 5-table dealer", with_(RUF, declarer=2, partner=3),
     {"players": 5, "number": 3}, "partner"),
    ("partner is the declarer", with_(RUF, partner=1), {}, "partner"),
    ("partner missing", with_(RUF, partner=DROP), {}, "partner"),
    ("partner seat 6 at a 5-table", with_(RUF, declarer=2, partner=6), {"players": 5},
     "partner"),
    ("partner in a solo", with_(SOLO, partner=1), {}, "partner"),
    ("partner in a sie", with_(SIE, partner=1), {}, "partner"),
    ("called ace in a wenz", with_(WENZ, called_ace="bells"), {}, "called_ace"),
    ("called ace hearts", with_(RUF, called_ace="hearts"), {}, "called_ace"),
    ("called ace missing", with_(RUF, called_ace=DROP), {}, "called_ace"),
    ("called ace misspelt", with_(RUF, called_ace="Acorns"), {}, "called_ace"),
    ("suit in a rufspiel", with_(RUF, suit="hearts"), {}, "suit"),
    ("suit in a wenz", with_(WENZ, suit="hearts"), {}, "suit"),
    ("suit in a wenz tout", with_(WENZ_TOUT, suit="hearts"), {}, "suit"),
    ("suit in a sie", with_(SIE, suit="hearts"), {}, "suit"),
    ("suit missing in a solo", with_(SOLO, suit=DROP), {}, "suit"),
    ("suit missing in a solo tout", with_(SOLO_TOUT, suit=DROP), {}, "suit"),
    ("suit unknown", with_(SOLO, suit="diamonds"), {}, "suit"),
    ("points missing", with_(RUF, declarer_points=DROP), {}, "declarer_points"),
    ("points below 0", with_(RUF, declarer_points=-1), {}, "declarer_points"),
    ("points above 120", with_(RUF, declarer_points=121), {}, "declarer_points"),
    ("points as float", with_(RUF, declarer_points=61.0), {}, "declarer_points"),
    ("points as bool", with_(RUF, declarer_points=True), {}, "declarer_points"),
    ("points as text", with_(WENZ, declarer_points="61"), {}, "declarer_points"),
    ("schwarz not a bool", with_(RUF, schwarz=1), {}, "schwarz"),
    ("schwarz with 60 points", with_(RUF, declarer_points=60, schwarz=True), {}, "schwarz"),
    ("schwarz with 119 points", with_(SOLO, declarer_points=119, schwarz=True), {}, "schwarz"),
    ("schwarz with 1 point", with_(SOLO_TOUT, declarer_points=1), {}, "schwarz"),
    ("laufende below 0", with_(RUF, laufende=-1), {}, "laufende"),
    ("laufende above 14", with_(RUF, laufende=15), {}, "laufende"),
    ("laufende above 14 in a solo", with_(SOLO, laufende=15), {}, "laufende"),
    ("laufende above 4 in a wenz", with_(WENZ, laufende=5), {}, "laufende"),
    ("laufende above 4 in a wenz tout", with_(WENZ_TOUT, laufende=5), {}, "laufende"),
    ("laufende as bool", with_(RUF, laufende=True), {}, "laufende"),
    ("doublings below 0", with_(RUF, doublings=-1), {}, "doublings"),
    ("doublings above 4", with_(RUF, doublings=5), {}, "doublings"),
    ("doublings above 4 in a single game", with_(SOLO, doublings=5), {}, "doublings"),
    ("doublings as bool", with_(RUF, doublings=False), {}, "doublings"),
    ("sie short of 120", with_(SIE, declarer_points=119), {}, "declarer_points"),
    ("sie points as bool", with_(SIE, declarer_points=True), {}, "declarer_points"),
    ("sie not schwarz", with_(SIE, schwarz=False), {}, "schwarz"),
    ("sie schwarz as number", with_(SIE, schwarz=1), {}, "schwarz"),
    ("sie with 7 laufende", with_(SIE, laufende=7), {}, "laufende"),
    ("sie with 9 laufende", with_(SIE, laufende=9), {}, "laufende"),
    ("sie declarer missing", {"game": "sie"}, {}, "declarer"),
]


@pytest.mark.parametrize("deal, where, field", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_refused(deal, where, field):
    assert field in refused(deal, **where)


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

TOURNAMENT = [
    # (case, deal, where, scores)
    ("rufspiel won with 61", RUF, {}, [1, -1, 1, -1]),
    ("rufspiel lost with 60", with_(RUF, declarer_points=60), {}, [-1, 1, -1, 1]),
    ("rufspiel 90 is no schneider", with_(RUF, declarer_points=90), {}, [1, -1, 1, -1]),
    ("rufspiel won schneider with 91", with_(RUF, declarer_points=91), {}, [2, -2, 2, -2]),
    ("rufspiel 31 is lost without schneider", with_(RUF, declarer_points=31), {},
     [-1, 1, -1, 1]),
    ("rufspiel lost schneider with 30", with_(RUF, declarer_points=30), {}, [-2, 2, -2, 2]),
    ("rufspiel lost schneider with 0, not schwarz", with_(RUF, declarer_points=0), {},
     [-2, 2, -2, 2]),
    ("rufspiel lost schwarz: v = 1+1+1", with_(RUF, declarer_points=0, schwarz=True), {},
     [-3, 3, -3, 3]),
    ("rufspiel won schwarz", with_(RUF, declarer_points=120, schwarz=True), {},
     [3, -3, 3, -3]),
    ("rufspiel 120 without schwarz", with_(RUF, declarer_points=120), {}, [2, -2, 2, -2]),
    ("rufspiel 2 laufende score nothing", with_(RUF, laufende=2), {}, [1, -1, 1, -1]),
    ("rufspiel 3 laufende: v = 1+3", with_(RUF, laufende=3), {}, [4, -4, 4, -4]),
    ("rufspiel 14 laufende: v = 1+14", with_(RUF, laufende=14), {}, [15, -15, 15, -15]),
    ("rufspiel laufende count in a lost game", with_(RUF, declarer_points=50, laufende=3), {},
     [-4, 4, -4, 4]),
    ("rufspiel one doubling", with_(RUF, doublings=1), {}, [2, -2, 2, -2]),
    ("rufspiel four doublings: v = 16", with_(RUF, doublings=4), {}, [16, -16, 16, -16]),
    ("Spieler bleibt Spieler: doubled 60 is still lost",
     with_(RUF, declarer_points=60, doublings=2), {}, [-4, 4, -4, 4]),
    ("rufspiel 95, 4 laufende, Stoß: (1+1+4)·2", with_(RUF, declarer=4, partner=2,
                                                      declarer_points=95, laufende=4,
                                                      doublings=1), {},
     [-12, 12, -12, 12]),
    ("solo won", SOLO, {}, [-2, 6, -2, -2]),
    ("solo lost", with_(SOLO, declarer_points=50), {}, [2, -6, 2, 2]),
    ("solo won schneider, 3 laufende: v = 2+1+3", with_(SOLO, declarer_points=91, laufende=3),
     {}, [-6, 18, -6, -6]),
    ("solo 2 laufende score nothing", with_(SOLO, laufende=2), {}, [-2, 6, -2, -2]),
    ("solo lost schwarz, Stoß and Re: (2+1+1)·4", with_(SOLO, declarer_points=0, schwarz=True,
                                                       doublings=2), {},
     [16, -48, 16, 16]),
    ("wenz 1 laufender scores nothing", with_(WENZ, laufende=1), {}, [-2, 6, -2, -2]),
    ("wenz counts laufende from 2: v = 2+2", with_(WENZ, laufende=2), {}, [-4, 12, -4, -4]),
    ("wenz schwarz with 4 laufende: v = 2+1+1+4",
     with_(WENZ, declarer_points=120, schwarz=True, laufende=4), {}, [-8, 24, -8, -8]),
    ("solo tout won, 3 laufende: v = (2+3)·2", with_(SOLO_TOUT, laufende=3), {},
     [-10, 30, -10, -10]),
    ("solo tout 2 laufende score nothing: v = 2·2", with_(SOLO_TOUT, laufende=2), {},
     [-4, 12, -4, -4]),
    ("solo tout lost with 119", with_(SOLO_TOUT, declarer_points=119, schwarz=False,
                                      laufende=3), {},
     [10, -30, 10, 10]),
    ("solo tout lost with 120 but a 0-point trick lost",
     with_(SOLO_TOUT, schwarz=False), {}, [4, -12, 4, 4]),
    ("solo tout lost schwarz has no schneider or schwarz bonus",
     with_(SOLO_TOUT, declarer_points=0), {}, [4, -12, 4, 4]),
    ("solo tout won, two doublings: 2·2·4", with_(SOLO_TOUT, doublings=2), {},
     [-16, 48, -16, -16]),
    ("wenz tout won, 2 laufende: v = (2+2)·2", with_(WENZ_TOUT, laufende=2), {},
     [-8, 24, -8, -8]),
    ("wenz tout lost with 100", with_(WENZ_TOUT, declarer_points=100, schwarz=False), {},
     [4, -12, 4, 4]),
    ("sie: v = (2+8)·4", SIE, {}, [-40, 120, -40, -40]),
    ("sie with Stoß: v = 80", with_(SIE, doublings=1), {}, [-80, 240, -80, -80]),
    ("passed", PASSED, {}, [0, 0, 0, 0]),
    ("5-table, dealer 1 sits out", with_(RUF, declarer=2, partner=4), {"players": 5},
     [0, 1, -1, 1, -1]),
    ("5-table solo, dealer 2 sits out", with_(SOLO, declarer=3), {"players": 5, "number": 2},
     [-2, 0, 6, -2, -2]),
    ("5-table solo lost, dealer 5 sits out", with_(SOLO, declarer=1, declarer_points=30),
     {"players": 5, "number": 5}, [-9, 3, 3, 3, 0]),
    ("5-table passed", PASSED, {"players": 5}, [0, 0, 0, 0, 0]),
    ("5-table dealer of deal 6 is seat 1 again", with_(SIE, declarer=3),
     {"players": 5, "number": 6}, [0, -40, 120, -40, -40]),
]


@pytest.mark.parametrize("deal, where, expected", [r[1:] for r in TOURNAMENT],
                         ids=[r[0] for r in TOURNAMENT])
def test_tournament_tariff(deal, where, expected):
    assert score(deal, **where) == expected


OTHER_TARIFFS = [
    # (case, tariff, deal, scores)
    ("money_10_50 rufspiel schneider, 3 laufende: 10+10+30", "money_10_50",
     with_(RUF, declarer_points=91, laufende=3), [50, -50, 50, -50]),
    ("money_10_50 solo schneider, 4 laufende: 50+10+40", "money_10_50",
     with_(SOLO, declarer_points=100, laufende=4), [-100, 300, -100, -100]),
    ("money_10_50 wenz tout won: 50·2", "money_10_50", WENZ_TOUT, [-100, 300, -100, -100]),
    ("money_10_50 sie: (50+80)·4", "money_10_50", SIE, [-520, 1560, -520, -520]),
    ("money_20_50 rufspiel", "money_20_50", RUF, [20, -20, 20, -20]),
    ("money_20_50 rufspiel schwarz, 3 laufende: 20+10+10+30", "money_20_50",
     with_(RUF, declarer_points=120, schwarz=True, laufende=3), [70, -70, 70, -70]),
    ("money_20_50 solo lost", "money_20_50", with_(SOLO, declarer_points=40),
     [50, -150, 50, 50]),
    ("custom rufspiel schwarz, 4 laufende, Stoß: (5+3+7+8)·2", CUSTOM,
     with_(RUF, declarer_points=120, schwarz=True, laufende=4, doublings=1),
     [46, -46, 46, -46]),
    ("custom solo tout, 3 laufende: (15+6)·2", CUSTOM, with_(SOLO_TOUT, laufende=3),
     [-42, 126, -42, -42]),
    ("custom wenz, 2 laufende: 15+4", CUSTOM, with_(WENZ, declarer_points=70, laufende=2),
     [-19, 57, -19, -19]),
    ("custom sie: (15+16)·4", CUSTOM, SIE, [-124, 372, -124, -124]),
    ("custom all zero", dict.fromkeys(CUSTOM, 0), with_(SOLO, laufende=8), [0, 0, 0, 0]),
]


@pytest.mark.parametrize("tariff, deal, expected", [r[1:] for r in OTHER_TARIFFS],
                         ids=[r[0] for r in OTHER_TARIFFS])
def test_other_tariffs(tariff, deal, expected):
    assert score(deal, rules={"tariff": tariff}) == expected


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


BAD_RULES = [
    ("not an object", ["tariff"], "rules"),
    ("unknown option", {"kontra": True}, "rules.kontra"),
    ("round_deals as text", {"round_deals": "32"}, "rules.round_deals"),
    ("round_deals as bool", {"round_deals": True}, "rules.round_deals"),
    ("round_deals 0", {"round_deals": 0}, "rules.round_deals"),
    ("tariff unknown name", {"tariff": "money"}, "rules.tariff"),
    ("tariff a number", {"tariff": 5}, "rules.tariff"),
    ("tariff a list", {"tariff": [1, 2, 1, 1, 1]}, "rules.tariff"),
    ("tariff key missing", {"tariff": {k: 1 for k in list(CUSTOM)[:4]}},
     "rules.tariff.laufende"),
    ("tariff extra key", {"tariff": dict(CUSTOM, kontra=1)}, "rules.tariff.kontra"),
    ("tariff negative", {"tariff": dict(CUSTOM, schneider=-1)}, "rules.tariff.schneider"),
    ("tariff float", {"tariff": dict(CUSTOM, base_solo=2.5)}, "rules.tariff.base_solo"),
    ("tariff bool", {"tariff": dict(CUSTOM, schwarz=True)}, "rules.tariff.schwarz"),
    ("tariff text value", {"tariff": dict(CUSTOM, laufende="1")}, "rules.tariff.laufende"),
    ("tariff huge", {"tariff": dict(CUSTOM, base_rufspiel=1_000_000_000_000_000)},
     "rules.tariff.base_rufspiel"),
    ("tariff over its bound", {"tariff": dict(CUSTOM, base_solo=1001)},
     "rules.tariff.base_solo"),
    ("tariff 1e30", {"tariff": dict(CUSTOM, laufende=1e30)}, "rules.tariff.laufende"),
    ("round_deals huge", {"round_deals": 10**18}, "rules.round_deals"),
    ("round_deals 1e30", {"round_deals": 1e30}, "rules.round_deals"),
    ("round_deals over its bound", {"round_deals": 97}, "rules.round_deals"),
]


@pytest.mark.parametrize("rules, field", [r[1:] for r in BAD_RULES],
                         ids=[r[0] for r in BAD_RULES])
def test_bad_rules(rules, field):
    with pytest.raises(EngineUserError) as exc:
        ENGINE.options(rules)
    assert [e.field for e in exc.value.errors] == [field]


def test_every_bad_option_is_reported():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.options({"tariff": "x", "round_deals": -3, "y": 1})
    assert {e.field for e in exc.value.errors} == {"rules.tariff", "rules.round_deals",
                                                  "rules.y"}


def test_messages_render_their_parameters():
    with pytest.raises(EngineUserError) as exc:
        ENGINE.validate_deal(with_(SOLO, declarer=1), ctx(players=5))
    assert exc.value.errors[0].render() == "Seat 1 deals this hand and sits out."
