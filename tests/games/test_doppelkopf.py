"""Doppelkopf engine (DDV Turnier-Spielregeln): every worked example, decision and check
of games.md §8, worked by hand.

Scores are in seat order; v is the game value from the Re party's view.
"""

from __future__ import annotations

import pytest

from games.conformance import case as conformance_case
from games.engines import DealContext, EngineUserError, get_engine
from games.engines import doppelkopf as dk

ENGINE = get_engine("doppelkopf")


def sheet(deals: list, players: int = 4, rules: dict | None = None):
    return ENGINE.score_sheet(deals, players, rules)


def last(deal: dict, players: int = 4, rules: dict | None = None, before: tuple = ()):
    """The answer of ``deal`` placed after ``before`` in a sheet."""
    result = sheet([*before, deal], players, rules)
    return result.deals[-1]


def scores(deal: dict, **where) -> list[int]:
    return last(deal, **where).scores


def refused(deals: list, players: int = 4, rules: dict | None = None) -> set[tuple]:
    """(deal index, field) of every error of a sheet."""
    with pytest.raises(EngineUserError) as exc:
        sheet(deals, players, rules)
    return {(e.deal, e.field) for e in exc.value.errors}


def errors(deals: list, players: int = 4, rules: dict | None = None) -> list:
    with pytest.raises(EngineUserError) as exc:
        sheet(deals, players, rules)
    return exc.value.errors


def one(deal: dict, **where) -> set[str]:
    """Fields refused in a deal that is the first of its sheet."""
    return {f for _, f in refused([deal], **where)}


def normal(re=(1, 2), points=130, **more) -> dict:
    return {"game": "normal", "re": list(re), "re_points": points, **more}


def solo(seat: int, game: str = "solo_herz", points: int = 130, **more) -> dict:
    return {"game": game, "re": [seat], "re_points": points, **more}


TIME_UP = {"game": "time_up"}


# --------------------------------------------------------------------------- the engine


def test_engine_describes_itself():
    described = ENGINE.describe()
    assert described["key"] == "doppelkopf"
    assert described["table_sizes"] == [4, 5]
    assert described["preferred_table_size"] == 4
    assert set(described["options"]) == {
        "nines", "round_deals_4", "round_deals_5", "compulsory_solos", "fuchs",
        "doppelkopf", "karlchen", "gegen_die_alten", "re_kontra", "armut"}
    assert ENGINE.default_options() == {
        "nines": True, "round_deals_4": 24, "round_deals_5": 30, "compulsory_solos": True,
        "fuchs": True, "doppelkopf": True, "karlchen": True, "gegen_die_alten": True,
        "re_kontra": "plus2", "armut": False}


@pytest.mark.parametrize("rules,field", [
    ({"round_deals_4": 26}, "rules.round_deals_4"),
    ({"round_deals_4": 4}, "rules.round_deals_4"),
    ({"round_deals_5": 32}, "rules.round_deals_5"),
    ({"round_deals_5": 65}, "rules.round_deals_5"),
    ({"re_kontra": "triple"}, "rules.re_kontra"),
    ({"nines": 1}, "rules.nines"),
    ({"bock": True}, "rules.bock"),
])
def test_bad_options_are_refused(rules, field):
    with pytest.raises(EngineUserError) as exc:
        ENGINE.options(rules)
    assert {e.field for e in exc.value.errors} == {field}


def test_table_sizes_and_round_length():
    assert ENGINE.sheet_length(4, ENGINE.options({})) == 24
    assert ENGINE.sheet_length(5, ENGINE.options({})) == 30
    with pytest.raises(EngineUserError):
        sheet([], 6)


# --------------------------------------------------------------------------- 8.9 examples


# The scores of every worked example (D1–D15, S1) are conformance data:
# games/conformance/doppelkopf.json (run by tests/games/test_conformance_cases.py). Here:
# what each example says beyond the scores, on the same deals.


def example(name: str):
    """The scored sheet of games.md's example ``name`` (D1 …) as the conformance data
    holds it."""
    found = conformance_case("doppelkopf", f"doppelkopf-md-{name}")
    return sheet(found["deals"], found["players"], found["rules"])


