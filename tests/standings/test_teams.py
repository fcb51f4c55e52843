"""Team standings without a database (games.md §6 "Teams and prizes")."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from tournaments.standings import aggregate, rank
from tournaments.standings.teams import team_rank_key, team_standings


def team(tid, name, *members):
    return {"id": tid, "name": name,
            "members": [{"participant": p, "name": f"Player {p}"} for p in members]}


def standings_for(game, seat_rows):
    """The players' overall standing rows as the standings service computes them."""
    engine = get_engine(game)
    return rank(aggregate(seat_rows, engine.figures), engine.rank_key)


def teams_for(game, teams, rows, team_size=2):
    engine = get_engine(game)
    return team_standings(teams, rows, tie_break=engine.team_tie_break,
                          standing_order=engine.standing_order,
                          team_size=team_size, figures=engine.figures)


def skat_row(pid, score, won, lost, rnd=1):
    return {"participant": pid, "round": rnd, "score": score, "won": won, "lost": lost,
            "game_points": 0}


# (game, seat rows, teams, expected [(team, rank, score)])
CASES = [
    pytest.param(
        "skat",
        [skat_row(1, 900, 8, 1), skat_row(2, 300, 3, 2), skat_row(3, 700, 6, 1),
         skat_row(4, 600, 5, 0), skat_row(5, 1500, 10, 0), skat_row(6, 0, 0, 4)],
        [team(10, "A", 1, 2), team(11, "B", 3, 4), team(12, "C", 5, 6)],
        [(12, 1, 1500), (11, 2, 1300), (10, 3, 1200)],
        id="skat-highest-sum-first"),
    pytest.param(
        "skat",
        [skat_row(1, 600, 5, 1), skat_row(2, 400, 3, 1), skat_row(3, 500, 4, 0),
         skat_row(4, 500, 5, 3)],
        [team(10, "A", 1, 2), team(11, "B", 3, 4)],
        [(11, 1, 1000), (10, 2, 1000)],
        id="skat-equal-sum-more-won-games-first"),
    pytest.param(
        "skat",
        [skat_row(1, 600, 5, 3), skat_row(2, 400, 3, 1), skat_row(3, 500, 4, 1),
         skat_row(4, 500, 4, 2)],
        [team(10, "A", 1, 2), team(11, "B", 3, 4)],
        [(11, 1, 1000), (10, 2, 1000)],
        id="skat-equal-sum-and-won-fewer-lost-first"),
    pytest.param(
        "skat",
        [skat_row(1, 600, 5, 2), skat_row(2, 400, 3, 1), skat_row(3, 500, 4, 1),
         skat_row(4, 500, 4, 2), skat_row(5, 1, 0, 0), skat_row(6, 0, 0, 0)],
        [team(12, "C", 5, 6), team(11, "B", 3, 4), team(10, "A", 1, 2)],
        [(10, 1, 1000), (11, 1, 1000), (12, 3, 1)],
        id="skat-all-equal-share-the-rank"),
    pytest.param(
        "schafkopf",
        [{"participant": 1, "round": 1, "score": 30, "won": 9, "lost": 0},
         {"participant": 2, "round": 1, "score": 10, "won": 1, "lost": 5},
         {"participant": 3, "round": 1, "score": 20, "won": 2, "lost": 5},
         {"participant": 4, "round": 1, "score": 20, "won": 2, "lost": 5}],
        [team(10, "A", 1, 2), team(11, "B", 3, 4)],
        [(10, 1, 40), (11, 1, 40)],
        id="schafkopf-equal-sum-equal-rank-whatever-the-games-won"),
    pytest.param(
        "labatarde",
        [{"participant": 1, "round": 1, "score": 40}, {"participant": 2, "round": 1, "score": 5},
         {"participant": 3, "round": 1, "score": 12}, {"participant": 4, "round": 1, "score": 14},
         {"participant": 5, "round": 1, "score": 30}, {"participant": 6, "round": 1, "score": 1}],
        [team(10, "A", 1, 2), team(11, "B", 3, 4), team(12, "C", 5, 6)],
        [(11, 1, 26), (12, 2, 31), (10, 3, 45)],
        id="labatarde-lowest-sum-first"),
    pytest.param(
        "basler",
        [{"participant": 1, "round": 1, "score": 100}, {"participant": 2, "round": 1, "score": 50},
         {"participant": 3, "round": 1, "score": 150}, {"participant": 4, "round": 1, "score": 0}],
        [team(10, "A", 1, 2), team(11, "B", 3, 4)],
        [(10, 1, 150), (11, 1, 150)],
        id="basler-equal-sum-equal-rank"),
]


@pytest.mark.parametrize(("game", "seat_rows", "teams", "expected"), CASES)
def test_team_ranking_follows_games_md(game, seat_rows, teams, expected):
    result = teams_for(game, teams, standings_for(game, seat_rows))
    assert [(r["team"], r["rank"], r["score"]) for r in result] == expected


def test_rows_have_the_api_shape_with_members_and_their_scores():
    rows = standings_for("skat", [skat_row(1, 900, 8, 1), skat_row(2, 300, 3, 2)])
    (result,) = teams_for("skat", [team(7, "Kreuz Buben", 2, 1)], rows)
    assert result == {
        "rank": 1, "team": 7, "name": "Kreuz Buben", "score": 1200,
        "won": 11, "lost": 3, "game_points": 0, "complete": True, "missing": 0,
        "members": [
            {"participant": 1, "name": "Player 1", "score": 900, "rank": 1, "withdrawn": False},
            {"participant": 2, "name": "Player 2", "score": 300, "rank": 2, "withdrawn": False},
        ]}


