"""Page panels: parts of the lower rooms' pages that the apps above provide.

Some pages are served by rooms below the apps that know more about what they show: a
player's pages (the profile in club life, the personal page ``/me/<token>/`` here) and a
club's page (club life) are below the ratings. Such an app registers a *panel* for a
*slot* in its ``AppConfig.ready`` — a function ``(request, obj, **options)`` returning
HTML ("" for nothing) — and the page renders the slot's panels in order (``panels``).
The lower rooms never import the upper ones; a panel renders its own template.

Slots: ``"player"`` (obj: the ``clubs.Player``; option ``own``: True on the player's own
personal page, where he sees all that is his and which has no per-game table of
events and sheets as the public profile has) and ``"club"`` (obj: the ``clubs.Club``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.safestring import SafeString, mark_safe

Panel = Callable[..., str]
SLOTS = ("player", "club")
_PANELS: dict[str, dict[str, Panel]] = {slot: {} for slot in SLOTS}


def register_panel(slot: str, name: str, panel: Panel) -> None:
    """Add (or replace, by ``name``) a panel of ``slot``; from an ``AppConfig.ready``."""
    _PANELS[slot][name] = panel


def panels(slot: str, request, obj, **options) -> list[SafeString]:
    """The slot's panels rendered for ``obj`` (empty ones left out)."""
    out = []
    for panel in _PANELS[slot].values():
        html = panel(request, obj, **options)
        if html:
            out.append(mark_safe(html))  # noqa: S308 — a panel renders an escaped template
    return out
