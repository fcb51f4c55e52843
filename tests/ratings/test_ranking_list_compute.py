"""games.md §10.2 as pure functions: placement points, ties, best N, min_events, order."""

from hypothesis import given
from hypothesis import strategies as st

from ratings.ranking_lists.compute import place_points, ranking_list


def event(tid, places):
    return {"tournament": tid, "places": places}


def test_the_winner_of_forty_gets_forty_points():
    assert place_points(1, 40, "field") == 40
    assert place_points(40, 40, "field") == 1


def test_a_points_list_gives_zero_beyond_its_end():
    assert [place_points(p, 10, [25, 20, 16]) for p in (1, 2, 3, 4)] == [25, 20, 16, 0]


def test_tied_players_get_the_points_of_the_best_shared_place():
    # placed 3 = 3 with N = 10: both get 8 (games.md §10.2)
    places = {1: 1, 2: 2, 3: 3, 4: 3, **{p: p for p in range(5, 11)}}
    rows = ranking_list([event(1, places)])
    points = {r["player"]: r["points"] for r in rows}
    assert points[3] == points[4] == 8
    assert [r["rank"] for r in rows][:4] == [1, 2, 3, 3]


def test_best_n_counts_the_best_events_and_marks_them():
    events = [event(1, {"a": 3, "b": 1, "c": 2}), event(2, {"a": 1, "b": 3, "c": 2}),
              event(3, {"a": 1, "b": 2, "c": 3})]
    rows = ranking_list(events, best_n=2)
    a = next(r for r in rows if r["player"] == "a")
    assert a["points"] == 6
    assert [e["counted"] for e in a["events"]] == [False, True, True]
    assert [(r["player"], r["rank"]) for r in rows][0] == ("a", 1)


def test_order_more_events_then_better_best_place_then_equal_rank():
    # x: 3 + 3 points in two events; y: 6 in one (3 players: 1st gets 3... use a list)
    events = [event(1, {"x": 2, "y": 1, "z": 3}), event(2, {"x": 2, "z": 1})]
    rows = ranking_list(events, points=[4, 2, 0])
    # x: 2 + 2 = 4 in 2 events; y: 4 in 1 event; z: 0 + 4 = 4 in 2 events, best place 1
    assert [(r["player"], r["rank"]) for r in rows] == [("z", 1), ("x", 2), ("y", 3)]
    same = ranking_list([event(1, {"p": 1, "q": 1})])
    assert [r["rank"] for r in same] == [1, 1]


def test_players_with_too_few_events_come_after_unranked():
    events = [event(1, {"a": 1, "b": 2}), event(2, {"b": 1})]
    rows = ranking_list(events, min_events=2)
    assert [(r["player"], r["rank"]) for r in rows] == [("b", 1), ("a", None)]


@given(st.lists(st.dictionaries(st.integers(0, 8), st.integers(1, 9), min_size=1),
                max_size=6),
       st.one_of(st.none(), st.integers(1, 4)))
def test_points_are_the_sum_of_the_counted_events(raw, best_n):
    rows = ranking_list([event(i, places) for i, places in enumerate(raw)], best_n=best_n)
    for row in rows:
        counted = [e for e in row["events"] if e["counted"]]
        assert row["points"] == sum(e["points"] for e in counted)
        assert best_n is None or len(counted) <= best_n
        # the counted ones are the best: none left out has more points
        left = [e["points"] for e in row["events"] if not e["counted"]]
        assert not left or max(left) <= min(e["points"] for e in counted)
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks)
