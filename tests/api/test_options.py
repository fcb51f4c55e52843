"""OPTIONS on every route under /api/, as staff and as nobody: never a 500, always JSON
(``api.metadata``: an action without a body, such as ``…/finish/``, has no serializer)."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _pieces(pattern) -> str:
    return str(pattern.pattern)


def api_routes() -> list[str]:
    """Every route of the URL conf under ``api/``, as its pattern text (joined)."""
    out: list[str] = []

    def walk(patterns, prefix):
        for p in patterns:
            text = prefix + _pieces(p)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, text)
            elif isinstance(p, URLPattern) and text.lstrip("^").startswith("api/"):
                out.append(text)

    walk(get_resolver().url_patterns, "")
    return out


def concrete(route: str, values: dict[str, str]) -> str:
    """A path for ``route``: converters and named groups filled from ``values``."""
    def value(name: str) -> str:
        if name == "pk":
            for prefix, key in (("tournaments", "tournament_id"), ("clubs", "club_id"),
                                ("players", "player_id")):
                if f"api/v1/{prefix}/" in path_so_far[0]:
                    return values[key]
        return values.get(name, "1")

    path_so_far = [route.replace("^", "")]
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: value(m[1]), path_so_far[0])
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: value(m[1]), path)
    path = path.replace("\\.", ".").replace("/?$", "/").replace("$", "")
    return "/" + path


@pytest.fixture
def values(short_skat, club, drawn, table):
    player = PlayerFactory(club=club)
    return {"tournament_id": str(short_skat.pk), "club_id": str(club.pk),
            "player_id": str(player.pk), "table_id": str(table["id"]), "number": "1",
            "game": "skat", "year": "2026", "format": "json",
            "participant_id": str(short_skat.participants.first().pk)}


def test_every_route_under_api_is_walked():
    routes = api_routes()
    assert len(routes) > 30
    assert any("finish" in r for r in routes) and any("schema" in r for r in routes)


@pytest.mark.parametrize("who", ["staff", "anonymous"])
def test_options_is_never_a_500_and_always_json(who, values, director_client, anon_client):
    client = director_client if who == "staff" else anon_client
    client.raise_request_exception = False
    bad = []
    for route in api_routes():
        path = concrete(route, values)
        resp = client.options(path, HTTP_ACCEPT="application/json")
        kind = resp.get("Content-Type", "")
        if resp.status_code >= 500 or "json" not in kind:
            bad.append((path, resp.status_code, kind))
    assert bad == []


def test_options_on_finish_and_reopen_describe_the_action(short_skat, director_client):
    for action in ("finish", "reopen"):
        resp = director_client.options(f"/api/v1/tournaments/{short_skat.pk}/{action}/")
        assert resp.status_code == 200, resp.content
        body = resp.json()
        assert body["name"] and "actions" not in body


def test_options_still_describes_a_body(director_client):
    resp = director_client.options("/api/v1/clubs/")
    assert resp.status_code == 200
    assert {"name", "city"} <= set(resp.json()["actions"]["POST"])
