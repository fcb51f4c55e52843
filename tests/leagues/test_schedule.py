"""Group schedule, hosts and group seating (games.md §9.3, examples L4, L5), pure."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import UserError
from leagues.schedule import (
    assign_hosts,
    group_plan,
    group_schedule,
    mul,
    standard_plan,
    table_count,
)

SIXTEEN = [
    [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],
    [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]],
    [[1, 6, 11, 16], [2, 5, 12, 15], [3, 8, 9, 14], [4, 7, 10, 13]],
    [[1, 7, 12, 14], [2, 8, 11, 13], [3, 5, 10, 16], [4, 6, 9, 15]],
    [[1, 8, 10, 15], [2, 7, 9, 16], [3, 6, 12, 13], [4, 5, 11, 14]],
]
NAMES = "ABCD"


def test_gf4_multiplication_table():
    assert [[mul(a, b) for b in range(4)] for a in range(4)] == [
        [0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def test_sixteen_team_schedule_is_the_table_of_9_3():
    assert group_schedule(16) == SIXTEEN


@pytest.mark.parametrize("count", [4, 16, 64])
def test_every_two_teams_meet_exactly_once(count):
    met = {}
    for day in group_schedule(count):
        assert sorted(t for g in day for t in g) == list(range(1, count + 1))
        for group in day:
            assert len(group) == 4
            for pair in combinations(group, 2):
                met[pair] = met.get(pair, 0) + 1
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}


def test_schedule_refuses_other_counts():
    with pytest.raises(UserError) as exc:
        group_schedule(12)
    assert exc.value.field == "groups"


def test_each_team_hosts_once_on_four_decentral_matchdays():
    hosts = assign_hosts(SIXTEEN[:4])
    assert sorted(h for day in hosts for h in day) == list(range(1, 17))
    for day, groups in zip(hosts, SIXTEEN[:4], strict=True):
        assert all(h in g for h, g in zip(day, groups, strict=True))
    assert hosts[0][:3] == [1, 5, 9]  # lowest first; 13 would leave a later group stuck


def test_hosts_skip_teams_that_hosted_before():
    first = assign_hosts(SIXTEEN[:4])[0]
    hosts = assign_hosts(SIXTEEN[1:4], hosted=first)
    assert sorted(first + [h for day in hosts for h in day]) == list(range(1, 17))


def label(slot):
    t, p = slot
    return f"{NAMES[t]}{p + 1}"


def test_standard_plan_is_the_table_of_9_3():
    plan = [[sorted(label(s) for s in table) for table in tables] for tables in standard_plan(4)]
    assert plan == [
        [["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"], ["A3", "B3", "C3", "D3"],
         ["A4", "B4", "C4", "D4"]],
        [["A1", "B2", "C3", "D4"], ["A2", "B1", "C4", "D3"], ["A3", "B4", "C1", "D2"],
         ["A4", "B3", "C2", "D1"]],
        [["A1", "B3", "C4", "D2"], ["A2", "B4", "C3", "D1"], ["A3", "B1", "C2", "D4"],
         ["A4", "B2", "C1", "D3"]],
        [["A1", "B4", "C2", "D3"], ["A2", "B3", "C1", "D4"], ["A3", "B2", "C4", "D1"],
         ["A4", "B1", "C3", "D2"]]]


def test_standard_seat_order_rotates_the_teams():
    plan = standard_plan(2)
    assert [label(s) for s in plan[0][0]] == ["A1", "B1", "C1", "D1"]
    # series 2: team t takes seat (t + 1) mod 4 + 1, so D sits first
    assert [label(s) for s in plan[1][0]] == ["D4", "A1", "B2", "C3"]


def test_l5_every_pair_of_different_teams_meets_once():
    meetings = {}
    for s, tables in enumerate(standard_plan(4), start=1):
        for number, table in enumerate(tables, start=1):
            for a, b in combinations(sorted(map(label, table)), 2):
                meetings.setdefault((a, b), []).append((s, number))
    assert len(meetings) == 96 and all(len(v) == 1 for v in meetings.values())
    assert meetings[("A1", "B2")] == [(2, 1)]
    assert meetings[("B1", "C1")] == [(1, 1)]


def full(*counts):
    return [[p < c for p in range(4)] for c in counts]


def sizes_of(plan, present):
    return [sorted((sum(1 for t, p in table if present[t][p]) for table in tables),
                   reverse=True) for tables in plan]


def test_l4_four_four_four_three_keeps_the_standard_plan():
    present = full(4, 4, 4, 3)
    kind, plan = group_plan(present, 3, (3, 4), random.Random(1))
    assert kind == "standard"
    assert table_count([4, 4, 4, 3]) == 4
    first = [[label(s) for s in table if present[s[0]][s[1]]] for table in plan[0]]
    assert first[3] == ["A4", "B4", "C4"]
    assert sizes_of(plan, present) == [[4, 4, 4, 3]] * 3


@pytest.mark.parametrize("counts, expected", [
    ((4, 4, 3, 3), [4, 4, 3, 3]), ((4, 3, 3, 3), [4, 3, 3, 3]), ((3, 3, 3, 3), [4, 4, 4]),
    ((4, 4, 4), [3, 3, 3, 3]), ((4, 4), [4, 4]), ((4, 4, 4, 4, 4), [4, 4, 4, 4, 4]),
])
def test_a10_table_shapes(counts, expected):
    present = full(*counts)
    _kind, plan = group_plan(present, 3, (3, 4), random.Random(7))
    assert sizes_of(plan, present) == [expected] * 3
    for tables in plan:
        for table in tables:
            teams = [t for t, _p in table]
            assert max(teams.count(t) for t in teams) == (2 if len(counts) == 2 else 1)


def test_doppelkopf_three_short_players_cannot_be_seated_at_fours():
    with pytest.raises(UserError) as exc:
        group_plan(full(4, 4, 4, 3), 4, (4, 5), random.Random(1))
    assert exc.value.field == "lineups"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(3, 4), min_size=3, max_size=5), st.integers(1, 4),
       st.integers(0, 2**32))
def test_balanced_shapes_seat_everyone_once_per_series(counts, series, seed):
    present = full(*counts)
    tables = table_count(counts)
    if sum(counts) < 3 * tables:  # e.g. 4-3-3: four tables, too few for 3 players each
        with pytest.raises(UserError):
            group_plan(present, series, (3, 4), random.Random(seed))
        return
    _kind, plan = group_plan(present, series, (3, 4), random.Random(seed))
    for tables in plan:
        seated = [s for table in tables for s in table if present[s[0]][s[1]]]
        assert sorted(seated) == sorted((t, p) for t, c in enumerate(counts) for p in range(c))
        for table in tables:
            here = [s for s in table if present[s[0]][s[1]]]
            assert len(here) in (3, 4)
            assert len({t for t, _p in here}) == len(here)
