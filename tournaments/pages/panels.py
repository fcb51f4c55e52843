"""Player panels: parts of a player's pages that the apps above provide.

A player's pages (the profile in club life, the personal page ``/me/<token>/``) are
served by the rooms below the apps that know more about the player (ratings). Such an
app registers a *panel* in its ``AppConfig.ready`` — a function ``(request, player,
*, own)`` returning HTML (or "" for nothing) — and the pages render every registered
panel in order. ``own`` is True on the player's own personal page, where the player sees
what is his; False where anyone looks. The lower rooms never import the upper ones.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.utils.safestring import SafeString, mark_safe

log = logging.getLogger(__name__)

Panel = Callable[..., str]
_PANELS: dict[str, Panel] = {}


def register_player_panel(name: str, panel: Panel) -> None:
    """Add (or replace, by ``name``) a panel; called from an ``AppConfig.ready``."""
    _PANELS[name] = panel


def player_panels(request, player, *, own: bool = False) -> list[SafeString]:
    """The registered panels' HTML for this player (empty ones left out)."""
    out = []
    for panel in _PANELS.values():
        html = panel(request, player, own=own)
        if html:
            out.append(mark_safe(html))  # noqa: S308 — the panel renders a template
    return out