@pytest.mark.parametrize("name, value, winner", [
    ("D1", -5, "kontra"), ("D2", -7, "kontra"), ("D5", -2, "re"), ("D6", 0, "re"),
    ("D11", 1, "none"),
])
def test_value_and_winner(name, value, winner):
    answer = example(name).deals[-1]
    assert (answer.extra["value"], answer.extra["winner"]) == (value, winner)


def test_d9_damen_solo_is_tripled_and_the_soloists_pflichtsolo():
    answer = example("D9").deals[-1]
    assert answer.extra["value"] == 8 and answer.extra["compulsory"] is True


def test_d10_hochzeit_without_partner_is_a_karo_solo_in_the_normal_column():
    hochzeit = conformance_case("doppelkopf", "doppelkopf-md-D10")["deals"][0]
    result = sheet([hochzeit, normal()])
    assert result.deals[0].extra["compulsory"] is False
    assert result.deals[1].extra["dealer"] == 2  # the deal passed on
    assert result.totals[2]["pflichtsolo"] is False


def test_d12_five_table_dealer_is_seat_5():
    assert example("D12").deals[-1].extra["dealer"] == 5


def test_d14_serious_violation_counts_as_the_soloists_pflichtsolo():
    result = example("D14")
    assert result.deals[0].extra["compulsory"] is True
    assert result.totals[0]["pflichtsolo"] is True



# --------------------------------------------------------------------------- S1


def _s1_prefix() -> list[dict]:
    """20 normal games dealt by 1, 2, 3, 4, …, with the Pflichtsoli of seats 4 and 2
    in between (each leaves the dealer in place)."""
    deals = []
    for k in range(20):
        deals.append(normal())
        if k == 1:
            deals.append(solo(4))  # in the game seat 3 deals: seat 3 deals again
        if k == 5:
            deals.append(solo(2, "solo_kreuz"))
    return deals


def test_s1_dealer_rotation_and_vorfuehrung():
    deals = _s1_prefix()
    result = sheet(deals)
    dealers = [d.extra["dealer"] for d in result.deals]
    assert dealers[:5] == [1, 2, 3, 3, 4]
    assert result.deals[-1].extra["dealer"] == 4  # the 20th normal game
    assert not result.complete
    assert ENGINE.deal_hints(DealContext(23, 4, ENGINE.options({}), tuple(
        r.record for r in result.deals)))["due"] == 3
    full = sheet([*deals, solo(3), solo(1, "solo_fleischlos")])
    assert [d.extra["dealer"] for d in full.deals[-2:]] == [1, 2]
    assert all(d.extra["forced"] for d in full.deals[-2:])
    assert full.complete
    assert len([d for d in full.deals]) == 24
    assert [row["pflichtsolo"] for row in full.totals] == [True] * 4
    assert sum(row["score"] for row in full.totals) == 0


def test_s1_a_normal_game_after_the_20th_is_refused_naming_the_due_seat():
    found = errors([*_s1_prefix(), normal()])
    assert [(e.deal, e.field, e.params) for e in found] == [(22, "game", {"seat": 3})]
    assert found[0].message == "All normal games are played; a Pflichtsolo by seat " \
                               "%(seat)s is due."


def test_s1_a_solo_by_seat_1_in_place_of_seat_3_is_refused():
    found = errors([*_s1_prefix(), solo(1)])
    assert [(e.deal, e.field, e.params) for e in found] == [(22, "re", {"seat": 3})]


def test_s1_a_deal_beyond_the_complete_round_is_refused():
    deals = [*_s1_prefix(), solo(3), solo(1)]
    assert refused([*deals, normal()]) == {(24, "game")}


# --------------------------------------------------------------------------- 8.1 / 8.11 order


def test_a_lustsolo_passes_the_deal_on_and_is_a_normal_column_game():
    result = sheet([solo(2), solo(2, "solo_pik")])
    assert [d.extra["compulsory"] for d in result.deals] == [True, False]
    assert [d.extra["dealer"] for d in result.deals] == [1, 1]
    assert sheet([solo(2), solo(2), normal()]).deals[2].extra["dealer"] == 2
    assert sheet([solo(2), solo(2)]).totals[1]["solos"] == 2


def test_a_lustsolo_is_refused_when_no_normal_game_is_left():
    deals = [*_s1_prefix()]
    assert refused([*deals, solo(2)]) == {(22, "game")}


