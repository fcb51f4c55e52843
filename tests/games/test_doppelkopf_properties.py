"""Invariants of the Doppelkopf engine (games.md §8.4), checked on generated deals.

- without penalties every deal sums to zero and the playing seats' scores are all even or
  all odd (Gerade-Ungerade-Regel, TSR 7.3.3);
- a party's Absage raises what it needs: with an Absage it wins at most where it won
  without one;
- Sonderpunkte count in normal-scored games only: in a solo any given one is refused, and
  in a normal game each one moves the value by one;
- ``score_sheet`` answers any JSON-like input with a result or an ``EngineUserError``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engines import DealContext, EngineUserError, get_engine
from games.engines.doppelkopf import (
    KONTRA_LEVELS,
    PARTIES,
    RE_LEVELS,
    SOLOS,
    game_value,
    is_solo_scored,
)

ENGINE = get_engine("doppelkopf")
RULES = ENGINE.options({})
FEW = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

IMPOSSIBLE = {1, 239}  # no card is worth 1 Augen


@st.composite
def doppelkopf_deals(draw, ctx: DealContext) -> dict:
    """A valid full record (no penalties) at a table where ``ctx.dealer`` deals."""
    active = ENGINE.active_seats(ctx)
    game = draw(st.sampled_from(("normal", "hochzeit", "stille_hochzeit") + SOLOS))
    solo = game in SOLOS or game == "stille_hochzeit" or (
        game == "hochzeit" and draw(st.booleans()))
    re = draw(st.permutations(active))[:1 if solo else 2]
    points = draw(st.integers(0, 240).filter(lambda p: p not in IMPOSSIBLE))
    schwarz = None
    if points == 240 and draw(st.booleans()):
        schwarz = "kontra"
    if points == 0 and game != "hochzeit" and draw(st.booleans()):
        schwarz = "re"
    deal = {"game": game, "re": re, "re_points": points, "schwarz": schwarz,
            "announcements": {"re": draw(st.sampled_from(RE_LEVELS)),
                              "kontra": draw(st.sampled_from(KONTRA_LEVELS))}}
    if not solo:
        deal["extras"] = draw(extras(points, schwarz))
    return deal


@st.composite
def extras(draw, points: int, schwarz: str | None) -> dict:
    out = {}
    left = {"fuchs": 2, "doppelkopf": 4, "karlchen": 1}
    for party, augen in (("re", points), ("kontra", 240 - points)):
        if schwarz == party:
            out[party] = {}
            continue
        fuchs = draw(st.integers(0, min(left["fuchs"], augen // 11)))
        dk = draw(st.integers(0, min(left["doppelkopf"], augen // 40)))
        karlchen = left["karlchen"] > 0 and augen >= 2 and draw(st.booleans())
        left["fuchs"] -= fuchs
        left["doppelkopf"] -= dk
        left["karlchen"] -= karlchen
        out[party] = {"fuchs": fuchs, "doppelkopf": dk, "karlchen": karlchen}
    return out


contexts = st.builds(lambda players, number: DealContext(number, players, RULES),
                     st.sampled_from([4, 5]), st.integers(1, 10))


@FEW
@given(data=st.data(), ctx=contexts)
def test_zero_sum_and_parity_without_penalties(data, ctx):
    scored = ENGINE.score_deal(ENGINE.validate_deal(data.draw(doppelkopf_deals(ctx)), ctx),
                               ctx)
    assert sum(scored.scores) == 0
    active = ENGINE.active_seats(ctx)
    assert len({scored.scores[s - 1] % 2 for s in active}) == 1
    if ctx.players == 5:
        assert scored.scores[ctx.dealer - 1] == 0


@FEW
@given(data=st.data(), party=st.sampled_from(PARTIES), stage=st.integers(2, 5))
def test_an_absage_raises_what_a_party_needs(data, party, stage):
    ctx = DealContext(1, 4, RULES)
    deal = data.draw(doppelkopf_deals(ctx))
    record = ENGINE.validate_deal(deal, ctx)
    other = "kontra" if party == "re" else "re"
    assume(record["announcements"][other] in (None, "re", "kontra"))
    plain = dict(record, announcements={party: None, other: record["announcements"][other]})
    raised = dict(record, announcements={party: (RE_LEVELS if party == "re"
                                                 else KONTRA_LEVELS)[stage],
                                         other: record["announcements"][other]})
    _, before = game_value(plain, RULES)
    _, after = game_value(raised, RULES)
    if after == party:
        assert before == party


@FEW
@given(data=st.data())
def test_sonderpunkte_only_in_normal_scored_games(data):
    ctx = DealContext(1, 4, RULES)
    deal = data.draw(doppelkopf_deals(ctx))
    record = ENGINE.validate_deal(deal, ctx)
    party = data.draw(st.sampled_from(PARTIES))
    assume(record["schwarz"] != party)
    augen = record["re_points"] if party == "re" else 240 - record["re_points"]
    assume(augen >= 2)
    if is_solo_scored(record):
        try:
            ENGINE.validate_deal({**deal, "extras": {party: {"karlchen": True}}}, ctx)
        except EngineUserError as exc:
            assert {e.field for e in exc.errors} == {f"extras.{party}"}
        else:
            raise AssertionError("a Sonderpunkt in a solo was accepted")
        return
    assume(not any(record["extras"][p]["karlchen"] for p in PARTIES))
    with_karlchen = {**record, "extras": {**record["extras"],
                                          party: {**record["extras"][party],
                                                  "karlchen": True}}}
    ENGINE.validate_deal(with_karlchen, ctx)
    step = 1 if party == "re" else -1
    value, _ = game_value(record, RULES)
    more, _ = game_value(with_karlchen, RULES)
    assert more == value + step


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.sampled_from(
        ["normal", "solo", "re", "kontra", "no90", "schwarz", "time_up", "annulled",
         "minor", "serious", "hochzeit"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["game", "re", "re_points", "schwarz", "announcements", "extras",
                         "value", "winner", "penalties", "seat", "kind", "fuchs",
                         "karlchen", "kontra"]), inner, max_size=5),
    max_leaves=12)


@settings(FEW, max_examples=100)
@given(deals=st.lists(json_values, max_size=4), players=st.sampled_from([4, 5, "4", None]))
def test_score_sheet_answers_any_input(deals, players):
    try:
        ENGINE.score_sheet(deals, players, {})
    except EngineUserError:
        pass
