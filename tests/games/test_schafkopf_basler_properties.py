"""Invariants of the Schafkopf and Basler engines, checked on generated input.

- every valid Schafkopf deal sums to zero, and a 5-table dealer scores nothing;
- a valid Basler deal's two team scores add up to 55 (12 tricks + 3 for the last +
  40 card points) plus its meld and set values;
- ``score_sheet`` answers any JSON-like input with a result or an ``EngineUserError``,
  never another exception.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import DealContext, EngineUserError, get_engine
from games.engines.basler import COPIES, RANKS, SET_VALUES, TEAMS
from games.engines.schafkopf import SUITS, TARIFF_KEYS


def rank_split(captured: list[dict], rank: str) -> list[int]:
    """How many cards of ``rank`` each team holds in its tricks once all are played."""
    for entry in captured:
        if entry["rank"] == rank:
            team = TEAMS.index(entry["team"])
            split = [0, 0]
            split[team], split[1 - team] = entry["count"], COPIES - entry["count"]
            return split
    return [COPIES // 2, COPIES // 2]  # three of one team would be a set


SCHAFKOPF = get_engine("schafkopf")
BASLER = get_engine("basler")

FEW = settings(max_examples=150, deadline=None,
               suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(FEW, max_examples=100)

# --------------------------------------------------------------------------- valid deals


tariffs = st.one_of(
    st.sampled_from(["tournament", "money_10_50", "money_20_50"]),
    st.fixed_dictionaries({key: st.integers(0, 100) for key in TARIFF_KEYS}),
)


@st.composite
def schafkopf_deals(draw, ctx: DealContext) -> dict:
    game = draw(st.sampled_from(["rufspiel", "wenz", "solo", "wenz_tout", "solo_tout",
                                 "sie", "passed"]))
    if game == "passed":
        return {"game": game}
    active = SCHAFKOPF.active_seats(ctx)
    deal = {"game": game, "declarer": draw(st.sampled_from(active)),
            "doublings": draw(st.integers(0, 4))}
    if game == "sie":
        return deal
    if game == "rufspiel":
        deal["partner"] = draw(st.sampled_from([s for s in active if s != deal["declarer"]]))
        deal["called_ace"] = draw(st.sampled_from(["acorns", "leaves", "bells"]))
    if game in ("solo", "solo_tout"):
        deal["suit"] = draw(st.sampled_from(SUITS))
    points = draw(st.integers(0, 120))
    deal["declarer_points"] = points
    deal["schwarz"] = points in (0, 120) and draw(st.booleans())
    deal["laufende"] = draw(st.integers(0, 4 if game.startswith("wenz") else 14))
    return deal


@FEW
@given(st.data(), st.sampled_from([4, 5]), st.integers(1, 40), tariffs)
def test_every_schafkopf_deal_sums_to_zero(data, players, number, tariff):
    ctx = DealContext(number=number, players=players,
                      rules=SCHAFKOPF.options({"tariff": tariff}))
    deal = data.draw(schafkopf_deals(ctx))
    scored = SCHAFKOPF.score_deal(SCHAFKOPF.validate_deal(deal, ctx), ctx)
    assert len(scored.scores) == players
    assert sum(scored.scores) == 0
    if players == 5:
        assert scored.scores[ctx.dealer - 1] == 0


@st.composite
def basler_deals(draw) -> dict:
    # how many cards of each set rank team A ends with; B holds the rest
    held_a = {rank: draw(st.integers(0, 4)) for rank in RANKS}
    captured = [{"team": "A" if n >= 3 else "B", "rank": rank, "count": max(n, 4 - n)}
                for rank, n in held_a.items() if n != 2]
    cards_a = sum(held_a.values())
    # 24 cards of ranks that form no sets can fill either team's tricks
    tricks_a = draw(st.integers(-(-cards_a // 4), (48 - (24 - cards_a)) // 4))
    tricks = [tricks_a, 12 - tricks_a]
    last = draw(st.sampled_from([t for t, n in zip("AB", tricks, strict=True) if n > 0]))
    points = [sum(value * rank_split(captured, rank)[team]
                  for rank, value in {"king": 4, "ober": 3, "unter": 2, "banner": 1}.items())
              for team in (0, 1)]
    melds, hands = [], dict.fromkeys((1, 2, 3, 4), 0)
    for rank in draw(st.lists(st.sampled_from(RANKS), unique=True)):
        seat, count = draw(st.sampled_from((1, 2, 3, 4))), draw(st.sampled_from((3, 4)))
        if hands[seat] + count <= 12:
            hands[seat] += count
            melds.append({"seat": seat, "rank": rank, "count": count})
    return {"tricks": tricks, "last_trick": last, "card_points": points,
            "melds": melds, "captured": draw(st.permutations(captured))}


@FEW
@given(basler_deals())
def test_basler_teams_add_up_to_55_plus_sets(deal):
    ctx = DealContext(number=1, players=4, rules=BASLER.options({}))
    scored = BASLER.score_deal(BASLER.validate_deal(deal, ctx), ctx)
    a, b = scored.scores[0], scored.scores[1]
    assert scored.scores == [a, b, a, b]
    sets = sum(SET_VALUES[e["rank"]] * (2 if e["count"] == 4 else 1)
               for e in deal["melds"] + deal["captured"])
    assert a + b == 55 + sets


# --------------------------------------------------------------------------- arbitrary input

FIELD_NAMES = ["game", "declarer", "partner", "called_ace", "suit", "declarer_points",
               "schwarz", "laufende", "doublings", "tricks", "last_trick", "card_points",
               "melds", "captured", "seat", "team", "rank", "count", "tariff", "round_deals"]
WORDS = ["rufspiel", "wenz", "solo", "wenz_tout", "solo_tout", "sie", "passed", "acorns",
         "leaves", "hearts", "bells", "A", "B", "king", "ober", "seven", "two", "unter",
         "banner", "tournament", "money_10_50", *TARIFF_KEYS]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 130), st.integers(),
    st.floats(allow_nan=True), st.text(max_size=5), st.sampled_from(WORDS),
)
keys = st.one_of(st.sampled_from([*FIELD_NAMES, *TARIFF_KEYS]), st.text(max_size=4))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(keys, inner, max_size=6)),
    max_leaves=12,
)
# near-valid records reach the deeper checks that random JSON rarely gets past
plausible = st.one_of(
    st.integers(-1, 121), st.booleans(), st.sampled_from(WORDS),
    st.lists(st.integers(-1, 41), max_size=3),
    st.lists(st.fixed_dictionaries({}, optional={
        "seat": st.integers(0, 5), "team": st.sampled_from(["A", "B", "C"]),
        "rank": st.sampled_from(WORDS), "count": st.integers(2, 5)}), max_size=3),
)
near_deals = st.one_of(
    st.builds(lambda base, more: {**base, **more},
              st.sampled_from([
                  {"game": "rufspiel", "declarer": 1, "partner": 3, "called_ace": "bells",
                   "declarer_points": 70},
                  {"game": "sie", "declarer": 2},
                  {"game": "solo_tout", "declarer": 2, "suit": "hearts",
                   "declarer_points": 120, "schwarz": True},
                  {"tricks": [6, 6], "last_trick": "A", "card_points": [20, 20]},
                  {"tricks": [7, 5], "last_trick": "B", "card_points": [23, 17],
                   "captured": [{"team": "A", "rank": "ober", "count": 3}],
                   "melds": [{"seat": 2, "rank": "two", "count": 4}]},
              ]),
              st.one_of(st.dictionaries(st.sampled_from(FIELD_NAMES), plausible, max_size=2),
                        st.dictionaries(keys, json_values, max_size=2))),
    json_values,
)
rules_values = st.one_of(
    st.none(),
    st.fixed_dictionaries({}, optional={"tariff": st.one_of(tariffs, json_values),
                                        "round_deals": st.one_of(st.integers(-2, 6),
                                                                 json_values)}),
    json_values,
)
players_values = st.one_of(st.sampled_from([3, 4, 5]), json_values)


def answers_or_refuses(engine, deals, players, rules):
    try:
        engine.score_sheet(deals, players, rules)
    except EngineUserError as exc:
        assert all(isinstance(e.field, str) and e.render() for e in exc.errors)


@FUZZ
@given(st.one_of(st.lists(near_deals, max_size=4), json_values), players_values, rules_values)
def test_schafkopf_sheet_answers_any_json(deals, players, rules):
    answers_or_refuses(SCHAFKOPF, deals, players, rules)


@FUZZ
@given(st.one_of(st.lists(near_deals, max_size=4), json_values), players_values, rules_values)
def test_basler_sheet_answers_any_json(deals, players, rules):
    answers_or_refuses(BASLER, deals, players, rules)


@FEW
@given(st.integers(0, 12), st.lists(st.sampled_from([3, 4]), min_size=1, max_size=6))
def test_basler_captured_sets_must_fit_in_the_team_tricks(tricks_a, counts):
    """Games.md §4: the cards of all a team's captured sets fit in its tricks (≤ 4 × tricks)."""
    captured = [{"team": "A", "rank": rank, "count": n}
                for rank, n in zip(("seven", "two", "unter", "banner", "ober", "king"), counts,
                                   strict=False)]
    in_sets = sum(counts)
    points_a = sum({"king": 4, "ober": 3, "unter": 2, "banner": 1}.get(e["rank"], 0) * e["count"]
                   for e in captured)
    deal = {"tricks": [tricks_a, 12 - tricks_a], "last_trick": "A" if tricks_a else "B",
            "card_points": [points_a, 40 - points_a], "captured": captured}
    ctx = DealContext(number=1, players=4, rules=BASLER.options({}))
    if in_sets <= 4 * tricks_a:
        BASLER.validate_deal(deal, ctx)
    else:
        with pytest.raises(EngineUserError) as exc:
            BASLER.validate_deal(deal, ctx)
        assert {e.field.rsplit(".", 1)[-1] for e in exc.value.errors} == {"count"}