def test_stille_hochzeit_is_a_solo_in_the_normal_column():
    result = sheet([{"game": "stille_hochzeit", "re": [2], "re_points": 100}, normal()])
    assert result.deals[0].scores == [1, -3, 1, 1]
    assert result.deals[0].extra["compulsory"] is False
    assert result.deals[1].extra["dealer"] == 2


def test_time_up_first_every_seat_is_vorgefuehrt():
    result = sheet([TIME_UP, solo(2), solo(3), solo(4), solo(1)])
    assert result.deals[0].scores == [0, 0, 0, 0]
    assert [d.extra["dealer"] for d in result.deals[1:]] == [1, 2, 3, 4]
    assert all(d.extra["forced"] for d in result.deals[1:])
    assert result.complete
    assert refused([TIME_UP, solo(3)]) == {(1, "re")}
    assert refused([TIME_UP, normal()]) == {(1, "game")}


def test_time_up_once_and_not_after_the_normal_games():
    assert refused([TIME_UP, TIME_UP]) == {(1, "game")}
    assert refused([*_s1_prefix(), TIME_UP]) == {(22, "game")}
    assert one({"game": "time_up", "re": [1]}) == {"re"}


def test_time_up_without_compulsory_solos_completes_the_sheet():
    rules = {"compulsory_solos": False}
    result = sheet([normal(), solo(1), TIME_UP], rules=rules)
    assert result.complete
    assert [d.extra["dealer"] for d in result.deals[:2]] == [1, 2]
    assert result.deals[1].extra["compulsory"] is False
    assert refused([TIME_UP, normal()], rules=rules) == {(1, "game")}


def test_without_compulsory_solos_a_round_is_round_deals_games():
    rules = {"compulsory_solos": False, "round_deals_4": 8}
    assert sheet([normal()] * 8, rules=rules).complete
    assert refused([normal()] * 9, rules=rules) == {(8, "game")}


def test_annulled_game_is_replayed_by_the_same_dealer_and_no_game_of_the_round():
    annulled = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}
    result = sheet([annulled, normal()])
    assert result.deals[0].scores == [4, -12, 4, 4]
    assert result.deals[1].extra["dealer"] == 1
    with_absagen = {"game": "annulled",
                    "penalties": [{"seat": 1, "kind": "serious", "absagen": 2}]}
    assert sheet([with_absagen]).deals[0].scores == [-18, 6, 6, 6]


def test_an_annulled_pflichtsolo_during_the_vorfuehrung_keeps_the_same_seat_due():
    annulled = {"game": "annulled", "penalties": [{"seat": 3, "kind": "serious"}]}
    result = sheet([*_s1_prefix(), annulled, solo(3)])
    assert result.deals[-2].extra["dealer"] == 1
    assert result.deals[-1].extra["dealer"] == 1


def test_five_table_vorfuehrung_of_the_dealer():
    """games.md 8.10 no. 4: the left neighbour deals and sits; the deal goes on from him."""
    rules = {"round_deals_5": 10}
    # Pflichtsoli of seats 2..5 (seat 1 deals them all), five normal games dealt by
    # 1..5; then seat 1 would deal and is the only one missing
    deals = [solo(2), solo(3), solo(4), solo(5)]
    deals += [normal((2, 3)), normal((3, 4)), normal((4, 5)), normal((1, 5)), normal((1, 2))]
    result = sheet(deals, 5, rules)
    assert result.deals[-1].extra["dealer"] == 5
    annulled = {"game": "annulled", "penalties": [{"seat": 1, "kind": "serious"}]}
    again = sheet([*deals, annulled, solo(1)], 5, rules)
    assert [d.extra["dealer"] for d in again.deals[-2:]] == [2, 2]
    final = sheet([*deals, solo(1)], 5, rules)
    assert final.deals[-1].extra["dealer"] == 2 and final.deals[-1].extra["forced"]
    assert final.deals[-1].scores[1] == 0
    assert final.complete


def test_the_sitting_dealer_plays_no_part():
    assert one(normal((1, 2)), players=5) == {"re.0"}
    penalty = normal((2, 3), penalties=[{"seat": 1, "kind": "minor"}])
    assert one(penalty, players=5) == {"penalties.0.seat"}
    deduction = normal((2, 3), penalties=[{"seat": 1, "kind": "deduction", "points": 2}])
    assert last(deduction, players=5).scores == [-2, 1, 1, -1, -1]
    minor = normal((2, 3), 140, penalties=[{"seat": 4, "kind": "minor"}])
    assert last(minor, players=5).scores == [0, 2, 2, -4, 0]


