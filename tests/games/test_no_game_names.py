"""No page, template, script, API module or app outside ``games`` names a game: they ask
the engine registry and the game's presentation (``games.presentation``) — a league asks
how the game's league is played (``Engine.league``) — so a new game touches ``games/``
only.

The search looks for the game keys as quoted strings (``"skat"``), as module paths or
attributes (``engines.skat``, ``skat.opponent_bonus``), in comparisons (``== skat``) and as
query values (``game=skat``); words in prose ("the skat") are no game key. Migrations are
history and not searched.
"""

import re
from pathlib import Path

from games.engines import all_engines

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("tournaments", "clubs", "clublife", "ratings", "leagues", "api", "config", "templates",
           "static")
SUFFIXES = {".py", ".html", ".js", ".txt", ".json"}

# (path, key) → why it stays
ALLOWED = {
    ("tournaments/management/commands/demo.py", "skat"):
        "the demo command creates a Skat tournament: data chosen by the demo, not a branch",
    ("config/env.py", "skat"): "an example host name (skat.example.org) in a docstring",
}


def pattern(key: str) -> re.Pattern:
    return re.compile(
        rf"""(["']){key}\1|\.{key}\b|\b{key}\.(?=[A-Za-z_])|==\s*{key}\b|game={key}\b""")


def files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "migrations" in path.parts \
                    or "vendor" in path.parts or "__pycache__" in path.parts:
                continue
            yield path


def test_nothing_outside_games_names_a_game():
    keys = [engine.key for engine in all_engines()]
    found = []
    for path in files():
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        for key in keys:
            if (name, key) not in ALLOWED and pattern(key).search(text):
                line = next(n for n, line in enumerate(text.splitlines(), start=1)
                            if pattern(key).search(line))
                found.append(f"{name}:{line}: {key}")
    assert not found, "game named outside games/: " + "; ".join(found)


def test_the_search_finds_a_game_named_in_a_branch():
    assert pattern("skat").search('if game == "skat":')
    assert pattern("skat").search("from games.engines.skat import opponent_bonus")
    assert pattern("skat").search('{% if t.game == "skat" %}')
    assert not pattern("skat").search('{% translate "Card points in the skat" %}')
    assert not pattern("skat").search('field="skat_points"')


def test_every_allowed_place_still_names_its_game():
    for (name, key), _why in ALLOWED.items():
        assert pattern(key).search((ROOT / name).read_text(encoding="utf-8")), name
