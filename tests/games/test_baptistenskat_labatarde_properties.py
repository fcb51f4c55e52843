"""Invariants of the Baptistenskat and La Bâtarde engines, checked with hypothesis.

- La Bâtarde penalties are never negative and are zero exactly for met bids.
- A Baptistenskat partie's totals do not depend on the order of its deals.
- ``score_sheet`` either returns or raises ``EngineUserError`` for any JSON input.
"""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import DealContext, EngineUserError, ScoredDeal, get_engine
from games.engines.baptistenskat import cards_in_deal
from games.engines.labatarde import SCHEDULES, pack_size

BAPTISTENSKAT = get_engine("baptistenskat")
BATARDE = get_engine("labatarde")
MODEST = settings(max_examples=150, deadline=None)


@st.composite
def tricks_of(draw, players, cards):
    """Trick counts per seat: each trick goes to some seat."""
    winners = draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    counts = Counter(winners)
    return [counts[seat] for seat in range(players)]


@st.composite
def bids_of(draw, players, cards, add_up_allowed):
    bids = st.lists(st.integers(0, cards), min_size=players, max_size=players)
    if not add_up_allowed:
        bids = bids.filter(lambda b: sum(b) != cards)
    return draw(bids)


@st.composite
def batarde_deal(draw, players, number):
    cards = SCHEDULES[players][number - 1]
    record = {"cards": cards, "trump": draw(st.sampled_from(("all", "spades", "none"))),
              "bids": draw(bids_of(players, cards, add_up_allowed=False)),
              "tricks": draw(tricks_of(players, cards))}
    if pack_size(players) == 72:
        record["preference"] = draw(st.sampled_from(("marked", "simple")))
    mechoune = draw(st.none() | st.integers(1, players))
    if mechoune is not None:
        record["mechoune"] = mechoune
        record["choune"] = draw(st.booleans())
    return record


@st.composite
def batarde_sheet(draw):
    players = draw(st.sampled_from(sorted(SCHEDULES)))
    count = draw(st.integers(0, len(SCHEDULES[players])))
    return players, [draw(batarde_deal(players, n)) for n in range(1, count + 1)]


@st.composite
def baptistenskat_deal(draw, players, number, profi_rule=False):
    cards = cards_in_deal(number, players)
    return {"cards": cards, "trump": draw(st.sampled_from(("red", "yellow", "green", "blue"))),
            "bids": draw(bids_of(players, cards, add_up_allowed=not profi_rule)),
            "tricks": draw(tricks_of(players, cards))}


@st.composite
def baptistenskat_sheet(draw):
    players = draw(st.integers(3, 6))
    rules = {"rounds": draw(st.integers(1, 12)), "profi_rule": draw(st.booleans())}
    length = BAPTISTENSKAT.sheet_length(players, BAPTISTENSKAT.options(rules))
    count = draw(st.integers(0, length))
    deals = [draw(baptistenskat_deal(players, n, rules["profi_rule"]))
             for n in range(1, count + 1)]
    return players, rules, deals


# --------------------------------------------------------------------------- La Bâtarde


@MODEST
@given(st.data())
def test_batarde_penalties_are_never_negative_and_zero_exactly_when_met(data):
    players = data.draw(st.sampled_from(sorted(SCHEDULES)))
    number = data.draw(st.integers(1, len(SCHEDULES[players])))
    ctx = DealContext(number, players, BATARDE.options({}))
    record = BATARDE.validate_deal(data.draw(batarde_deal(players, number)), ctx)
    scores = BATARDE.score_deal(record, ctx).scores
    for bid, took, penalty in zip(record["bids"], record["tricks"], scores, strict=True):
        assert penalty >= 0
        assert (penalty == 0) == (bid == took)
        assert penalty in (abs(bid - took), 2 * abs(bid - took), 4 * abs(bid - took))


@MODEST
@given(batarde_sheet())
def test_batarde_valid_sheets_score(sheet):
    players, deals = sheet
    result = BATARDE.score_sheet(deals, players)
    assert result.complete == (len(deals) == len(SCHEDULES[players]))
    assert all(row["score"] >= 0 for row in result.totals)


# --------------------------------------------------------------------------- Baptistenskat


def score_in_order(sheet_deals, players, rules):
    """Score (number, record) pairs in the given order, as a sheet's deals."""
    opts = BAPTISTENSKAT.options(rules)
    scored = []
    for number, record in sheet_deals:
        ctx = DealContext(number, players, opts)
        scored.append(BAPTISTENSKAT.score_deal(BAPTISTENSKAT.validate_deal(record, ctx), ctx))
    return BAPTISTENSKAT.sheet_totals(scored, players, opts)