# --------------------------------------------------------------------------- 8.4 rules


@pytest.mark.parametrize("announcements,points,winner", [
    ({}, 121, "re"), ({}, 120, "kontra"),
    ({"re": "re"}, 121, "re"), ({"re": "re"}, 120, "kontra"),
    ({"re": "re", "kontra": "kontra"}, 120, "kontra"),
    ({"kontra": "kontra"}, 120, "re"), ({"kontra": "kontra"}, 119, "kontra"),
    ({"re": "no90"}, 151, "re"), ({"re": "no90"}, 150, "kontra"),
    ({"kontra": "no90"}, 89, "kontra"), ({"kontra": "no90"}, 90, "re"),
    ({"re": "no30"}, 211, "re"), ({"re": "no30"}, 210, "kontra"),
    ({"re": "no60", "kontra": "no90"}, 200, "re"),
    ({"re": "no60", "kontra": "no90"}, 60, "kontra"),
    ({"re": "no60", "kontra": "no60"}, 120, "none"),
])
def test_the_winner(announcements, points, winner):
    deal = normal(points=points, announcements=announcements)
    assert last(deal).extra["winner"] == winner


def test_schwarz_absage_needs_every_trick():
    deal = normal((1, 2), 239 - 9, announcements={"re": "schwarz"})
    assert last(deal).extra["winner"] == "kontra"
    # Kontra: 1 + "Re" 2 + 4 stages + K 10 reaches none of 120/90/60/30 + Alten 1
    assert last(deal).extra["value"] == -(1 + 2 + 4 + 0 + 1)


def test_the_other_party_said_schwarz_one_trick_suffices():
    deal = normal((1, 2), 0, schwarz="re", announcements={"kontra": "schwarz"})
    assert last(deal).extra["winner"] == "kontra"
    rescued = normal((1, 2), 10, announcements={"kontra": "schwarz"})
    assert last(rescued).extra["winner"] == "re"


def test_no_winner_credits_the_under_items_to_each_party():
    """8.10 no. 2: Re keine 30 and Kontra keine 60 both missed; K 50 is under 90 and 60."""
    deal = normal((1, 2), 190, announcements={"re": "no30", "kontra": "no60"})
    answer = last(deal)
    assert answer.extra["winner"] == "none"
    # Re: K under 90, under 60 (2) + R 190 ≥ 120 and ≥ 90 against keine 90/60 (2) = 4;
    # Kontra: R not under 90; K 50 ≥ 60 against keine 30? no; ≥ 90? no = 0
    assert answer.extra["value"] == 4


def test_decision_3_under_points_only_for_the_loser():
    """Kontra wins although under 90 (Re's keine 60 failed): nobody gets its under 90."""
    deal = normal((1, 2), 170, announcements={"re": "no60"})
    answer = last(deal)
    assert answer.extra["winner"] == "kontra"
    # Kontra: 1 + Re 2 + 2 stages + K 70 ≥ 90 against keine 60? no + Alten 1 = 6
    assert answer.extra["value"] == -6


def test_sonderpunkte_switched_off():
    rules = {"gegen_die_alten": False}
    assert scores(normal((2, 4), 120), rules=rules) == [1, -1, 1, -1]
    assert one(normal(extras={"re": {"fuchs": 1}}), rules={"fuchs": False}) == {
        "extras.re.fuchs"}
    assert one(normal(extras={"re": {"karlchen": True}}), rules={"karlchen": False}) == {
        "extras.re.karlchen"}
    assert one(normal(extras={"re": {"doppelkopf": 1}}), rules={"doppelkopf": False}) == {
        "extras.re.doppelkopf"}


def test_re_kontra_double():
    """8.11 no. 2: without the (b) points, then doubled once per announcement."""
    rules = {"re_kontra": "double"}
    d1 = normal((1, 3), 80, announcements={"kontra": "kontra"})
    assert last(d1, rules=rules).extra["value"] == -(1 + 1 + 1) * 2
    both = normal((1, 2), 130, announcements={"re": "re", "kontra": "kontra"})
    assert last(both, rules=rules).extra["value"] == 4
    assert last({**both, "value": 4}, rules=rules).extra["value"] == 4
    assert one({**both, "value": 5}, rules=rules) == {"value"}


