"""League points and the table (games.md §9.5, examples L1–L4), pure."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines import get_engine
from games.errors import UserError
from leagues.scoring import (
    PRESETS,
    Scoring,
    Unit,
    as_points,
    day_totals,
    league_table,
    scoring_of,
    unit_minus_points,
    unit_points,
)

DSKV, ISPA, DDV = PRESETS["dskv"], PRESETS["ispa"], PRESETS["ddv"]


def points(totals, scoring):
    return {t: as_points(h) for t, h in unit_points(totals, scoring).items()}


def test_l1_one_dskv_series_with_a_tie():
    totals = {"A": 2959, "B": 2945, "C": 2210, "D": 2210}
    half = unit_points(totals, DSKV)
    assert {t: as_points(h) for t, h in half.items()} == {"A": 3, "B": 2, "C": 0.5, "D": 0.5}
    minus = unit_minus_points(half, DSKV)
    assert {t: as_points(h) for t, h in minus.items()} == {"A": 0, "B": 1, "C": 2.5, "D": 2.5}
    assert sum(half.values()) == 2 * 6


def test_l2_matchday_of_three_series_and_the_table():
    series = [
        {"A": 2959, "B": 2945, "C": 2210, "D": 2210},
        {"A": 1800, "B": 2600, "C": 2400, "D": 2100},
        {"A": 2500, "B": 1900, "C": 2700, "D": 2450},
    ]
    assert [points(s, DSKV) for s in series] == [
        {"A": 3, "B": 2, "C": 0.5, "D": 0.5}, {"A": 0, "B": 3, "C": 2, "D": 1},
        {"A": 2, "B": 0, "C": 3, "D": 1}]
    table = league_table("ABCD", [Unit(1, s) for s in series], DSKV)
    assert [(r.rank, r.team, as_points(r.points), as_points(r.minus), r.game_points)
            for r in table] == [
        (1, "C", 5.5, 3.5, 7310), (2, "B", 5, 4, 7445), (3, "A", 5, 4, 7259),
        (4, "D", 2.5, 6.5, 6760)]
    assert sum(r.points for r in table) == 2 * 18


def test_l3_ddv_days():
    sunday = {"M": 68, "Wuppertal": 38, "Berlin": 28, "Münster": -134}
    assert points(sunday, DDV) == {"M": 4, "Wuppertal": 3, "Berlin": 2, "Münster": 1}
    first = [Unit(1, {"M": 80, "X": 10, "Y": -20, "Z": -70}),
             Unit(2, {"M": 27, "X": 50, "Y": -30, "Z": -47})]
    line = next(r for r in league_table("MXYZ", first, DDV) if r.team == "M")
    assert (as_points(line.points), line.game_points, line.minus) == (7, 107, None)


def test_l3_a_day_is_the_sum_of_its_rounds():
    rounds = [{"M": -38, "B": 68, "W": 26, "Mü": -56}, {"M": 106, "B": -40, "W": 12, "Mü": -78}]
    assert day_totals(rounds) == {"M": 68, "B": 28, "W": 38, "Mü": -134}


def test_l4_absent_team_counts_as_beaten_by_every_team():
    half = unit_points({"A": 300, "B": 200, "C": 100, "D": None}, DSKV)
    assert {t: as_points(h) for t, h in half.items()} == {"A": 3, "B": 2, "C": 1, "D": 0}
    minus = unit_minus_points(half, DSKV)
    assert as_points(minus["D"]) == 3 and as_points(minus["C"]) == 2
    table = league_table("ABCD", [Unit(1, {"A": 300, "B": 200, "C": 100, "D": None})], DSKV)
    assert table[-1].team == "D" and table[-1].game_points == 0


def test_ispa_gives_two_per_team_beaten():
    assert points({"A": 4, "B": 3, "C": 2, "D": 1}, ISPA) == {"A": 6, "B": 4, "C": 2, "D": 0}


def test_equal_points_and_game_points_share_a_rank():
    table = league_table("AB", [Unit(1, {"A": 10, "B": 10})], DSKV)
    assert [r.rank for r in table] == [1, 1]


def test_scoring_presets_and_custom():
    assert scoring_of("ddv") == DDV
    assert scoring_of(None) == DSKV and scoring_of(None, "ddv") == DDV  # the game's preset
    assert get_engine("skat").league.preset == "dskv"
    assert get_engine("doppelkopf").league.preset == "ddv"
    assert scoring_of({"unit": "day", "base": 2, "per_win": 3}) == Scoring("day", 2, 3)
    with pytest.raises(UserError) as exc:
        scoring_of({"unit": "week", "base": -1, "per_win": 0, "x": 1})
    assert {e.field for e in exc.value.errors} == {
        "scoring.unit", "scoring.base", "scoring.per_win", "scoring.x"}
    with pytest.raises(UserError):
        scoring_of("fifa")


@given(st.lists(st.one_of(st.none(), st.integers(-500, 500)), min_size=2, max_size=5),
       st.sampled_from(list(PRESETS.values())))
def test_points_of_a_unit_sum_to_the_invariant(totals, scoring):
    teams = dict(enumerate(totals))
    half = unit_points(teams, scoring)  # asserts §9.6 no. 5 itself
    played = [t for t in totals if t is not None]
    p, a = len(played), len(totals) - len(played)
    assert sum(half.values()) == 2 * (scoring.base * p + scoring.per_win * (
        p * (p - 1) // 2 + p * a))
    for x, y in combinations(teams, 2):
        if teams[x] is not None and teams[y] is not None and teams[x] > teams[y]:
            assert half[x] > half[y]
    if scoring.has_minus_points:
        minus = unit_minus_points(half, scoring)
        assert all(half[t] + minus[t] == 2 * scoring.per_win * (len(totals) - 1) for t in teams)
