"""Standings without a database: sums over rounds and shared ranks."""

from tournaments.standings import aggregate, rank


def skat_key(row):
    return (-row["score"], -row["won"], row["lost"])


def test_aggregate_sums_scores_and_figures_over_rounds():
    rows = [
        {"participant": 1, "round": 2, "score": 500, "won": 5, "lost": 1},
        {"participant": 1, "round": 1, "score": 900, "won": 9, "lost": 2},
        {"participant": 2, "round": 1, "score": 300, "won": 3, "lost": 0},
    ]
    totals = {r["participant"]: r for r in aggregate(rows, ["won", "lost"])}
    assert totals[1]["score"] == 1400 and totals[1]["won"] == 14 and totals[1]["lost"] == 3
    assert totals[1]["rounds"] == [{"round": 1, "score": 900}, {"round": 2, "score": 500}]
    assert totals[2]["rounds"] == [{"round": 1, "score": 300}]


def test_skat_tie_break_more_won_then_fewer_lost_then_equal_rank():
    rows = [
        {"participant": 1, "score": 1000, "won": 10, "lost": 2},
        {"participant": 2, "score": 1000, "won": 11, "lost": 3},
        {"participant": 3, "score": 1000, "won": 10, "lost": 1},
        {"participant": 4, "score": 1000, "won": 10, "lost": 2},
        {"participant": 5, "score": 1200, "won": 1, "lost": 9},
    ]
    ranked = rank(rows, skat_key)
    assert [(r["participant"], r["rank"]) for r in ranked] == [
        (5, 1), (2, 2), (3, 3), (1, 4), (4, 4)]


def test_lowest_first_ranking_for_penalty_games():
    rows = [{"participant": p, "score": s} for p, s in [(1, 7), (2, 3), (3, 3), (4, 12)]]
    ranked = rank(rows, lambda r: (r["score"],))
    assert [(r["participant"], r["rank"]) for r in ranked] == [(2, 1), (3, 1), (1, 3), (4, 4)]


def test_empty_standings():
    assert rank([], lambda r: (r["score"],)) == []
    assert aggregate([], []) == []