def test_armut_is_a_normal_game_with_the_option():
    deal = {"game": "armut", "re": [1, 3], "re_points": 140,
            "extras": {"re": {"fuchs": 1}}}
    assert scores(deal, rules={"armut": True}) == [2, -2, 2, -2]
    assert one(deal) == {"game"}


def test_hochzeit_with_partner_is_normal_scored():
    deal = {"game": "hochzeit", "re": [3, 1], "re_points": 140,
            "extras": {"kontra": {"doppelkopf": 1}}}
    answer = last(deal)
    assert answer.scores == [0, 0, 0, 0]
    assert answer.extra["compulsory"] is False


def test_list_entry_is_tripled_in_a_solo_and_counts_as_pflichtsolo():
    answer = last({"game": "solo", "re": [2], "value": 4})
    assert answer.scores == [-4, 12, -4, -4]
    assert answer.extra["compulsory"] is True


def test_list_entry_may_carry_penalties():
    deal = {"game": "normal", "re": [1, 3], "value": 1,
            "penalties": [{"seat": 2, "kind": "minor"}]}
    assert scores(deal) == [2, -4, 2, 0]


def test_minor_to_the_soloist_breaks_parity_as_the_tsr_says():
    deal = solo(1, points=121, penalties=[{"seat": 4, "kind": "minor", "to_soloist": True}])
    assert scores(deal) == [3 + 3, -1, -1, -1 - 3]


def test_defaults_equal_absent_fields():
    plain = normal()
    spelled = normal(schwarz=None, announcements={"re": None},
                     extras={"re": {"fuchs": 0, "karlchen": False}, "kontra": {}},
                     penalties=[])
    assert scores(plain) == scores(spelled)


# --------------------------------------------------------------------------- 8.5 checks


