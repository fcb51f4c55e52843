"""The API's routes, for the permission matrices' coverage checks
(``tests/tournaments/test_permissions.py``, ``tests/leagues/test_permissions.py``)."""

import re

from django.urls import URLPattern, URLResolver, get_resolver


def routes(patterns=None, prefix=""):
    """``(route, callback)`` for every URL pattern, its resolvers' prefixes joined."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, text)
        elif isinstance(pattern, URLPattern):
            yield text, pattern.callback


def shape(route: str) -> str:
    """A route or a matrix path as ``tournaments/{}/rounds/``."""
    route = route.replace("^", "").replace("$", "").replace("\\", "")
    route = re.sub(r"\(\?P<[^>]+>[^)]*\)|<[^>]+>|\{[^}]+\}|\b\d+\b", "{}", route)
    return route.removeprefix("/api/v1/").removeprefix("api/v1/")


def api_shapes() -> set[str]:
    """Every route of ``/api/v1/`` in shape form (the router's index and format suffixes
    left out)."""
    found = {shape(r) for r, _callback in routes()
             if r.startswith("api/v1/") and "format" not in r}
    return found - {""}


METHODS = ("get", "post", "put", "patch", "delete")


def served_methods(prefixes: tuple[str, ...]) -> set[tuple[str, str]]:
    """``(method, shape)`` for every method the API's class-based views answer on the
    routes whose shape starts with one of ``prefixes``."""
    served = set()
    for route, callback in routes():
        if not route.startswith("api/v1/") or "format" in route:
            continue
        path = shape(route)
        if not path.startswith(prefixes):
            continue
        actions = getattr(callback, "actions", None)  # a viewset's route
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if actions is not None:
            served |= {(m, path) for m in actions if m in METHODS}
        elif view is not None:
            served |= {(m, path) for m in METHODS if hasattr(view, m)}
    return served
