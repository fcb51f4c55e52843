"""games.md §10.4 as a pure function: best K per club, Skat's won/lost tie-break, La
Bâtarde ascending, clubs with fewer than K after."""

from tournaments.standings.clubs import club_standings


def row(pid, score, rank, won=0, lost=0):
    return {"participant": pid, "name": f"P{pid}", "score": score, "rank": rank,
            "won": won, "lost": lost}


NAMES = {10: "Altenburg", 20: "Bonn", 30: "Cottbus"}


def test_best_k_sum_ranks_clubs_and_short_clubs_come_after():
    rows = [row(1, 900, 1), row(2, 800, 2), row(3, 700, 3), row(4, 600, 4), row(5, 500, 5)]
    clubs = {1: 10, 2: 20, 3: 10, 4: 20, 5: 30}
    out = club_standings(rows, clubs, NAMES, k=2, standing_order="desc")
    assert [(r["club"], r["rank"], r["score"]) for r in out] == [
        (10, 1, 1600), (20, 2, 1400), (30, None, 500)]
    assert [p["participant"] for p in out[0]["players"]] == [1, 3]


def test_skat_tie_break_more_won_then_fewer_lost():
    rows = [row(1, 100, 1, won=5, lost=1), row(2, 100, 1, won=6, lost=2),
            row(3, 100, 1, won=6, lost=1)]
    clubs = {1: 10, 2: 20, 3: 30}
    out = club_standings(rows, clubs, NAMES, k=1, standing_order="desc",
                         tie_break=("won", "lost"))
    assert [(r["club"], r["rank"]) for r in out] == [(30, 1), (20, 2), (10, 3)]


def test_other_games_leave_equal_sums_equal():
    rows = [row(1, 100, 1), row(2, 100, 1), row(3, 50, 3)]
    out = club_standings(rows, {1: 10, 2: 20, 3: 30}, NAMES, k=1, standing_order="desc")
    assert [r["rank"] for r in out] == [1, 1, 3]


def test_la_batarde_counts_the_lowest_k_ascending():
    rows = [row(1, 2, 1), row(2, 5, 2), row(3, 7, 3), row(4, 30, 4)]
    clubs = {1: 10, 2: 20, 3: 20, 4: 10}
    out = club_standings(rows, clubs, NAMES, k=2, standing_order="asc")
    assert [(r["club"], r["score"], r["rank"]) for r in out] == [(20, 12, 1), (10, 32, 2)]


def test_players_without_a_club_count_for_none():
    out = club_standings([row(1, 9, 1)], {1: None}, NAMES, k=1, standing_order="desc")
    assert out == []