@pytest.mark.parametrize("deal,fields", [
    ({"game": "bock", "re": [1, 2], "re_points": 120}, {"game"}),
    ({"re": [1, 2], "re_points": 120}, {"game"}),
    (normal(bogus=1), {"bogus"}),
    # no. 2: re
    ({"game": "normal", "re": [1], "re_points": 120}, {"re"}),
    ({"game": "normal", "re": [1, 1], "re_points": 120}, {"re"}),
    ({"game": "normal", "re": [1, 7], "re_points": 120}, {"re.1"}),
    ({"game": "solo_pik", "re": [1, 2], "re_points": 120}, {"re"}),
    ({"game": "stille_hochzeit", "re": [1, 2], "re_points": 120}, {"re"}),
    ({"game": "hochzeit", "re": [1, 2, 3], "re_points": 120}, {"re"}),
    ({"game": "normal", "re_points": 120}, {"re"}),
    ({"game": "annulled", "re": [1], "penalties": [{"seat": 1, "kind": "serious"}]}, {"re"}),
    ({"game": "time_up", "value": 0}, {"value"}),
    # no. 3: one result form
    ({"game": "normal", "re": [1, 2]}, {"re_points"}),
    ({"game": "normal", "re": [1, 2], "value": 3, "announcements": {"re": "re"}},
     {"announcements"}),
    ({"game": "normal", "re": [1, 2], "value": 3, "winner": "re"}, {"winner"}),
    ({"game": "normal", "re": [1, 2], "value": "3"}, {"value"}),
    # no. 4: re_points and schwarz
    (normal(points=241), {"re_points"}),
    (normal(points=-1), {"re_points"}),
    (normal(points=1), {"re_points"}),
    (normal(points=239), {"re_points"}),
    (normal(points=230, schwarz="kontra"), {"schwarz"}),
    (normal(points=10, schwarz="re"), {"schwarz"}),
    (normal(points=10, schwarz="both"), {"schwarz"}),
    ({"game": "hochzeit", "re": [1, 2], "re_points": 0, "schwarz": "re"}, {"schwarz"}),
    # no. 5: announcements
    (normal(announcements={"re": "kontra"}), {"announcements.re"}),
    (normal(announcements={"kontra": "re"}), {"announcements.kontra"}),
    (normal(announcements={"solo": "re"}), {"announcements.solo"}),
    (normal(announcements="re"), {"announcements"}),
    # no. 6: extras
    (solo(1, extras={"re": {"fuchs": 1}}), {"extras.re"}),
    ({"game": "hochzeit", "re": [1], "re_points": 140, "extras": {"kontra": {"doppelkopf": 1}}},
     {"extras.kontra"}),
    (normal(extras={"re": {"fuchs": 3}}), {"extras.re.fuchs"}),
    (normal(extras={"re": {"doppelkopf": 5}}), {"extras.re.doppelkopf"}),
    (normal(extras={"re": {"karlchen": 1}}), {"extras.re.karlchen"}),
    (normal(extras={"re": {"schwein": 1}}), {"extras.re.schwein"}),
    (normal(extras={"re": {"fuchs": 1}, "kontra": {"fuchs": 2}}), {"extras.kontra.fuchs"}),
    (normal(extras={"re": {"doppelkopf": 3}, "kontra": {"doppelkopf": 2}}),
     {"extras.kontra.doppelkopf"}),
    (normal(extras={"re": {"karlchen": True}, "kontra": {"karlchen": True}}),
     {"extras.kontra.karlchen"}),
    (normal(points=240, schwarz="kontra", extras={"kontra": {"fuchs": 1}}), {"extras.kontra"}),
    (normal(points=70, extras={"re": {"doppelkopf": 2}}), {"extras.re.doppelkopf"}),
    (normal(points=230, extras={"kontra": {"fuchs": 1}}), {"extras.kontra.fuchs"}),
    # no. 7: cross-checks
    (normal(points=130, winner="kontra"), {"winner"}),
    (normal(points=130, value=2), {"value"}),
    (normal(points=130, winner="nobody"), {"winner"}),
    # no. 8: penalties
    (normal(penalties=[{"seat": 9, "kind": "minor"}]), {"penalties.0.seat"}),
    (normal(penalties=[{"seat": 1, "kind": "rude"}]), {"penalties.0.kind"}),
    (normal(penalties=[{"seat": 1, "kind": "serious"}]), {"penalties.0.kind"}),
    (solo(1, penalties=[{"seat": 2, "kind": "serious"}]), {"penalties.0.kind"}),
    ({"game": "solo", "re": [1], "penalties": [{"seat": 1, "kind": "serious"}]},
     {"penalties.0.kind"}),
    (normal(penalties=[{"seat": 1, "kind": "minor", "to_soloist": True}]),
     {"penalties.0.to_soloist"}),
    (normal(penalties=[{"seat": 1, "kind": "minor", "points": 2}]), {"penalties.0.points"}),
    (normal(penalties=[{"seat": 1, "kind": "deduction", "points": 13}]),
     {"penalties.0.points"}),
    (normal(penalties=[{"seat": 1, "kind": "serious", "absagen": 5}]),
     {"penalties.0.absagen", "penalties.0.kind"}),
    (normal(penalties=[{"seat": 1, "kind": "minor", "why": "x"}]), {"penalties.0.why"}),
    (normal(penalties={"seat": 1}), {"penalties"}),
    ({"game": "annulled", "penalties": [{"seat": 1, "kind": "minor"}]}, {"penalties"}),
    ({"game": "annulled", "penalties": [{"seat": 1, "kind": "serious"}] * 2}, {"penalties"}),
    ({"game": "annulled"}, {"penalties"}),
])
def test_each_check_names_its_field(deal, fields):
    assert one(deal) == fields


def test_true_is_no_seat_though_it_equals_1():
    # the Re seats' fast path must not take true for seat 1 (True == 1 in Python)
    found = errors([{"game": "normal", "re": [True, 2], "re_points": 130}])
    assert [(e.field, e.message, e.params) for e in found] == [
        ("re.0", "Must be a seat from 1 to %(players)s.", {"players": 4})]


