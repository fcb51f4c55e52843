"""What the apps above tournaments add to its pages.

Tournaments imports none of them (the import contracts); an app registers a reader here
from its ``AppConfig.ready`` instead — ``page_part("console", "show_prizes")`` on a
function of the tournament, ``page_part("me", "registration")`` on one of the player's
participation — and the page's context carries each reader's answer under its name.
Pages: ``console`` (the console's tournament page, given the tournament) and ``me`` (the
player's own page, given the participant).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PAGES = ("console", "me")
_PARTS: dict[str, dict[str, Callable[[Any], Any]]] = {page: {} for page in PAGES}


def page_part(page: str, name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register ``reader(obj)`` as the context variable ``name`` of ``page``."""
    def register(reader: Callable[[Any], Any]) -> Callable[[Any], Any]:
        _PARTS[page][name] = reader
        return reader
    return register


def page_parts(page: str, obj) -> dict[str, Any]:
    """Every part registered for ``page``, read for ``obj``."""
    return {name: read(obj) for name, read in _PARTS[page].items()}
