"""The public conformance suite: every worked example of games.md and the engines' own
table-driven cases, kept as data (``<game>.json`` beside this module), one source for the
engine tests, ``GET /api/v1/games/{game}/conformance/`` and the runner
(``python -m games.conformance URL``).

A case is ``{"id", "title", "source", "players", "rules", "deals", "expect"}``; ``expect``
holds any of

- ``scores``: each deal's scores in seat order (``null`` for a deal that is not checked:
  the deals that only lead up to the one a case is about);
- ``totals``: each seat's totals; every figure given must match (more figures may follow);
- ``error_field``: the scorer refuses the sheet (HTTP 400) and names this field (a dotted
  path as in the answer's ``errors[].field``, e.g. ``matadors``, ``bids.2``,
  ``rules.tariff``).

Pure Python and the standard library only, so that another implementer can copy this
folder and run it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GAMES = ("skat", "schafkopf", "baptistenskat", "basler", "labatarde", "doppelkopf")


@cache
def _document(game: str) -> dict[str, Any]:
    with open(HERE / f"{game}.json", encoding="utf-8") as handle:
        return json.load(handle)


def load(game: str) -> list[dict[str, Any]]:
    """The cases of ``game`` (a fresh copy: callers may change them)."""
    if game not in GAMES:
        raise KeyError(game)
    return json.loads(json.dumps(_document(game)["cases"]))


def request_body(case: dict[str, Any]) -> dict[str, Any]:
    """What the case sends to ``POST /games/{game}/score/``."""
    return {"players": case["players"], "rules": case["rules"], "deals": case["deals"]}


def _named_fields(body: Any) -> set[str]:
    """Every field a 400 answer names: ``errors[].field`` and the nested keys' paths."""
    names: set[str] = set()
    if isinstance(body, dict):
        for error in body.get("errors") or []:
            if isinstance(error, dict) and isinstance(error.get("field"), str):
                names.add(error["field"])

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("errors", "detail", "code"):
                    continue
                names.add(str(key))
                names.add(f"{path}.{key}" if path else str(key))
                walk(value, f"{path}.{key}" if path else str(key))

    walk(body, "")
    return names


def differences(case: dict[str, Any], status: int, body: Any) -> list[str]:
    """What the scorer's answer (``status``, parsed ``body``) got wrong; empty when right."""
    expect = case["expect"]
    if "error_field" in expect:
        if status != 400:
            return [f"expected 400 naming {expect['error_field']!r}, got {status}"]
        if expect["error_field"] not in _named_fields(body):
            return [f"the 400 does not name {expect['error_field']!r}"]
        return []
    if status != 200 or not isinstance(body, dict):
        return [f"expected 200, got {status}: {json.dumps(body, ensure_ascii=False)[:200]}"]
    found: list[str] = []
    if "scores" in expect:
        deals = body.get("deals")
        if not isinstance(deals, list) or len(deals) != len(expect["scores"]):
            return [f"expected {len(expect['scores'])} scored deals"]
        for number, (want, got) in enumerate(zip(expect["scores"], deals, strict=True), 1):
            scores = got.get("scores") if isinstance(got, dict) else None
            if want is not None and scores != want:
                found.append(f"deal {number}: scores {scores} instead of {want}")
    if "totals" in expect:
        totals = body.get("totals")
        if not isinstance(totals, list) or len(totals) != len(expect["totals"]):
            return [*found, f"expected totals for {len(expect['totals'])} seats"]
        for want, got in zip(expect["totals"], totals, strict=True):
            for key, value in want.items():
                actual = got.get(key) if isinstance(got, dict) else None
                if actual != value:
                    found.append(f"seat {want.get('seat')}: {key} {actual} instead of {value}")
    return found


def case(game: str, case_id: str) -> dict[str, Any]:
    """One case of ``game`` by its id."""
    return next(c for c in load(game) if c["id"] == case_id)