@MODEST
@given(baptistenskat_sheet(), st.randoms(use_true_random=False))
def test_baptistenskat_totals_do_not_depend_on_deal_order(sheet, rnd):
    players, rules, deals = sheet
    numbered = list(enumerate(deals, start=1))
    shuffled = numbered[:]
    rnd.shuffle(shuffled)
    assert score_in_order(shuffled, players, rules) == score_in_order(numbered, players, rules)
    assert score_in_order(numbered, players, rules) == \
        BAPTISTENSKAT.score_sheet(deals, players, rules).totals


@MODEST
@given(st.data())
def test_baptistenskat_same_card_deals_in_any_order(data):
    players = data.draw(st.integers(3, 6))
    number = data.draw(st.integers(1, 7))
    records = data.draw(st.lists(baptistenskat_deal(players, number), max_size=6))
    order = data.draw(st.permutations(range(len(records))))
    ctx = DealContext(number, players, BAPTISTENSKAT.options({}))
    scored = [BAPTISTENSKAT.score_deal(BAPTISTENSKAT.validate_deal(r, ctx), ctx) for r in records]
    permuted = [ScoredDeal(scored[i].record, scored[i].scores) for i in order]
    assert BAPTISTENSKAT.sheet_totals(permuted, players, ctx.rules) == \
        BAPTISTENSKAT.sheet_totals(scored, players, ctx.rules)


@MODEST
@given(st.data())
def test_baptistenskat_met_bids_gain_missed_bids_lose(data):
    players = data.draw(st.integers(3, 6))
    number = data.draw(st.integers(1, 7))
    ctx = DealContext(number, players, BAPTISTENSKAT.options({}))
    record = BAPTISTENSKAT.validate_deal(data.draw(baptistenskat_deal(players, number)), ctx)
    scores = BAPTISTENSKAT.score_deal(record, ctx).scores
    top_met = max((b for b, t in zip(record["bids"], record["tricks"], strict=True)
                   if b == t and b > 0), default=None)
    for bid, took, points in zip(record["bids"], record["tricks"], scores, strict=True):
        if bid == 0:
            assert abs(points) == 10 * max(record["bids"])
        elif bid == took:
            assert points == (20 if bid == top_met else 10) * bid
        else:
            assert points == -10 * abs(bid - took) < 0


# --------------------------------------------------------------------------- never a crash

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)
DEAL_KEYS = ("cards", "trump", "bids", "tricks", "preference", "mechoune", "choune", "x")
PLAUSIBLE = (st.integers(-1, 15) | st.booleans() | st.none()
             | st.sampled_from(("red", "all", "none", "marked", "simple"))
             | st.lists(st.integers(-1, 15) | st.booleans(), max_size=8))
DEAL_LIKE = st.dictionaries(st.sampled_from(DEAL_KEYS), PLAUSIBLE | JSON, max_size=8)
RULES_LIKE = st.dictionaries(st.sampled_from(("rounds", "profi_rule", "x")),
                             st.integers(-2, 30) | st.booleans() | JSON, max_size=3)


def mutated(sheets):
    """Valid sheets with one field of one deal replaced: errors deep in the checks."""
    @st.composite
    def build(draw):
        players, rules, deals = draw(sheets)
        deals = list(deals)
        if deals:
            index = draw(st.integers(0, len(deals) - 1))
            deals[index] = {**deals[index],
                            draw(st.sampled_from(DEAL_KEYS)): draw(PLAUSIBLE | JSON)}
        return deals, players, rules
    return build()


def only_user_errors(engine, deals, players, rules):
    try:
        result = engine.score_sheet(deals, players, rules)
    except EngineUserError as exc:
        assert exc.errors and all(isinstance(e.render(), str) for e in exc.errors)
    else:
        assert len(result.totals) == players


ARBITRARY = (st.lists(DEAL_LIKE | JSON, max_size=4) | JSON,
             st.integers(0, 8) | JSON,
             RULES_LIKE | JSON)
BAPTISTENSKAT_NEAR = mutated(baptistenskat_sheet())
BATARDE_NEAR = mutated(batarde_sheet().map(lambda s: (s[0], {}, s[1])))


@MODEST
@given(*ARBITRARY)
def test_baptistenskat_arbitrary_input_never_crashes(deals, players, rules):
    only_user_errors(BAPTISTENSKAT, deals, players, rules)


@MODEST
@given(BAPTISTENSKAT_NEAR)
def test_baptistenskat_nearly_valid_input_never_crashes(case):
    only_user_errors(BAPTISTENSKAT, *case)


@MODEST
@given(*ARBITRARY)
def test_batarde_arbitrary_input_never_crashes(deals, players, rules):
    only_user_errors(BATARDE, deals, players, rules)


@MODEST
@given(BATARDE_NEAR)
def test_batarde_nearly_valid_input_never_crashes(case):
    only_user_errors(BATARDE, *case)
