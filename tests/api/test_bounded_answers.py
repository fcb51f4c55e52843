"""Bounded answers (issue 52): a 400 names at most 20 unknown fields and says, in the
request's language, how many more there are (20,000 keys once gave a 1.6 MB answer);
a body is bounded per endpoint for every caller (64 KB unless the endpoint takes whole
files or documents), without credentials lower (the sign-up form a few KB, a login
16 KB), and answered with a JSON 413 in the request's language naming the bound."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from api.parsers import DEFAULT_MAX_BODY_BYTES
from api.registrations import SIGN_UP_MAX_BODY_BYTES
from signup.services.registrations import registration_configure
from tests.conftest import table_client_for

pytestmark = pytest.mark.django_db


def unknown_keys(count: int, **known) -> bytes:
    return json.dumps({**known, **{f"k{n:06d}": 1 for n in range(count)}},
                      separators=(",", ":")).encode()


def post(client, url: str, body: bytes, language: str = "de"):
    return client.post(url, body, content_type="application/json",
                       HTTP_ACCEPT_LANGUAGE=language)


def assert_names_twenty_and_counts(resp, more: int, message: str) -> None:
    assert resp.status_code == 400, resp.content[:500]
    assert len(resp.content) < 6_000, len(resp.content)
    errors = resp.json()["errors"]
    named = [e for e in errors if e["field"].split(".")[-1].startswith("k")]
    assert len(named) == 20, errors
    assert {"field": "", "message": message % more} in errors


def test_the_scorer_names_twenty_of_twenty_thousand_unknown_keys(anon_client):
    body = unknown_keys(20_000, players=3, deals=[])
    assert len(body) < settings.SCORER_MAX_BODY_BYTES
    resp = post(anon_client, "/api/v1/games/skat/score/", body)
    assert_names_twenty_and_counts(resp, 19_980, "… und %s weitere unbekannte Felder.")


def test_a_staff_write_names_twenty_of_five_thousand_unknown_keys(director_client):
    resp = post(director_client, "/api/v1/clubs/", unknown_keys(5_000, name="Neu"), "en")
    assert_names_twenty_and_counts(resp, 4_980, "… and %s more unknown fields.")


def test_a_deal_names_twenty_of_its_unknown_keys(table):
    record = {"number": 1, "declarer": 2, "game": "clubs", "matadors": 1, "won": True}
    resp = post(table_client_for(table["entry_token"]), f"/api/v1/tables/{table['id']}/deals/",
                unknown_keys(5_000, **record), "en")
    assert_names_twenty_and_counts(resp, 4_980, "… and %s more unknown fields.")


def test_a_hundred_errors_at_most_are_named(table):
    """900 bad deals in one sheet: the first hundred errors, and the count."""
    deals = [{"number": n, "declarer": 9, "game": "clubs", "matadors": 1, "won": True}
             for n in range(1, 901)]
    resp = post(table_client_for(table["entry_token"]), f"/api/v1/tables/{table['id']}/deals/",
                json.dumps({"deals": deals}, separators=(",", ":")).encode(), "en")
    assert resp.status_code == 400
    errors = resp.json()["errors"]
    assert len(errors) <= 101 and len(resp.content) < 30_000, len(resp.content)


@pytest.fixture
def open_event(short_skat):
    registration_configure(tournament_id=short_skat.pk, open=True, check_in=False)
    return short_skat


def test_a_sign_up_body_is_bounded_to_a_few_kilobytes(open_event, anon_client):
    url = f"/api/v1/tournaments/{open_event.pk}/registrations/"
    # the form's longest answer, every character escaped, still fits
    longest = {"name": "ä" * 120, "club_name": "ö" * 120, "email": "a" * 64 + "@" + "b" * 180
               + ".de", "publication": "number"}
    fits = json.dumps(longest).encode()
    assert len(fits) < SIGN_UP_MAX_BODY_BYTES
    assert post(anon_client, url, fits).status_code in (201, 400)
    resp = post(anon_client, url, unknown_keys(1_000, name="Gast"))
    assert resp.status_code == 413
    assert resp.json() == {"detail": f"Der Inhalt ist größer als {SIGN_UP_MAX_BODY_BYTES} Bytes."}


def test_a_body_without_credentials_is_bounded(anon_client, director_client):
    body = json.dumps({"username": "x", "password": "y" * settings.ANONYMOUS_MAX_BODY_BYTES})
    resp = post(anon_client, "/api/v1/auth/token/", body.encode(), "en")
    assert resp.status_code == 413
    assert resp.json()["detail"] == (f"The body is larger than "
                                     f"{settings.ANONYMOUS_MAX_BODY_BYTES} bytes.")
    # with credentials the same size is read (and its too long name named)
    staff = post(director_client, "/api/v1/clubs/",
                 json.dumps({"name": "N" * settings.ANONYMOUS_MAX_BODY_BYTES}).encode(), "en")
    assert staff.status_code == 400 and staff.json()["errors"][0]["field"] == "name"


def test_a_logged_in_browser_writes_with_its_session_and_csrf_token(director):
    """The console writes through the API with its session and CSRF token: the body's
    limit is chosen without authenticating again (the session's CSRF check reads the
    body, which once recursed into a 500)."""
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director)
    token = _get_new_csrf_string()
    browser.cookies[settings.CSRF_COOKIE_NAME] = token
    resp = browser.post("/api/v1/clubs/", {"name": "Kreuz Ass Nachbarstadt"},
                        content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert resp.status_code == 201, resp.content[:500]
    refused = Client(enforce_csrf_checks=True)
    refused.force_login(director)
    assert refused.post("/api/v1/clubs/", {"name": "Ohne Token"},
                        content_type="application/json").status_code == 403


def test_a_credentialed_body_over_a_small_endpoints_bound_is_a_413(director_client,
                                                                    tournament):
    """A staff token may not send 2.5 MB to an endpoint that takes a name: 413 naming the
    bound in the request's language, and nothing is stored."""
    url = f"/api/v1/tournaments/{tournament.pk}/participants/"
    body = json.dumps({"name": "N" * DEFAULT_MAX_BODY_BYTES}).encode()
    for language, detail in (
            ("de", f"Der Inhalt ist größer als {DEFAULT_MAX_BODY_BYTES} Bytes."),
            ("en", f"The body is larger than {DEFAULT_MAX_BODY_BYTES} bytes.")):
        resp = post(director_client, url, body, language)
        assert resp.status_code == 413 and resp["Content-Type"] == "application/json"
        assert resp.json()["detail"] == detail
    assert not tournament.participants.exists()
    # just under the bound the body is read, and its unknown key named
    fits = json.dumps({"name": "N" * (DEFAULT_MAX_BODY_BYTES - 20)}).encode()
    resp = post(director_client, url, fits, "en")
    assert resp.status_code == 400
    assert {"field": "name", "message": "Unknown field."} in resp.json()["errors"]


