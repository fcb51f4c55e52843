"""The pure season ranking: best N of M, minimum attendance, the game's tie-break."""

import subprocess
import sys
from pathlib import Path

from clublife.season_ranking import evening_results, season_ranking

ROOT = Path(__file__).resolve().parents[2]


def skat_key(row):
    return (-row["score"], -row["won"], row["lost"])


def seat(player, evening, score, won=0, lost=0, date=None):
    return {"player": player, "evening": evening, "date": date or f"2026-01-{evening:02d}",
            "score": score, "game_points": 0, "won": won, "lost": lost}


FIGURES = ("game_points", "won", "lost")


def test_importing_the_season_module_does_not_import_django():
    code = "import sys, clublife.season_ranking; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_seats_of_one_evening_are_summed():
    rows = evening_results([seat(1, 1, 100, won=2), seat(1, 1, 50, lost=1), seat(1, 2, 7)],
                           FIGURES)
    assert [(r["evening"], r["score"], r["won"], r["lost"]) for r in rows] == [
        (1, 150, 2, 1), (2, 7, 0, 0)]


def test_all_evenings_count_without_best_n():
    ranked = season_ranking([seat(1, 1, 100), seat(1, 2, 100), seat(2, 1, 150)], FIGURES,
                            skat_key)
    assert [(r["player"], r["rank"], r["score"], r["attended"]) for r in ranked] == [
        (1, 1, 200, 2), (2, 2, 150, 1)]


def test_best_n_counts_the_best_evenings_by_the_games_order():
    rows = [seat(1, 1, 10), seat(1, 2, 300), seat(1, 3, 50), seat(1, 4, 300, won=3)]
    (row,) = season_ranking(rows, FIGURES, skat_key, best_n=2)
    assert row["score"] == 600 and row["counted"] == 2 and row["attended"] == 4
    assert [e["counted"] for e in row["results"]] == [False, True, False, True]


def test_equal_evenings_count_the_earlier_one():
    (row,) = season_ranking([seat(1, 2, 100), seat(1, 1, 100)], FIGURES, skat_key, best_n=1)
    assert [(e["evening"], e["counted"]) for e in row["results"]] == [(1, True), (2, False)]


def test_players_below_the_attendance_minimum_follow_without_a_rank():
    rows = [seat(1, 1, 50), seat(1, 2, 50), seat(2, 1, 900)]
    ranked = season_ranking(rows, FIGURES, skat_key, min_evenings=2)
    assert [(r["player"], r["rank"], r["qualified"]) for r in ranked] == [
        (1, 1, True), (2, None, False)]


def test_ties_are_broken_by_won_then_lost_games_and_otherwise_shared():
    rows = [seat(1, 1, 100, won=1), seat(2, 1, 100, won=2), seat(3, 1, 100, won=2, lost=1),
            seat(4, 1, 100, won=2)]
    ranked = season_ranking(rows, FIGURES, skat_key)
    assert [(r["player"], r["rank"]) for r in ranked] == [(2, 1), (4, 1), (3, 3), (1, 4)]


def test_lower_is_better_for_an_ascending_game():
    ranked = season_ranking([seat(1, 1, 30), seat(2, 1, 10)], FIGURES,
                            lambda r: (r["score"],))
    assert [r["player"] for r in ranked] == [2, 1]
