"""Strict input on every write (``api.strict``, ``api.query``): a number where text is
meant, 0/1/"true" where a boolean is meant, ``null`` for a list, a control character in a
name and a key the endpoint does not write are each a 400 naming the field, and nothing is
stored. Empty query values are a 400 naming the parameter."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.apps import apps

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@dataclass
class Write:
    name: str
    method: str
    path: str  # formatted with the ids of the ``ids`` fixture
    body: dict
    text: list[str] = field(default_factory=list)
    bools: list[str] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=lambda: ["surprise"])


WRITES = [
    Write("club create", "post", "/api/v1/clubs/", {"name": "Neu"}, text=["name", "city"],
          names=["name", "city"], unknown=["id", "slug", "admins"]),
    Write("club change", "patch", "/api/v1/clubs/{club}/", {"name": "Neu"},
          text=["name", "city"], names=["name"], unknown=["id", "slug", "admins"]),
    Write("club replace", "put", "/api/v1/clubs/{club}/", {"name": "Neu"}, text=["name"],
          names=["name"], unknown=["slug"]),
    Write("player create", "post", "/api/v1/players/", {"name": "Anna"},
          text=["name", "member_number"], names=["name"], unknown=["id", "club_name"]),
    Write("player change", "patch", "/api/v1/players/{player}/", {"name": "Anna"},
          text=["name"], names=["name"], unknown=["id"]),
    Write("tournament create", "post", "/api/v1/tournaments/",
          {"name": "Pokal", "game": "skat"}, text=["name"],
          bools=["published", "avoid_same_club"], names=["name"],
          unknown=["id", "slug", "status", "admins"]),
    Write("tournament change", "patch", "/api/v1/tournaments/{tournament}/", {"name": "Pokal"},
          text=["name"], bools=["published", "avoid_same_club"], names=["name"],
          unknown=["id", "slug", "admins", "participants"]),
    Write("participant add", "post", "/api/v1/tournaments/{tournament}/participants/",
          {"player": "{new_player}"}, bools=["checked_in", "withdrawn"], unknown=["id"]),
    Write("participant change", "patch",
          "/api/v1/tournaments/{tournament}/participants/{participant}/", {"withdrawn": False},
          bools=["checked_in", "withdrawn"], unknown=["id", "paid"]),
    Write("team create", "post", "/api/v1/tournaments/{tournament}/teams/",
          {"name": "Asse", "members": []}, text=["name"], lists=["members"], names=["name"]),
    Write("team change", "patch", "/api/v1/tournaments/{tournament}/teams/{team}/",
          {"name": "Asse"}, text=["name"], lists=["members"], names=["name"], unknown=["id"]),
    Write("prize list", "put", "/api/v1/tournaments/{tournament}/prizes/",
          {"entry_fee_cents": 1000}, lists=["places_cents", "places_goods"]),
    Write("prize lot", "put", "/api/v1/tournaments/{tournament}/prizes/lots/", {"order": []},
          lists=["order"]),
    Write("draw", "post", "/api/v1/tournaments/{tournament}/rounds/", {"method": "random"}),
    Write("swap", "post", "/api/v1/tournaments/{tournament}/rounds/1/swap/", {"a": 1, "b": 2}),
    Write("sheet end", "post", "/api/v1/tables/{table}/end/", {"reason": "Zeit"},
          text=["reason"], names=["reason"]),
    Write("sheet submit", "post", "/api/v1/tables/{table}/submit/", {"confirmed_by": [1]},
          lists=["confirmed_by"]),
    Write("summary", "put", "/api/v1/tables/{table}/summary/", {"seats": []},
          lists=["seats"]),
    Write("evening", "post", "/api/v1/clubs/{club}/evenings/", {"date": "2026-05-01"},
          lists=["player_ids", "guests"]),
    Write("club settings", "patch", "/api/v1/clubs/{club}/settings/", {"default_game": "skat"},
          text=["default_game"], unknown=["id"]),
    Write("members preview", "post", "/api/v1/clubs/{club}/members/preview/",
          {"csv": "Anna;1\n"}, text=["csv"], lists=["as_new"]),
    Write("members import", "post", "/api/v1/clubs/{club}/members/import/",
          {"csv": "Anna;1\n"}, text=["csv"], lists=["as_new"]),
    Write("season rules", "put", "/api/v1/clubs/{club}/seasons/2026/",
          {"best_n": None, "min_evenings": 0}),
    Write("table money", "put", "/api/v1/tournaments/{tournament}/table-money/",
          {"loss_fee_cents": None}),
    Write("merge", "post", "/api/v1/players/{player}/merge/", {"remove": "{new_player}"}),
    Write("deal", "post", "/api/v1/tables/{table}/deals/",
          {"number": 1, "declarer": 2, "game": "clubs", "matadors": 1, "won": True},
          bools=["won"]),
    Write("deal preview", "post", "/api/v1/tables/{table}/preview/",
          {"number": 1, "declarer": 2, "game": "clubs", "matadors": 1, "won": True},
          bools=["won"]),
    Write("scorer", "post", "/api/v1/games/skat/score/", {"players": 3, "deals": []}),
    Write("login", "post", "/api/v1/auth/token/", {"username": "x", "password": "y"},
          text=["username", "password"]),
]


def bad_bodies(write: Write):
    for name in write.text:
        yield name, f"{name}: a number", {**write.body, name: 0}
    for name in write.bools:
        for value in (0, 1, "true"):
            yield name, f"{name}: {value!r}", {**write.body, name: value}
    for name in write.lists:
        yield name, f"{name}: null", {**write.body, name: None}
    for name in write.names:
        yield name, f"{name}: control character", {**write.body, name: "Anna\u0010"}
    for name in write.unknown:
        yield name, f"{name}: unknown", {**write.body, name: 1}


CASES = [pytest.param(w, field_name, body, id=f"{w.name} / {what}")
         for w in WRITES for field_name, what, body in bad_bodies(w)]


def stored() -> dict:
    """Every row of the domain's tables: what "nothing stored" compares."""
    return {model._meta.label: list(model.objects.order_by("pk").values())
            for label in ("clubs", "tournaments", "prizes", "signup", "clublife")
            for model in apps.get_app_config(label).get_models()}


