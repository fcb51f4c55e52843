"""Whether a sheet is complete, how much room it has and what an entry form knows ahead
are the engine's answers (Engine.sheet_complete, sheet_room, deal_plan): a fixed number
of rows by default, the round's state for Doppelkopf (annulled and time-up rows do not
count, games.md §8.5 no. 9)."""

import pytest

from games.engines import get_engine

SKAT = get_engine("skat")
DOKO = get_engine("doppelkopf")
NORMAL = {"game": "normal", "re": [1, 2], "re_points": 130}
ANNULLED = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}


def test_by_default_a_sheet_is_complete_at_its_length():
    rules = SKAT.options({"series_deals_3": 3})
    records = [{"passed": True}] * 2
    assert not SKAT.sheet_complete(records, 3, rules)
    assert SKAT.sheet_room(records, 3, rules) == 1
    assert [h["number"] for h in SKAT.deal_plan(records, 3, rules)] == [3]
    assert SKAT.sheet_complete([*records, {"passed": True}], 3, rules)
    assert SKAT.sheet_room([{"passed": True}] * 3, 3, rules) == 0


def test_doppelkopf_counts_the_round_not_the_rows():
    rules = DOKO.options({"compulsory_solos": False})
    records = [NORMAL] * 23 + [ANNULLED]
    assert not DOKO.sheet_complete(records, 4, rules)
    assert DOKO.sheet_room(records, 4, rules) is None
    (hints,) = DOKO.deal_plan(records, 4, rules)
    assert hints["number"] == 25 and hints["dealer"] == 4
    assert DOKO.sheet_complete([*records, NORMAL], 4, rules)
    assert DOKO.sheet_room([*records, NORMAL], 4, rules) == 0
    assert DOKO.deal_plan([*records, NORMAL], 4, rules) == []


def test_time_up_leaves_the_due_pflichtsoli():
    rules = DOKO.options({})
    records = [NORMAL, {"game": "time_up"}]
    assert not DOKO.sheet_complete(records, 4, rules)
    assert DOKO.deal_plan(records, 4, rules)[0]["due"] == 3


@pytest.mark.parametrize("name,kind", [("extras.re.fuchs", "int"),
                                       ("announcements.kontra", "enum"), ("re", "ints")])
def test_a_dotted_name_is_a_field_of_an_object_field(name, kind):
    assert DOKO.record_field(name).kind == kind