def test_sonderpunkte_errors_come_in_a_fixed_order():
    # per party: rules off, then the Augen, each in the order fuchs, doppelkopf,
    # karlchen; then what both parties hold together
    deal = normal(points=10, extras={"re": {"fuchs": 1, "doppelkopf": 1, "karlchen": True},
                                     "kontra": {"fuchs": 2}})
    found = errors([deal], rules={"karlchen": False})
    cannot = "The party's %(augen)s Augen cannot hold that many."
    assert [(e.field, e.message, e.params) for e in found] == [
        ("extras.re.karlchen", "This Sonderpunkt is off under these rules.", {}),
        ("extras.re.fuchs", cannot, {"augen": 10}),
        ("extras.re.doppelkopf", cannot, {"augen": 10}),
        ("extras.kontra.fuchs", "Both parties together have at most %(high)s.", {"high": 2})]


def test_errors_name_the_deal():
    found = errors([normal(), normal(points=241)])
    assert [(e.deal, e.number, e.field) for e in found] == [(1, 2, "re_points")]


def test_without_nines():
    rules = {"nines": False}
    assert scores(normal(points=240, schwarz="kontra"), rules=rules) == [5, 5, -5, -5]
    assert one(normal(points=240), rules=rules) == {"schwarz"}
    assert one(normal(points=0), rules=rules) == {"schwarz"}
    assert one(normal(points=5), rules=rules) == {"re_points"}
    assert one(normal(points=235), rules=rules) == {"re_points"}
    assert scores(normal(points=8), rules=rules) == [-5, -5, 5, 5]
    # with nines a party can take tricks worth 0 Augen
    assert scores(normal(points=0)) == [-5, -5, 5, 5]
    assert scores(normal(points=240)) == [4, 4, -4, -4]


def test_a_validated_record_scores_alone_with_the_common_dealer():
    ctx = DealContext(2, 4, ENGINE.options({}))
    record = ENGINE.validate_deal(normal(), ctx)
    answer = ENGINE.score_deal(record, ctx)
    assert answer.extra["dealer"] == 2 and answer.scores == [1, 1, -1, -1]
    assert record["extras"] == {"re": {"fuchs": 0, "doppelkopf": 0, "karlchen": False},
                                "kontra": {"fuchs": 0, "doppelkopf": 0, "karlchen": False}}


def test_value_function_is_exposed_for_the_rules():
    record = {"game": "normal", "re": [1, 2], "re_points": 80, "schwarz": None,
              "announcements": {"kontra": "kontra"}}
    assert dk.game_value(record, ENGINE.options({})) == (-5, "kontra")


def test_standings_higher_is_better_and_ties_rank_equal():
    """games.md 8.8 and 8.10 no. 12: no tie-break."""
    rows = [{"seat": 1, "score": 5, "solos": 1}, {"seat": 2, "score": 5, "solos": 3},
            {"seat": 3, "score": 9, "solos": 0}]
    assert ENGINE.rank_key(rows[0]) == ENGINE.rank_key(rows[1])
    assert ENGINE.rank_key(rows[2]) < ENGINE.rank_key(rows[0])
    assert ENGINE.figures == ("solos",)


def test_totals_per_seat():
    result = sheet([solo(2), normal((1, 3), 140), solo(2, "solo_pik")])
    assert result.totals == [
        {"seat": 1, "score": -1 + 1 - 1, "pflichtsolo": False, "solos": 0},
        {"seat": 2, "score": 3 - 1 + 3, "pflichtsolo": True, "solos": 2},
        {"seat": 3, "score": -1 + 1 - 1, "pflichtsolo": False, "solos": 0},
        {"seat": 4, "score": -1 - 1 - 1, "pflichtsolo": False, "solos": 0}]


@pytest.mark.parametrize("count,tables", [
    (8, [4, 4]), (9, [5, 4]), (10, [5, 5]), (12, [4, 4, 4]), (13, [5, 4, 4])])
def test_a_draw_makes_four_tables_and_five_tables_where_needed(count, tables):
    from tournaments.seating.composition import composition

    sizes = ENGINE.seating_sizes(ENGINE.options({}))
    assert sorted(composition(count, sizes.sizes, sizes.preferred), reverse=True) == tables


@pytest.mark.parametrize("count", [6, 7, 11])
def test_a_draw_refuses_what_four_and_five_tables_cannot_seat(count):
    from tournaments.seating.composition import composition
    from tournaments.seating.errors import SeatingError

    sizes = ENGINE.seating_sizes(ENGINE.options({}))
    with pytest.raises(SeatingError):
        composition(count, sizes.sizes, sizes.preferred)
