"""The pure rating update (games.md §10.1 *Model* and *Properties*)."""

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.skill import MU, NEW, SIGMA, Result, State, display, final_states, ranks, rate


def test_a_new_player_shows_1000():
    assert (MU, SIGMA) == (25.0, 25.0 / 3.0)
    assert NEW.rating == display(25.0, 25.0 / 3.0) == 1000


def test_equal_scores_share_a_rank_and_lower_wins_where_the_game_says():
    assert ranks([30, 10, 10, 5], lower_is_better=False) == [1, 2, 2, 4]
    assert ranks([30, 10, 10, 5], lower_is_better=True) == [4, 2, 2, 1]


def test_the_winner_rises_and_the_last_falls():
    after = rate([NEW, NEW, NEW], [120, 80, -30], lower_is_better=False)
    assert after[0].mu > MU > after[2].mu
    assert all(s.sigma < SIGMA and s.sheets == 1 for s in after)
    lowest = rate([NEW, NEW, NEW], [120, 80, -30], lower_is_better=True)
    assert lowest[2].mu > MU > lowest[0].mu


def test_the_pure_update_imports_no_django():
    assert "ratings.skill" in sys.modules
    import ratings.skill as skill
    assert "django" not in skill.__dict__


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(1, 30), st.lists(st.integers(-200, 200), min_size=30,
                                                      max_size=30))
def test_a_player_who_wins_every_table_rises_monotonically(size, tables, others):
    states = {p: NEW for p in range(size)}
    last = None
    for n in range(tables):
        scores = [500] + [min(others[(n + i) % 30], 400) for i in range(1, size)]
        after = rate([states[p] for p in range(size)], scores, lower_is_better=False)
        states = dict(enumerate(after))
        if last is not None:
            assert states[0].mu > last.mu and states[0].rating >= last.rating
        last = states[0]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.floats(0, 50), st.floats(0.5, 9), st.integers(-100, 100),
       st.booleans())
def test_an_all_tie_table_of_equals_changes_no_mu(size, mu, sigma, score, lower):
    after = rate([State(mu, sigma, 3)] * size, [score] * size, lower_is_better=lower)
    assert all(s.mu == mu for s in after)


tables = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.integers(0, 11),
                            st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50)),
                  min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(tables, st.randoms(use_true_random=False), st.booleans())
def test_the_order_of_tables_within_a_round_does_not_matter(rows, rnd, lower):
    """Tables whose players are all different: any order gives the same end state."""
    seen: set[int] = set()
    results = []
    for n, (a, b, c, x, y, z) in enumerate(rows):
        players = [p for p in dict.fromkeys((a, b, c)) if p not in seen]
        if len(players) < 2:
            continue
        seen.update(players)
        results.append(Result(f"k{n}", tuple(players), (x, y, z)[:len(players)]))
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert final_states(results, lower_is_better=lower) == \
        final_states(shuffled, lower_is_better=lower)


def test_deterministic():
    results = [Result(f"{n}", (n % 5, (n + 1) % 5, (n + 3) % 5), (n % 7, 3, n % 4))
               for n in range(200)]
    assert final_states(results, lower_is_better=False) == \
        final_states(list(results), lower_is_better=False)
