"""The foundation's API: token login, clubs, players, permissions, errors, schema, health."""

import pytest

from clubs.models import Player
from tests.factories import ClubFactory, PlayerFactory, StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_token_login_returns_a_token_for_the_admin(anon_client):
    admin = StaffFactory(username="boss", is_superuser=True)
    admin.set_password("Richtig-123")
    admin.save()
    resp = anon_client.post("/api/v1/auth/token/", {"username": "boss", "password": "Richtig-123"},
                            format="json")
    assert resp.status_code == 200
    token = resp.json()["token"]
    assert len(token) >= 40
    me = anon_client.get("/api/v1/players/", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.status_code == 200


def test_token_login_with_a_wrong_password_is_400(anon_client):
    StaffFactory(username="boss")
    resp = anon_client.post("/api/v1/auth/token/", {"username": "boss", "password": "nope"},
                            format="json")
    assert resp.status_code == 400
    assert "non_field_errors" in resp.json()


@pytest.mark.parametrize("path,body", [
    ("/api/v1/clubs/", {"name": "Herz Dame"}),
    ("/api/v1/players/", {"name": "Max"}),
])
def test_anonymous_writes_are_refused(anon_client, path, body):
    resp = anon_client.post(path, body, format="json")
    assert resp.status_code in (401, 403)
    assert not Player.objects.filter(name="Max").exists()


def test_anonymous_reads_clubs_but_not_players(anon_client, club):
    assert anon_client.get("/api/v1/clubs/").status_code == 200
    assert anon_client.get("/api/v1/players/").status_code in (401, 403)


def test_non_staff_user_cannot_create_a_club():
    from tests.conftest import token_client

    client = token_client(UserFactory(username="plain"))
    assert client.post("/api/v1/clubs/", {"name": "X"}, format="json").status_code == 403


def test_staff_creates_a_club_and_becomes_its_admin(outsider_client, outsider):
    resp = outsider_client.post("/api/v1/clubs/", {"name": "Kreuz Bube Altenburg",
                                                   "city": "Altenburg"}, format="json")
    assert resp.status_code == 201
    body = resp.json()
    assert body["slug"] == "kreuz-bube-altenburg"
    assert body["city"] == "Altenburg"
    assert outsider.clubs_run.filter(pk=body["id"]).exists()


def test_same_club_name_gets_a_distinct_slug(outsider_client):
    first = outsider_client.post("/api/v1/clubs/", {"name": "Pik As"}, format="json").json()
    second = outsider_client.post("/api/v1/clubs/", {"name": "Pik As"}, format="json").json()
    assert first["slug"] != second["slug"]


def test_only_a_clubs_admins_change_it(outsider_client, director_client, club):
    resp = outsider_client.patch(f"/api/v1/clubs/{club.pk}/", {"city": "Gera"}, format="json")
    assert resp.status_code == 403
    resp = director_client.patch(f"/api/v1/clubs/{club.pk}/", {"city": "Gera"}, format="json")
    assert resp.status_code == 200
    club.refresh_from_db()
    assert club.city == "Gera"


def test_creating_a_player_with_a_blank_name_is_400_naming_the_field(director_client):
    resp = director_client.post("/api/v1/players/", {"name": "   "}, format="json")
    assert resp.status_code == 400
    assert "name" in resp.json()
    assert Player.objects.count() == 0


def test_creating_a_player_in_an_unknown_club_is_400_naming_the_field(director_client):
    resp = director_client.post("/api/v1/players/", {"name": "Max", "club": 987654},
                                format="json")
    assert resp.status_code == 400
    assert "club" in resp.json()
    assert Player.objects.count() == 0


def test_club_given_as_text_is_400(director_client):
    resp = director_client.post("/api/v1/players/", {"name": "Max", "club": "abc"},
                                format="json")
    assert resp.status_code == 400
    assert "club" in resp.json()


def test_player_in_a_club_the_user_does_not_run_is_400(outsider_client, club):
    resp = outsider_client.post("/api/v1/players/", {"name": "Max", "club": club.pk},
                                format="json")
    assert resp.status_code == 400
    assert "club" in resp.json()


def test_director_creates_a_member(director_client, club):
    resp = director_client.post("/api/v1/players/",
                                {"name": "Max Mustermann", "club": club.pk,
                                 "member_number": "0042"}, format="json")
    assert resp.status_code == 201
    assert resp.json()["club"] == club.pk
    player = Player.objects.get(pk=resp.json()["id"])
    assert (player.name, player.member_number) == ("Max Mustermann", "0042")


def test_member_number_is_unique_in_a_club(director_client, club):
    PlayerFactory(club=club, member_number="7")
    resp = director_client.post("/api/v1/players/",
                                {"name": "B", "club": club.pk, "member_number": "7"},
                                format="json")
    assert resp.status_code == 400
    assert "member_number" in resp.json()


def test_member_number_needs_a_club(director_client):
    resp = director_client.post("/api/v1/players/", {"name": "B", "member_number": "7"},
                                format="json")
    assert resp.status_code == 400
    assert "member_number" in resp.json()


def test_only_creator_or_club_admin_changes_a_player(outsider_client, director_client, club):
    player = PlayerFactory(club=club)
    assert outsider_client.patch(f"/api/v1/players/{player.pk}/", {"name": "Z"},
                                 format="json").status_code == 403
    assert director_client.patch(f"/api/v1/players/{player.pk}/", {"name": "Z"},
                                 format="json").status_code == 200
    player.refresh_from_db()
    assert player.name == "Z"


def test_errors_are_german_by_default_and_english_on_request(director_client):
    de = director_client.post("/api/v1/players/", {}, format="json")
    en = director_client.post("/api/v1/players/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert de.json()["name"] == ["Dieses Feld ist zwingend erforderlich."]
    assert en.json()["name"] == ["This field is required."]


@pytest.mark.parametrize("body", ['{"name": ', "[1,2", '{"a": NaN}', "[" * 60_000, "\xff"])
def test_malformed_json_is_400_not_500(director_client, body):
    resp = director_client.generic("POST", "/api/v1/players/", body.encode("utf-8", "replace"),
                                   content_type="application/json")
    assert resp.status_code == 400


def test_schema_and_docs_are_served_without_a_cdn(anon_client):
    schema = anon_client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/clubs/" in paths and "/api/v1/players/" in paths
    docs = anon_client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


def test_healthz_reports_the_database(anon_client):
    resp = anon_client.get("/healthz")
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok", "database": "ok"}


def test_healthz_stays_200_when_redis_is_unreachable(anon_client, settings):
    # entry keeps working without Redis: restarting the web container would not help
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    resp = anon_client.get("/healthz")
    assert resp.status_code == 200
    assert resp.json()["database"] == "ok"


def test_readyz_reports_redis_down_as_degraded_not_down(anon_client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    resp = anon_client.get("/readyz")
    assert resp.status_code == 200
    body = resp.json()
    assert body["status"] == "degraded"
    assert body["database"] == "ok"
    assert body["redis"].startswith("down")
    assert body["workers"].startswith("unknown")


def test_readyz_with_the_configured_services(anon_client, settings):
    body = anon_client.get("/readyz").json()
    assert body["database"] == "ok"
    if settings.REDIS_URL:
        assert body["redis"] == "ok"
        # a worker answers the ping or is reported missing; either way not "down" overall
        assert body["workers"].startswith(("ok", "down"))
        assert body["status"] in {"ok", "degraded"}
    else:
        assert body == {"database": "ok", "redis": "not configured", "workers": "in-process",
                        "status": "ok"}


def test_club_list_is_public_and_paginated(anon_client):
    ClubFactory.create_batch(3)
    body = anon_client.get("/api/v1/clubs/").json()
    assert body["count"] == 3
    assert {"id", "slug", "name", "city"} <= set(body["results"][0])


@pytest.mark.parametrize("query,field", [("limit=40306808000556501370892610149810176", "limit"),
                                         ("offset=99999999999999999999999999", "offset"),
                                         ("limit=-5&offset=-3", "limit"),
                                         ("limit=abc", "limit")])
def test_absurd_pagination_is_a_400_naming_the_parameter(anon_client, query, field):
    ClubFactory()
    resp = anon_client.get(f"/api/v1/clubs/?{query}")
    assert resp.status_code == 400
    assert field in resp.json()


def test_patching_a_player_without_a_club_still_answers_club_name(director_client, director):
    created = director_client.post("/api/v1/players/", {"name": "Gast"}, format="json").json()
    resp = director_client.patch(f"/api/v1/players/{created['id']}/", {"name": "Gast Zwei"},
                                 format="json")
    assert resp.status_code == 200
    assert resp.json()["club_name"] is None and resp.json()["name"] == "Gast Zwei"
