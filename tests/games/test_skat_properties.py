"""Skat engine invariants: order independence, lost = −2 × won, B at a 4-table, and
no input ever escapes as anything but ``EngineUserError``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.engines.base import DealContext, EngineUserError
from games.engines.skat import (
    DECLARER_FIELDS,
    GAMES,
    LEGAL_BIDS,
    RAMSCH_FIELDS,
    declared_value,
)

ENGINE = get_engine("skat")
RULES = ENGINE.options({"ramsch": True, "kontra_re": True})
SORTED_BIDS = sorted(LEGAL_BIDS[24])
FEW = settings(max_examples=40, deadline=None,
               suppress_health_check=[HealthCheck.too_slow])


def dealer(number: int, players: int) -> int:
    return (number - 1) % players + 1


def active(number: int, players: int) -> list[int]:
    seats = list(range(1, players + 1))
    return [s for s in seats if s != dealer(number, players)] if players == 4 else seats


# --------------------------------------------------------------------------- valid deals


@st.composite
def null_games(draw, declarer: int) -> dict:
    deal = {"declarer": declarer, "game": "null", "hand": draw(st.booleans()),
            "ouvert": draw(st.booleans())}
    bid = draw(st.none() | st.sampled_from(SORTED_BIDS[:20]))
    value = declared_value(deal, RULES)
    deal["won"] = draw(st.booleans()) and (bid is None or bid <= value)
    if bid is not None:
        deal["bid"] = bid
    return deal


@st.composite
def trump_games(draw, declarer: int) -> dict:
    """A suit or grand game whose flags, points, bid and result agree by construction."""
    kind = draw(st.sampled_from(GAMES[:-1]))
    top = 4 if kind == "grand" else 11
    ouvert = draw(st.booleans())
    hand = ouvert or draw(st.booleans())
    schneider_announced = ouvert or (hand and draw(st.booleans()))
    schwarz_announced = ouvert or (schneider_announced and draw(st.booleans()))
    points = draw(st.integers(0, 120))
    schneider = points >= 90 or points <= 30
    # schwarz: every trick (120) or none, the Skat (0..22) staying the declarer's
    schwarz = (points == 120 or points <= 22) and draw(st.booleans())
    deal = {"declarer": declarer, "game": kind,
            "matadors": draw(st.integers(1, top)) * draw(st.sampled_from([1, -1])),
            "hand": hand, "ouvert": ouvert, "schneider": schneider, "schwarz": schwarz,
            "schneider_announced": schneider_announced,
            "schwarz_announced": schwarz_announced}
    bid = draw(st.none() | st.sampled_from(SORTED_BIDS))
    missed = (schneider_announced and not schneider) or (schwarz_announced and not schwarz)
    overbid = bid is not None and bid > declared_value(deal, RULES)
    deal["won"] = points >= 61 and not missed and not overbid
    if bid is not None:
        deal["bid"] = bid
    if draw(st.booleans()):
        deal["declarer_points"] = points
    return deal


@st.composite
def ramsch_deals(draw, seats: list[int]) -> dict:
    skat = draw(st.integers(0, 22))
    rest = 120 - skat
    first = draw(st.integers(0, rest))
    second = draw(st.integers(0, rest - first))
    points = [first, second, rest - first - second]
    deal = {"ramsch": True, "points": points, "skat_points": skat}
    most = max(points)
    if points.count(rest) == 1 and draw(st.booleans()):
        deal["durchmarsch"] = seats[points.index(rest)]
    elif any(p == 0 for p in points if p != most):
        deal["jungfrau"] = draw(st.booleans())
    return deal


@st.composite
def deals_at(draw, number: int, players: int, kontra: bool = True) -> dict:
    """Any valid deal for deal ``number`` under ``RULES``."""
    seats = active(number, players)
    kind = draw(st.sampled_from(["trump", "trump", "null", "passed", "ramsch"]))
    if kind == "passed":
        return {"passed": True}
    if kind == "ramsch":
        return draw(ramsch_deals(seats))
    declarer = draw(st.sampled_from(seats))
    deal = draw(trump_games(declarer) if kind == "trump" else null_games(declarer))
    if kontra and draw(st.booleans()):
        deal["kontra"] = True
        deal["re"] = draw(st.booleans())
    return deal


@st.composite
def sheets(draw, players: int, max_deals: int = 12) -> list[dict]:
    count = draw(st.integers(0, max_deals))
    return [draw(deals_at(n, players)) for n in range(1, count + 1)]


def totals(deals: list[dict], players: int, rules: dict = RULES) -> list[dict]:
    return ENGINE.score_sheet(deals, players, rules).totals


# --------------------------------------------------------------------------- properties


@FEW
@given(st.data())
def test_generated_deals_are_valid_and_validation_is_idempotent(data):
    players = data.draw(st.sampled_from([3, 4]))
    number = data.draw(st.integers(1, 36))
    deal = data.draw(deals_at(number, players))
    ctx = DealContext(number, players, RULES)
    record = ENGINE.validate_deal(deal, ctx)
    assert ENGINE.validate_deal(record, ctx) == record
    assert ENGINE.score_deal(record, ctx).scores[dealer(number, players) - 1] == 0 \
        or players == 3


@FEW
@given(sheets(3), st.randoms(use_true_random=False))
def test_totals_do_not_depend_on_the_order_of_deals_at_a_3_table(deals, rng):
    shuffled = list(deals)
    rng.shuffle(shuffled)
    assert totals(shuffled, 3) == totals(deals, 3)


@FEW
@given(sheets(4, max_deals=16), st.randoms(use_true_random=False))
def test_totals_do_not_depend_on_the_order_of_deals_at_a_4_table(deals, rng):
    # deals keep their dealer: they move only between positions with the same dealer
    shuffled = list(deals)
    for residue in range(4):
        positions = list(range(residue, len(deals), 4))
        moved = [deals[i] for i in positions]
        rng.shuffle(moved)
        for i, deal in zip(positions, moved, strict=True):
            shuffled[i] = deal
    assert totals(shuffled, 4) == totals(deals, 4)


@st.composite
def won_and_lost(draw) -> tuple[dict, dict]:
    """The same game, once won and once lost (no points, no bid: both are valid)."""
    deal = draw(trump_games(1) | null_games(1))
    for name in ("bid", "declarer_points"):
        deal.pop(name, None)
    if deal["game"] != "null":
        # a won game reached every announced level
        deal["schneider"] = deal["schneider"] or deal["schneider_announced"]
        deal["schwarz"] = deal["schwarz"] or deal["schwarz_announced"]
        deal["schneider"] = deal["schneider"] or deal["schwarz"]
    return {**deal, "won": True}, {**deal, "won": False}


@FEW
@given(won_and_lost(), st.booleans(), st.sampled_from([{}, {"kontra": True},
                                                       {"kontra": True, "re": True}]))
def test_lost_game_scores_minus_twice_the_won_value(pair, single, doubling):
    won, lost = ({**deal, **doubling} for deal in pair)
    rules = ENGINE.options({"lost_hand_single": single, "kontra_re": True})
    ctx = DealContext(1, 3, rules)
    won_score = ENGINE.score_deal(ENGINE.validate_deal(won, ctx), ctx).scores[0]
    lost_score = ENGINE.score_deal(ENGINE.validate_deal(lost, ctx), ctx).scores[0]
    hand = ENGINE.validate_deal(won, ctx)["hand"]
    assert won_score > 0
    assert lost_score == -(1 if single and hand else 2) * won_score


@FEW
@given(sheets(4, max_deals=16), st.data())
def test_each_lost_game_gives_the_three_other_seats_30_at_a_4_table(deals, data):
    number = len(deals) + 1
    declarer = data.draw(st.sampled_from(active(number, 4)))
    lost = {**data.draw(trump_games(declarer) | null_games(declarer)), "won": False}
    lost.pop("declarer_points", None)
    before = totals(deals, 4)
    after = ENGINE.score_sheet([*deals, lost], 4, RULES)
    deal_score = after.deals[-1].scores[declarer - 1]
    for old, new in zip(before, after.totals, strict=True):
        gained = new["score"] - old["score"]
        if new["seat"] == declarer:
            assert gained == deal_score - 50
        else:
            assert gained == 30
    assert sum(row["lost"] for row in after.totals) == \
        sum(row["lost"] for row in before) + 1


@FEW
@given(sheets(3), sheets(4))
def test_b_is_paid_for_every_lost_game_of_the_others(three, four):
    for deals, players, bonus in ((three, 3, 40), (four, 4, 30)):
        rows = totals(deals, players)
        lost = sum(row["lost"] for row in rows)
        for row in rows:
            assert row["score"] == row["game_points"] + 50 * (row["won"] - row["lost"]) \
                + bonus * (lost - row["lost"])


@FEW
@given(sheets(4))
def test_summary_of_a_sheet_gives_its_totals(deals):
    rows = totals(deals, 4)
    seats = [{k: row[k] for k in ("game_points", "won", "lost")} for row in rows]
    assert ENGINE.summary_totals(seats, 4, RULES) == rows


# --------------------------------------------------------------------------- fuzzing

FIELD_NAMES = sorted(DECLARER_FIELDS | RAMSCH_FIELDS) + ["game_points", "won", "lost"]
SCALARS = (st.none() | st.booleans() | st.integers(-300, 400) | st.integers()
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=6)
           | st.sampled_from([*GAMES, "x", 18, 23, 61, 120]))
JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=8), children,
                      max_size=6),
    max_leaves=15)
OPTION_NAMES = [*ENGINE.OPTIONS, "tariff"]
RULES_JSON = (st.none() | JSON
              | st.dictionaries(st.sampled_from(OPTION_NAMES), SCALARS, max_size=4))


@st.composite
def mutated_sheets(draw) -> tuple[list, int]:
    """A valid sheet with a few fields replaced by arbitrary JSON: reaches deep checks."""
    players = draw(st.sampled_from([3, 4]))
    deals = draw(sheets(players, max_deals=6))
    for deal in deals:
        for _ in range(draw(st.integers(0, 2))):
            deal[draw(st.sampled_from(FIELD_NAMES))] = draw(JSON)
    return deals, players


def only_user_errors(call) -> None:
    try:
        call()
    except EngineUserError as exc:
        assert exc.errors
        for error in exc.errors:
            assert isinstance(error.field, str) and error.field
            assert error.render()


@settings(max_examples=60, deadline=None)
@given(JSON | st.lists(JSON, max_size=6), JSON, RULES_JSON)
def test_score_sheet_raises_only_user_errors_for_any_json(deals, players, rules):
    only_user_errors(lambda: ENGINE.score_sheet(deals, players, rules))


@settings(max_examples=60, deadline=None)
@given(mutated_sheets(), RULES_JSON)
def test_score_sheet_raises_only_user_errors_for_mutated_deals(sheet, rules):
    deals, players = sheet
    only_user_errors(lambda: ENGINE.score_sheet(deals, players, RULES))
    only_user_errors(lambda: ENGINE.score_sheet(deals, players, rules))


@settings(max_examples=50, deadline=None)
@given(JSON | st.lists(JSON, min_size=3, max_size=4), JSON | st.sampled_from([3, 4]),
       RULES_JSON)
def test_summary_raises_only_user_errors_for_any_json(seats, players, rules):
    only_user_errors(lambda: ENGINE.summary_totals(seats, players, rules))
