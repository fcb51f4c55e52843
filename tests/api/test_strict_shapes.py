"""Strict numbers and shapes (issue 52): an integer field takes a JSON integer only (not
``"1"``, ``1.5``, ``1.0``, ``-1e-400`` or ``true``); a body that should be an object and
is not (``[]``, ``null``, a number, a text) is a 400 naming the body, in the request's
language; the parser's own refusals (a 5,000-digit integer, ``1e400``) name the body
too; and nothing is stored."""

from __future__ import annotations

import json

import pytest

from signup.services.registrations import registration_configure
from tests.api.test_strict_input import stored
from tests.conftest import player_client, seated
from tournaments.models import DirectorCall, Participant

pytestmark = pytest.mark.django_db

NOT_INTEGERS = ["1", 1.5, 1.0, "-1e-400", True]
NO_OBJECT_DE = "Der Inhalt der Anfrage muss ein JSON-Objekt sein."


@pytest.fixture
def open_event(short_skat):
    registration_configure(tournament_id=short_skat.pk, open=True, check_in=False)
    return short_skat


def raw_post(client, url: str, text: str, language: str = "de", method: str = "post"):
    return getattr(client, method)(url, text.encode(), content_type="application/json",
                                   HTTP_ACCEPT_LANGUAGE=language)


def fields(resp) -> set[str]:
    return {e["field"] for e in resp.json()["errors"]}


def as_json(value) -> str:
    # "-1e-400" is written as the number it is, which Python cannot hold (it reads -0.0)
    return "-1e-400" if value == "-1e-400" else json.dumps(value)


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_a_sign_up_takes_a_club_id_only_as_an_integer(value, open_event, anon_client, club):
    before = stored()
    resp = raw_post(anon_client, f"/api/v1/tournaments/{open_event.pk}/registrations/",
                    f'{{"name": "Gast", "club": {as_json(value)}}}')
    assert resp.status_code == 400, resp.content
    assert fields(resp) == {"club"}
    assert stored() == before


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
@pytest.mark.parametrize("body,field", [
    ('{{"registration": {{"cap": {}}}}}', "registration.cap"),
    ('{{"club_ranking_k": {}}}', "club_ranking_k"),
])
def test_tournament_integers_are_json_integers(value, body, field, short_skat,
                                               director_client):
    before = stored()
    resp = raw_post(director_client, f"/api/v1/tournaments/{short_skat.pk}/",
                    body.format(as_json(value)), method="patch")
    assert resp.status_code == 400, resp.content
    assert field in fields(resp), resp.json()
    assert stored() == before


def test_a_real_integer_is_still_taken(short_skat, director_client):
    resp = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/",
                                 {"club_ranking_k": 3}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["club_ranking_k"] == 3


NOT_OBJECTS = ["[]", "null", "1", '"Kartenfehler"', "[{}]"]


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_call_whose_body_is_no_object_is_refused_naming_the_body(body, drawn):
    table = next(t for t in drawn["tables"] if len(t["seats"]) == 3)
    phone = player_client(seated(table)[0])
    resp = raw_post(phone, f"/api/v1/tables/{table['id']}/calls/", body)
    assert resp.status_code == 400, resp.content
    assert resp.json()["errors"] == [{"field": "", "message": NO_OBJECT_DE}]
    assert not DirectorCall.objects.exists()
    # an empty body is still no reason at all
    assert phone.post(f"/api/v1/tables/{table['id']}/calls/").status_code == 201


@pytest.mark.parametrize("body", NOT_OBJECTS)
@pytest.mark.parametrize("language,message", [("de", NO_OBJECT_DE),
                                              ("en", "The body must be a JSON object.")])
def test_a_sign_up_whose_body_is_no_object_says_so_in_the_language(body, language, message,
                                                                   open_event, anon_client):
    before = Participant.objects.count()
    resp = raw_post(anon_client, f"/api/v1/tournaments/{open_event.pk}/registrations/", body,
                    language)
    assert resp.status_code == 400, resp.content
    assert resp.json()["errors"] == [{"field": "", "message": message}]
    assert "No data provided" not in resp.content.decode()
    assert Participant.objects.count() == before


@pytest.mark.parametrize("url", ["/api/v1/tournaments/", "/api/v1/clubs/"])
@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_staff_write_whose_body_is_no_object_is_refused(url, body, director_client, club):
    before = stored()
    resp = raw_post(director_client, url, body, "en")
    assert resp.status_code == 400, resp.content
    assert fields(resp) == {""}
    assert stored() == before


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 5000, "1e400", "-1e400"])
def test_the_parsers_refusals_name_the_body_and_the_number(number, open_event, anon_client):
    resp = raw_post(anon_client, f"/api/v1/tournaments/{open_event.pk}/registrations/",
                    f'{{"name": "Gast", "club": {number}}}', "en")
    assert resp.status_code == 400, resp.content
    body = resp.json()
    assert body["errors"] == [{"field": "", "message": body["detail"]}]
    assert body["detail"].startswith(f"The number {number[:40]}")
    assert len(resp.content) < 500
