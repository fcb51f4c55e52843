"""Every answer under /api/ is JSON, errors included, in the request's language
(issue 14, item 2): Django's own 400/404/413/500, DRF's 404/405/415, CSRF refusals."""

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_():
    return APIClient(raise_request_exception=False)


def body_of(resp) -> dict:
    assert resp["Content-Type"].startswith("application/json"), (resp.status_code, resp.content)
    return json.loads(resp.content)


@pytest.mark.parametrize("path", ["/api/v1/nothing/", "/api/v1/tables/abc/", "/api/nothing",
                                  "/api/v1/tables/1/deals/x/"])
def test_unknown_paths_are_json_404_in_german_and_english(client_, path):
    de = client_.get(path, HTTP_ACCEPT_LANGUAGE="de")
    en = client_.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert de.status_code == en.status_code == 404
    assert body_of(de) == {"detail": "Nicht gefunden.", "code": "not_found"}
    assert body_of(en)["detail"] == "Not found."


def test_a_path_without_its_trailing_slash_is_a_json_redirect(client_):
    resp = client_.get("/api/v1/tournaments", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 301 and resp["Location"] == "/api/v1/tournaments/"
    assert body_of(resp)["code"] == "moved"


def test_plain_http_where_https_is_required_is_a_json_redirect(client_, settings):
    settings.SECURE_SSL_REDIRECT = True
    resp = client_.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 301 and resp["Location"].startswith("https://")
    assert body_of(resp)["detail"] == "Diese Ressource liegt unter der Adresse in Location."


def test_a_missing_tournament_is_404_in_german(client_):
    resp = client_.get("/api/v1/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 404
    assert body_of(resp)["detail"] == "Nicht gefunden."


def test_wrong_method_is_json_405_in_german(client_):
    resp = client_.delete("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 405
    assert "nicht erlaubt" in body_of(resp)["detail"]
    assert "GET" in resp["Allow"]


def test_wrong_media_type_is_json_415(client_):
    resp = client_.post("/api/v1/games/skat/score/", "players=3", content_type="text/plain",
                        HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 415
    assert "text/plain" in body_of(resp)["detail"]


def test_disallowed_host_is_json_400(client_):
    resp = client_.get("/api/v1/games/", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert body_of(resp) == {"detail": "Ungültige Anfrage.", "code": "bad_request"}


def test_a_malformed_content_length_is_json_400(client_):
    resp = client_.generic("POST", "/api/v1/games/skat/score/", b"{}",
                           content_type="application/json", CONTENT_LENGTH="12a")
    assert resp.status_code == 400
    assert body_of(resp)["code"] == "bad_request"


@pytest.mark.parametrize("path", ["/api/v1/boom/", "/api/v1/drf-boom/"])
def test_a_server_error_is_json_500_and_logged(client_, settings, caplog, path):
    settings.ROOT_URLCONF = "tests.api.boom_urls"
    resp = client_.get(path, HTTP_ACCEPT_LANGUAGE="en", HTTP_X_REQUEST_ID="trace-500")
    assert resp.status_code == 500
    assert body_of(resp) == {"detail": "A server error occurred; it has been logged.",
                             "code": "server_error"}
    assert resp["X-Request-ID"] == "trace-500"
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert errors and errors[0].request_id == "trace-500"


def test_a_plain_error_answer_under_api_becomes_json(client_, settings):
    settings.ROOT_URLCONF = "tests.api.boom_urls"
    resp = client_.get("/api/v1/gone/", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 410
    assert body_of(resp)["detail"] == "Die Anfrage ist fehlgeschlagen."


def test_pages_outside_the_api_keep_their_html_errors(settings):
    settings.ROOT_URLCONF = "tests.api.boom_urls"
    client = Client(raise_request_exception=False)
    assert "text/html" in client.get("/boom/")["Content-Type"]
    assert "text/html" in client.get("/no-such-page/")["Content-Type"]


def test_csrf_refusal_of_a_session_write_is_german(settings):
    staff = StaffFactory(username="sess")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(staff)
    resp = client.post("/api/v1/clubs/", {"name": "X"}, format="json",
                       HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 403
    detail = body_of(resp)["detail"]
    assert detail.startswith("Die CSRF-Prüfung ist fehlgeschlagen")
    assert "CSRF Failed" not in detail


def test_engine_option_errors_are_fully_german(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "T", "game": "skat",
                                                         "rules": {"kontra_re": "yes"}},
                                format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert resp.json()["rules"]["kontra_re"] == ["Muss wahr oder falsch sein."]


def test_drf_field_errors_are_german(director_client):
    resp = director_client.post("/api/v1/clubs/", {"name": ["x"]}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert resp.json()["name"] == ["Kein gültiger String."]


def test_every_400_of_a_serializer_has_the_flat_errors_list(director_client):
    resp = director_client.post("/api/v1/tournaments/", {"name": "x" * 161, "game": "poker",
                                                         "rounds_planned": [1]},
                                format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    body = resp.json()
    assert body["detail"] and body["game"]
    assert {e["field"] for e in body["errors"]} == {"name", "game", "rounds_planned"}
    assert all(e["message"] for e in body["errors"])
