"""The conformance cases (games/conformance/<game>.json) hold for our engines: the one
source of games.md's worked examples and the engines' table-driven cases, which the
public suite (``GET /games/{game}/conformance/``, ``python -m games.conformance``) serves
to other implementers."""

import pytest

from games.conformance import GAMES, differences, load
from games.engines import EngineUserError, get_engine

CASES = [(game, case) for game in GAMES for case in load(game)]


def answer(game: str, case: dict) -> tuple[int, dict]:
    """The engine's answer in the scorer's shape: (status, body)."""
    try:
        result = get_engine(game).score_sheet(case["deals"], case["players"], case["rules"])
    except EngineUserError as exc:
        return 400, {"errors": [{"field": e.field} for e in exc.errors]}
    return 200, {"deals": [{"scores": d.scores} for d in result.deals],
                 "totals": result.totals}


@pytest.mark.parametrize("game, case", CASES, ids=[case["id"] for _, case in CASES])
def test_case_holds_for_the_engine(game, case):
    assert differences(case, *answer(game, case)) == []


def test_every_game_has_cases_with_unique_ids_and_every_expectation_kind():
    ids = [case["id"] for _, case in CASES]
    assert len(ids) == len(set(ids))
    for game in GAMES:
        cases = load(game)
        assert all(set(c) >= {"id", "source", "players", "rules", "deals", "expect"}
                   for c in cases)
        assert any("error_field" in c["expect"] for c in cases), game


def test_games_md_worked_examples_are_among_the_cases():
    sources = {case["source"] for _, case in CASES}
    for section in ("§1 Game value", "§1 Series totals", "§3 Seed example 1",
                    "§3 Seed example 2", "§5 Seed example", "§8.9 D1", "§8.9 D15",
                    "§8.9 Sheet example S1"):
        assert any(section in source for source in sources), section


def test_a_wrong_answer_is_reported():
    case = next(c for c in load("skat") if c["id"] == "skat-md-1")
    assert differences(case, 200, {"deals": [{"scores": [87, 0, 0]}]}) == [
        "deal 1: scores [87, 0, 0] instead of [88, 0, 0]"]
    refused = next(c for c in load("basler") if "error_field" in c["expect"])
    assert differences(refused, 200, {"deals": [], "totals": []})