def test_a_member_who_withdrew_keeps_the_rounds_he_played():
    seat_rows = [skat_row(1, 500, 4, 1, 1), skat_row(1, 400, 3, 0, 2),
                 skat_row(2, 800, 6, 1, 1),  # withdrew after round 1
                 skat_row(3, 700, 5, 1, 1), skat_row(3, 200, 2, 2, 2),
                 skat_row(4, 600, 5, 1, 1), skat_row(4, 300, 2, 1, 2)]
    rows = standings_for("skat", seat_rows)
    for row in rows:
        row["withdrawn"] = row["participant"] == 2
    result = teams_for("skat", [team(10, "A", 1, 2), team(11, "B", 3, 4)], rows)
    assert [(r["team"], r["rank"], r["score"]) for r in result] == [(11, 1, 1800),
                                                                    (10, 2, 1700)]
    withdrawn = next(m for m in result[1]["members"] if m["participant"] == 2)
    assert withdrawn == {"participant": 2, "name": "Player 2", "score": 800,
                         "rank": withdrawn["rank"], "withdrawn": True}
    assert result[1]["won"] == 4 + 3 + 6 and result[1]["lost"] == 2


def test_a_short_team_is_ranked_with_its_members_and_marked_incomplete():
    rows = standings_for("skat", [skat_row(p, s, 1, 0) for p, s in
                                  [(1, 500), (2, 500), (3, 500), (4, 500), (5, 900), (6, 900),
                                   (7, 900)]])
    result = team_standings([team(10, "Full", 1, 2, 3, 4), team(11, "Three", 5, 6, 7)], rows,
                            tie_break=get_engine("skat").team_tie_break,
                            standing_order="desc", team_size=4, figures=("won", "lost"))
    assert [(r["team"], r["rank"], r["score"], r["complete"], r["missing"]) for r in result] == [
        (11, 1, 2700, False, 1), (10, 2, 2000, True, 0)]


def test_a_member_without_a_standing_row_counts_zero_and_is_listed_last():
    rows = standings_for("labatarde", [{"participant": 1, "round": 1, "score": 9}])
    (result,) = teams_for("labatarde", [team(10, "A", 2, 1)], rows)
    assert result["score"] == 9
    assert [(m["participant"], m["score"], m["rank"]) for m in result["members"]] == [
        (1, 9, 1), (2, 0, None)]


def test_an_empty_team_and_no_teams():
    assert teams_for("skat", [], []) == []
    (result,) = teams_for("skat", [team(3, "Empty")], [])
    assert (result["score"], result["members"], result["missing"]) == (0, [], 2)


def test_more_members_than_team_size_is_a_caller_bug():
    with pytest.raises(ValueError, match="team_size"):
        teams_for("skat", [team(1, "A", 1, 2, 3)], [], team_size=2)


def test_a_participant_in_two_teams_is_a_caller_bug():
    with pytest.raises(ValueError, match="participant 2"):
        teams_for("skat", [team(1, "A", 1, 2), team(2, "B", 2, 3)], [])


def test_skat_needs_the_won_and_lost_figures():
    with pytest.raises(ValueError, match="won, lost"):
        team_standings([team(1, "A", 1)], [], tie_break=get_engine("skat").team_tie_break,
                       standing_order="desc", team_size=4)


def test_team_key_of_other_games_ignores_won_games():
    key = team_rank_key(get_engine("schafkopf").team_tie_break, "desc")
    assert key({"score": 5, "won": 9, "lost": 0}) == key({"score": 5, "won": 0, "lost": 9})


# --------------------------------------------------------------------------- properties

figures = st.fixed_dictionaries({"score": st.integers(-2000, 5000), "won": st.integers(0, 30),
                                 "lost": st.integers(0, 30)})


@st.composite
def fields(draw):
    players = draw(st.integers(0, 16))
    rows = [{"participant": p, "game_points": 0, **draw(figures)} for p in range(1, players + 1)]
    size = draw(st.integers(2, 4))
    order = draw(st.permutations(list(range(1, players + 1))))
    teams, tid = [], 100
    while order:
        cut = draw(st.integers(0, min(size, len(order))))
        teams.append(team(tid, f"T{tid}", *order[:cut]))
        order, tid = order[max(cut, 1):], tid + 1
    return rows, teams, size, draw(st.sampled_from(["skat", "schafkopf", "labatarde"]))


@settings(max_examples=150, deadline=None)
@given(fields(), st.randoms(use_true_random=False))
def test_team_standings_ignore_the_order_of_teams_and_rows(field, rnd: random.Random):
    rows, teams, size, game = field
    engine = get_engine(game)
    args = {"tie_break": engine.team_tie_break, "standing_order": engine.standing_order,
            "team_size": size,
            "figures": ("won", "lost")}
    first = team_standings(teams, rows, **args)
    shuffled_rows, shuffled_teams = rows[:], teams[:]
    rnd.shuffle(shuffled_rows)
    rnd.shuffle(shuffled_teams)
    assert team_standings(shuffled_teams, shuffled_rows, **args) == first
    for result in first:
        assert result["score"] == sum(m["score"] for m in result["members"])
        assert result["complete"] == (len(result["members"]) == size)
    ranks = [r["rank"] for r in first]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
