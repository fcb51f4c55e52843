"""The player's page in the console: the publication choice, the JSON download and the
erasure behind a page that says what happens — for those who may change the player."""

import json

import pytest

from tests.factories import PlayerFactory, StaffFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(club):
    return PlayerFactory(club=club, name="Anna Berger", member_number="17")


@pytest.fixture
def admin_browser(client, director):
    client.force_login(director)
    return client


def test_the_page_offers_the_choice_the_download_and_the_erasure(admin_browser, anna):
    page = admin_browser.get(f"/clubs/players/{anna.pk}/").content.decode()
    for words in ("Name auf öffentlichen Seiten", "Vorname und Anfangsbuchstabe des Nachnamens",
                  "Daten herunterladen (JSON)", "Person löschen"):
        assert words in page
    assert 'value="full" checked' in page


def test_the_choice_is_saved_and_a_bad_one_changes_nothing(admin_browser, anna):
    url = f"/clubs/players/{anna.pk}/publication/"
    assert admin_browser.post(url, {"publication": "initial"}).status_code == 302
    anna.refresh_from_db()
    assert anna.publication == "initial"
    assert admin_browser.post(url, {"publication": "geheim"}).status_code == 302
    anna.refresh_from_db()
    assert anna.publication == "initial"
    assert admin_browser.get(url).status_code == 405


def test_the_download_is_the_persons_data(admin_browser, anna):
    resp = admin_browser.get(f"/clubs/players/{anna.pk}/data.json")
    assert resp.status_code == 200 and "attachment" in resp["Content-Disposition"]
    data = json.loads(resp.content)
    assert data["player"]["name"] == "Anna Berger" and data["player"]["member_number"] == "17"


def test_erasing_asks_first_then_erases(admin_browser, anna):
    url = f"/clubs/players/{anna.pk}/erase/"
    ask = admin_browser.get(url).content.decode()
    assert "nicht rückgängig" in ask and "Die Ergebnisse bleiben" in ask
    assert f"Gelöschte Person {anna.pk}" in ask
    anna.refresh_from_db()
    assert not anna.erased
    assert admin_browser.post(url).status_code == 302
    anna.refresh_from_db()
    assert anna.erased and anna.name == f"Gelöschte Person {anna.pk}" and not anna.member_number
    page = admin_browser.get(f"/clubs/players/{anna.pk}/").content.decode()
    assert "gelöscht" in page and "Person löschen" not in page
    assert admin_browser.post(url).status_code == 200  # twice: harmless


def test_others_reach_none_of_it(client, anna):
    client.force_login(StaffFactory(username="nachbar"))
    for path in ("publication/", "data.json", "erase/"):
        method = client.post if path == "publication/" else client.get
        assert method(f"/clubs/players/{anna.pk}/{path}").status_code in (403, 404)
    assert client.post(f"/clubs/players/{anna.pk}/erase/").status_code in (403, 404)
    anna.refresh_from_db()
    assert not anna.erased and anna.publication == "full"
    page = client.get(f"/clubs/players/{anna.pk}/").content.decode()
    assert "Person löschen" not in page