def test_a_table_tokens_body_is_bounded_too(table):
    client = table_client_for(table["entry_token"])
    note = {"seat": 1, "note": "x" * (2 * DEFAULT_MAX_BODY_BYTES)}
    resp = post(client, f"/api/v1/tables/{table['id']}/objections/",
                json.dumps(note).encode(), "en")
    assert resp.status_code == 413
    assert resp.json()["detail"] == f"The body is larger than {DEFAULT_MAX_BODY_BYTES} bytes."
    assert client.get(f"/api/v1/tables/{table['id']}/").json()["objections"] == []


def test_an_evening_takes_five_hundred_escaped_guest_names(director_client, club):
    """The evening's declared bound holds its longest valid body: 500 guests of 120
    characters, each written as an escape (as Python's json.dumps writes umlauts)."""
    body = json.dumps({"date": "2026-05-01", "guests": [f"{n:03d}" + "ä" * 117
                                                        for n in range(500)]}).encode()
    assert DEFAULT_MAX_BODY_BYTES < len(body) < 524_288
    resp = post(director_client, f"/api/v1/clubs/{club.pk}/evenings/", body, "en")
    assert resp.status_code == 201, resp.content[:300]


def test_a_login_form_is_bounded_like_json(anon_client):
    body = f"username=x&password={'y' * settings.ANONYMOUS_MAX_BODY_BYTES}"
    resp = anon_client.post("/api/v1/auth/token/", body,
                            content_type="application/x-www-form-urlencoded",
                            HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 413 and resp["Content-Type"] == "application/json"
    assert resp.json()["detail"] == (f"The body is larger than "
                                     f"{settings.ANONYMOUS_MAX_BODY_BYTES} bytes.")
