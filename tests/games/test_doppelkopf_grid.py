"""A Doppelkopf deal on the console's paper grid: the Re seats as two inputs (a solo gives
one), the announcements and Sonderpunkte as one input per party and item."""

from games.engines import DealContext, get_engine
from games.presentation.grid import grid_inputs, grid_record, input_at

ENGINE = get_engine("doppelkopf")
RULES = ENGINE.options({})


def test_inputs_follow_the_record():
    names = [i.name for i in grid_inputs(ENGINE, RULES, 4)]
    assert names[:4] == ["game", "re_1", "re_2", "re_points"]
    assert {"announcements_re", "announcements_kontra", "extras_re_fuchs",
            "extras_kontra_karlchen", "penalties0_seat", "penalties1_kind"} <= set(names)
    assert input_at("extras.kontra.fuchs", grid_inputs(ENGINE, RULES, 4)) \
        == "extras_kontra_fuchs"


def test_a_list_entry_and_a_full_record_from_posted_values():
    ctx = DealContext(1, 4, RULES)
    entry = grid_record(ENGINE, RULES, 4, {"game": "solo_damen", "re_1": "2", "re_2": "",
                                           "value": "-3"}, {})
    assert entry == {"game": "solo_damen", "re": [2], "value": -3, "penalties": []}
    assert ENGINE.score_deal(ENGINE.validate_deal(entry, ctx), ctx).scores == [3, -9, 3, 3]
    full = grid_record(ENGINE, RULES, 4, {
        "game": "normal", "re_1": "1", "re_2": "3", "re_points": "131",
        "announcements_re": "re", "extras_kontra_fuchs": "2",
        "extras_kontra_karlchen": "on", "penalties0_seat": "2", "penalties0_kind": "minor"},
        {})
    assert full["announcements"] == {"re": "re"}
    assert full["extras"] == {"kontra": {"fuchs": 2, "karlchen": True}}
    assert full["penalties"] == [{"seat": 2, "kind": "minor", "to_soloist": None,
                                  "absagen": None, "points": None}]
    assert ENGINE.score_deal(ENGINE.validate_deal(full, ctx), ctx).scores == [1, -3, 1, 1]
    assert grid_record(ENGINE, RULES, 4, {"game": "time_up", "re_1": "1"}, {}) == {
        "game": "time_up", "penalties": []}
