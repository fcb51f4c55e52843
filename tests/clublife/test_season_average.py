"""The season ranking by average per round (*Rundenschnitt*), as the DDV ranks Doppelkopf
(games.md §8.8): the counted score divided by the rounds played, ranked by the game's key
on it; the sum stays the default."""

import pytest

from clublife.season_ranking import season_ranking


def doko_key(row):
    return (-row["score"],)


def seat(player, evening, score):
    return {"player": player, "evening": evening, "date": f"2026-02-{evening:02d}",
            "score": score, "solos": 1}


# player 1: 3 rounds on evening 1 and 3 on evening 2, 60 points in all (10 per round);
# player 2: 2 rounds, 30 points (15 per round); player 3: 4 rounds, 40 points (10)
ROWS = ([seat(1, 1, 20), seat(1, 1, 10), seat(1, 1, 0), seat(1, 2, 30), seat(1, 2, -10),
         seat(1, 2, 10)] + [seat(2, 1, 20), seat(2, 1, 10)]
        + [seat(3, 1, 10)] * 2 + [seat(3, 2, 10)] * 2)


def test_by_sum_the_most_points_rank_first():
    ranked = season_ranking(ROWS, ("solos",), doko_key)
    assert [(r["player"], r["rank"], r["score"]) for r in ranked] == [
        (1, 1, 60), (3, 2, 40), (2, 3, 30)]


def test_by_average_per_round_fewer_rounds_can_rank_first():
    ranked = season_ranking(ROWS, ("solos",), doko_key, ranked_by="average")
    assert [(r["player"], r["rank"], r["rounds"], r["average"], r["solos"])
            for r in ranked] == [(2, 1, 2, 15.0, 2), (1, 2, 6, 10.0, 6), (3, 2, 4, 10.0, 4)]


def test_the_average_counts_only_the_counted_evenings_and_the_minimum_still_holds():
    ranked = season_ranking(ROWS, ("solos",), doko_key, ranked_by="average", best_n=1,
                            min_evenings=2)
    # player 1's evenings are equal (30 in 3 rounds each): the earlier counts; player 2
    # attended once
    by_player = {r["player"]: r for r in ranked}
    assert [e["counted"] for e in by_player[1]["results"]] == [True, False]
    assert (by_player[1]["score"], by_player[1]["rounds"], by_player[1]["average"]) \
        == (30, 3, 10.0)
    assert by_player[2]["rank"] is None and ranked[-1]["player"] == 2
    assert [r["player"] for r in ranked if r["rank"]] == [1, 3]


def test_an_unknown_ranking_is_refused():
    with pytest.raises(ValueError):
        season_ranking(ROWS, ("solos",), doko_key, ranked_by="median")
