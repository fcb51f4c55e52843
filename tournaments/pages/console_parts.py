"""What the apps above tournaments add to the console's tournament page.

Tournaments imports none of them (the import contracts); an app registers a reader here
from its ``AppConfig.ready`` instead — ``console_part("show_prizes")`` on a function of
the tournament — and the page's context carries each reader's answer under its name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PARTS: dict[str, Callable[[Any], Any]] = {}


def console_part(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register ``reader(tournament)`` as the context variable ``name``."""
    def register(reader: Callable[[Any], Any]) -> Callable[[Any], Any]:
        _PARTS[name] = reader
        return reader
    return register


def console_parts(tournament) -> dict[str, Any]:
    """Every registered part's answer for ``tournament``."""
    return {name: read(tournament) for name, read in _PARTS.items()}
