"""The correction history reads as words, before and after side by side, in the user's
language (no raw dictionaries), on the staff sheet; the API's history keeps the raw
values only (what its hash chain is made of)."""

import pytest
from django.test import Client

from tests.conftest import table_client_for

pytestmark = pytest.mark.django_db

HEARTS_WON = {"declarer": 2, "game": "hearts", "matadors": 2, "won": True}   # 3 × 10 = +30
GRAND_LOST = {"declarer": 2, "game": "grand", "matadors": 1, "won": False}   # −96


@pytest.fixture
def corrected(table, director, director_client):
    tablet = table_client_for(table["entry_token"])
    base = f"/api/v1/tables/{table['id']}/"
    assert tablet.post(base + "deals/", {"number": 1, **HEARTS_WON},
                       format="json").status_code == 201
    etag = tablet.get(base + "deals/1/")["ETag"]
    assert director_client.put(base + "deals/1/", GRAND_LOST, format="json",
                               HTTP_IF_MATCH=etag).status_code == 200
    for number in (2, 3):
        tablet.post(base + "deals/", {"number": number, "passed": True}, format="json")
    assert tablet.post(base + "submit/", {"confirmed_by": [1, 3]},
                       format="json").status_code == 200
    return table


def staff_page(director, table, language):
    client = Client()
    client.force_login(director)
    return client.get(f"/console/table/{table['id']}/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_history_in_german_names_the_change_and_the_people(corrected, director):
    names = {s["seat"]: s["name"] for s in corrected["seats"]}
    html = staff_page(director, corrected, "de")
    assert '<span class="before">Herz mit 2, gewonnen (+30)</span>' in html
    assert '<span class="after">Grand mit 1, verloren (−96)</span>' in html
    assert f"bestätigt von {names[1]}, {names[3]}" in html
    assert "der Tisch" in html and "director" in html
    assert "{&#x27;" not in html and "'record'" not in html


def test_history_in_english(corrected, director):
    html = staff_page(director, corrected, "en")
    assert "Hearts with 2, won (+30)" in html and "Grand with 1, lost (−96)" in html
    assert "deal corrected" in html


def test_api_history_is_the_same_in_every_language(corrected, director_client):
    url = f"/api/v1/tables/{corrected['id']}/history/"
    german = director_client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").json() == german
    update = next(e for e in german if e["action"] == "deal_update")
    assert "text" not in update and "who" not in update
    assert update["before"]["record"]["game"] == "hearts"  # the raw values
    assert update["after"]["record"]["game"] == "grand"


def test_a_doppelkopf_game_value_reads_with_the_minus_sign(club):
    """A Damensolo typed in with its signed game value: the sheet's deal row and its
    history say "Spielwert −3" (U+2212), never "Spielwert -3" with a hyphen."""
    from tests.factories import ParticipantFactory, StaffFactory, TournamentFactory
    from tournaments.models import Table
    from tournaments.services import deals_record, round_draw
    from tournaments.services.actors import Actor

    director = StaffFactory(username="doko-leitung")
    tournament = TournamentFactory(club=club, game="doppelkopf")
    tournament.directors.add(director)
    for n in range(4):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    deals_record(table_id=table.pk, records=[{"game": "solo_damen", "re": [2], "value": -3}],
                 actor=Actor(user=director))
    html = staff_page(director, {"id": table.pk}, "de")
    assert html.count("Spielwert \u22123") >= 2  # the deal's row and its history
    assert "Spielwert -3" not in html
