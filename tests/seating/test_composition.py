"""Table composition: the most preferred-size tables, the rest as close as possible.

The rule is checked against an independent brute force that lists every way to write
a player count as a sum of allowed sizes (no pruning), so the module's shortcut (other
sizes occur fewer than ``preferred`` times) is tested too.
"""

from __future__ import annotations

import functools
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seating import SeatingError, SeatingInternalError, composition

GAMES = {
    "skat": ((3, 4), 4),
    "schafkopf": ((4, 5), 4),
    "baptistenskat": ((3, 4, 5, 6), 4),
    "basler": ((4,), 4),
    "labatarde": ((3, 4, 5, 6, 7), 4),
}
SKAT = GAMES["skat"]


@functools.cache
def every_split(count: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """All multisets of ``sizes`` summing to ``count``, each largest first."""
    if count == 0:
        return ((),)
    found = []
    for i, size in enumerate(sizes):
        if size <= count:
            # only sizes <= this one after it, so each multiset appears once
            for rest in every_split(count - size, sizes[i:]):
                found.append((size, *rest))
    return tuple(found)


def best_by_rule(count: int, sizes: tuple[int, ...], preferred: int) -> list[int] | None:
    def key(tables):
        devs = [abs(s - preferred) for s in tables]
        return (-tables.count(preferred), max(devs), sum(devs), len(tables),
                [-s for s in tables])
    splits = every_split(count, tuple(sorted(sizes, reverse=True)))
    return list(min(splits, key=key)) if count and splits else None


def test_thirteen_skat_players_sit_at_one_four_table_and_three_three_tables():
    assert composition(13, *SKAT) == [4, 3, 3, 3]


@pytest.mark.parametrize(("game", "count", "expected"), [
    ("skat", 3, [3]),
    ("skat", 6, [3, 3]),
    ("skat", 7, [4, 3]),
    ("skat", 9, [3, 3, 3]),
    ("skat", 16, [4, 4, 4, 4]),
    ("skat", 17, [4, 4, 3, 3, 3]),
    ("schafkopf", 13, [5, 4, 4]),
    ("schafkopf", 19, [5, 5, 5, 4]),
    ("baptistenskat", 10, [4, 3, 3]),  # not [6, 4]: a 6-table is two away from 4
    ("baptistenskat", 13, [5, 4, 4]),
    ("basler", 8, [4, 4]),
    ("labatarde", 6, [3, 3]),
    ("labatarde", 7, [4, 3]),
    ("labatarde", 11, [4, 4, 3]),
])
def test_composition_examples(game, count, expected):
    assert composition(count, *GAMES[game]) == expected


@given(st.integers(min_value=6, max_value=3000))
def test_skat_tables_are_4a_plus_3b_with_b_smallest(count):
    tables = composition(count, *SKAT)
    threes = min(b for b in range(4) if (count - 3 * b) % 4 == 0)
    assert tables == [4] * ((count - 3 * threes) // 4) + [3] * threes


@given(st.sampled_from(sorted(GAMES)), st.integers(min_value=0, max_value=60))
def test_composition_matches_the_rule_by_brute_force(game, count):
    sizes, preferred = GAMES[game]
    expected = best_by_rule(count, sizes, preferred)
    if expected is None:
        with pytest.raises(SeatingError):
            composition(count, sizes, preferred)
    else:
        assert composition(count, sizes, preferred) == expected


@given(st.sampled_from(sorted(GAMES)), st.integers(min_value=1, max_value=5000))
def test_composition_seats_everyone_at_allowed_sizes_largest_first(game, count):
    sizes, preferred = GAMES[game]
    try:
        tables = composition(count, sizes, preferred)
    except SeatingError as error:
        assert error.field == "players"
        return
    assert sum(tables) == count
    assert set(tables) <= set(sizes)
    assert tables == sorted(tables, reverse=True)


@pytest.mark.parametrize(("game", "count", "reason"), [
    ("skat", 5, "5 players cannot be split into tables of 3, 4 players."),
    ("basler", 6, "6 players cannot be split into tables of 4 players."),
    ("schafkopf", 7, "7 players cannot be split into tables of 4, 5 players."),
    ("skat", 0, "There are no players to seat."),
    ("skat", 2, "Too few players (2): a table needs at least 3 players."),
])
def test_a_count_that_cannot_be_seated_names_players_and_says_why(game, count, reason):
    with pytest.raises(SeatingError) as caught:
        composition(count, *GAMES[game])
    assert caught.value.field == "players"
    assert caught.value.render() == reason
    assert caught.value.params["count"] == count if count else not caught.value.params


def test_the_message_is_translated_before_the_parameters_are_filled_in():
    with pytest.raises(SeatingError) as caught:
        composition(5, *SKAT)
    german = {"%(count)s players cannot be split into tables of %(sizes)s players.":
              "%(count)s Spieler lassen sich nicht auf Tische zu %(sizes)s Spielern verteilen."}
    assert caught.value.render(german.get) == (
        "5 Spieler lassen sich nicht auf Tische zu 3, 4 Spielern verteilen.")


def test_a_seating_error_survives_pickling_with_its_field_and_params():
    with pytest.raises(SeatingError) as caught:
        composition(5, *SKAT)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.field, copy.message, copy.params) == (
        caught.value.field, caught.value.message, caught.value.params)


@pytest.mark.parametrize(("sizes", "preferred"), [((3, 4), 5), ((), 4), ((0, 4), 4)])
def test_a_bad_game_definition_is_an_internal_error(sizes, preferred):
    with pytest.raises(SeatingInternalError):
        composition(12, sizes, preferred)