@pytest.fixture
def ids(short_skat, club, drawn, table, director_client):
    team = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/teams/",
                                {"name": "Erste", "members": []}, format="json")
    assert team.status_code == 201, team.content
    return {"club": club.pk, "tournament": short_skat.pk, "table": table["id"],
            "player": short_skat.participants.first().player_id,
            "participant": short_skat.participants.first().pk,
            "new_player": PlayerFactory(club=club).pk, "team": team.json()["id"]}


def _fill(value, ids):
    if isinstance(value, str) and value.startswith("{"):
        return int(value.format(**ids))
    return value


@pytest.mark.parametrize("write,field_name,body", CASES)
def test_loose_input_is_400_naming_the_field_and_stores_nothing(write, field_name, body, ids,
                                                                director_client):
    director_client.raise_request_exception = False
    body = {key: _fill(value, ids) for key, value in body.items()}
    before = stored()
    resp = getattr(director_client, write.method)(write.path.format(**ids), body,
                                                  format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400, resp.content
    named = {e["field"].split(".")[0] for e in resp.json()["errors"]}
    assert field_name in named, resp.json()
    assert stored() == before


def test_every_write_serializer_is_strict():
    """Every serializer of the API derives from the strict bases (so new ones do too)."""
    import importlib
    import pkgutil

    from rest_framework import serializers

    import api
    from api.strict import StrictFieldsMixin

    loose = []
    for info in pkgutil.iter_modules(api.__path__):
        module = importlib.import_module(f"api.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, serializers.BaseSerializer)
                    and value.__module__ == module.__name__
                    and not issubclass(value, StrictFieldsMixin)):
                loose.append(value.__qualname__)
    assert loose == []


def test_strict_text_is_stripped_and_multi_line_keeps_its_breaks(director_client, club):
    resp = director_client.post("/api/v1/clubs/", {"name": "  Neu  "}, format="json")
    assert resp.status_code == 201 and resp.json()["name"] == "Neu"
    csv = director_client.post(f"/api/v1/clubs/{club.pk}/members/preview/",
                               {"csv": "Anna Beck;1\r\nBernd Carl;2\n"}, format="json")
    assert csv.status_code == 200, csv.content


def test_real_booleans_are_taken(director_client, short_skat):
    participant = short_skat.participants.first()
    resp = director_client.patch(
        f"/api/v1/tournaments/{short_skat.pk}/participants/{participant.pk}/",
        {"withdrawn": True}, format="json")
    assert resp.status_code == 200 and resp.json()["withdrawn"] is True


@pytest.mark.parametrize("path,name", [
    ("/api/v1/clubs/?limit=", "limit"),
    ("/api/v1/clubs/?limit=&offset=", "limit"),
    ("/api/v1/clubs/?offset=", "offset"),
    ("/api/v1/tournaments/{tournament}/standings/?round=", "round"),
    ("/api/v1/clubs/{club}/evenings/?year=", "year"),
    ("/api/v1/clubs/{club}/evenings/?year=%C2%B2", "year"),
    ("/api/v1/clubs/{club}/seasons/2026/?game=", "game"),
    ("/api/v1/players/?club=", "club"),
    ("/api/v1/players/?club=%C2%B2", "club"),
    ("/api/v1/players/?club=" + "9" * 30, "club"),
])
def test_empty_or_loose_query_values_are_400_naming_the_parameter(path, name, director_client,
                                                                   short_skat, club):
    director_client.raise_request_exception = False
    resp = director_client.get(path.format(tournament=short_skat.pk, club=club.pk))
    assert resp.status_code == 400, resp.content
    assert [e["field"] for e in resp.json()["errors"]] == [name]


def test_players_filter_by_club(director_client, club):
    PlayerFactory(club=club, name="Im Verein")
    PlayerFactory(name="Anderswo")
    names = {p["name"] for p in director_client.get(f"/api/v1/players/?club={club.pk}")
             .json()["results"]}
    assert "Im Verein" in names and "Anderswo" not in names


def test_every_integer_field_of_the_api_is_strict():
    """Issue 52: integers and ids are JSON integers only in every serializer, declared
    and generated fields alike, list entries too (``api.strict.STRICT``)."""
    import importlib
    import pkgutil

    from rest_framework import serializers

    import api
    from api import strict
    from api.strict import StrictFieldsMixin

    loose_kinds = (serializers.IntegerField, serializers.PrimaryKeyRelatedField,
                   serializers.CharField, serializers.BooleanField)

    def loose(field) -> bool:
        child = getattr(field, "child", None) or getattr(field, "child_relation", None)
        if child is not None and not isinstance(field, serializers.BaseSerializer):
            return loose(child)
        return type(field) in loose_kinds

    found = []
    for info in pkgutil.iter_modules(api.__path__):
        module = importlib.import_module(f"api.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, StrictFieldsMixin)
                    and issubclass(value, serializers.BaseSerializer)
                    and value.__module__ == module.__name__ and module is not strict):
                found += [f"{value.__qualname__}.{name}"
                          for name, field in value().fields.items()
                          if not field.read_only and loose(field)]
    assert found == []
