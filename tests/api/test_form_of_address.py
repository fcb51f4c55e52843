"""One form of address (issue 53, item 10): every German message says "Sie" — DRF's
German catalog says "du" ("Gib eine gültige E-Mail Adresse an.", "Stelle sicher, dass
…"); ``locale/de`` overrides each of them."""

import gettext
import re
from pathlib import Path

import pytest
import rest_framework
from django.utils import translation

from api.form_of_address import DRF_MESSAGES
from signup.services.registrations import registration_configure

pytestmark = pytest.mark.django_db

DU = re.compile(r"\b(du|dich|dir|dein\w*|Gib|Stelle sicher|Lade|Wähle|Verwende|Überprüfe)\b")
DRF_DE = Path(rest_framework.__file__).parent / "locale/de/LC_MESSAGES/django.mo"


def drf_du_messages() -> list[str]:
    with DRF_DE.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    return [k for k, v in catalog.items() if isinstance(k, str) and k and DU.search(v)]


def test_every_du_message_of_drf_says_sie_in_german():
    found = drf_du_messages()
    assert "Enter a valid email address." in found  # the catalog this test reads
    with translation.override("de"):
        said = {msgid: translation.gettext(msgid) for msgid in found}
    assert {m: s for m, s in said.items() if DU.search(s) or "Sie" not in s
            and "Dateiname" not in s} == {}
    assert set(found) <= set(DRF_MESSAGES)


def test_the_apis_german_answers_say_sie(tournament, anon_client):
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=False)
    resp = anon_client.post(f"/api/v1/tournaments/{tournament.pk}/registrations/",
                            {"name": "Anna", "email": "nope", "club_name": "x" * 300},
                            format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    body = resp.json()
    assert body["email"] == ["Bitte geben Sie eine gültige E-Mail-Adresse ein."]
    assert body["club_name"] == ["Bitte geben Sie höchstens 120 Zeichen ein."]
    assert not DU.search(resp.content.decode())
