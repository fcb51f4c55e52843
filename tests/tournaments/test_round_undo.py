"""Taking back a draw (issue 53, item 3; api.md "Rounds, corrections and the door"):
``DELETE /tournaments/{id}/rounds/{n}/`` removes the last round while no table has an
entry (204), the next draw takes its number again, and the round as drawn is kept in
the tournament's history; otherwise 409 naming the tables. The console's button asks
first."""

import pytest
from django.test import Client

from tests.conftest import table_client_for
from tests.tournaments.test_rounds_api import finish_round
from tournaments.models import Round, RoundEvent, Tournament

pytestmark = pytest.mark.django_db


def url(tournament, number=1):
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{number}/"


def test_a_round_without_entries_is_taken_back_and_kept_in_the_history(
        director_client, short_skat, drawn, director):
    seats = sorted(s["participant"] for t in drawn["tables"] for s in t["seats"])
    resp = director_client.delete(url(short_skat))
    assert resp.status_code == 204, resp.content
    assert not Round.objects.filter(tournament=short_skat).exists()
    assert Tournament.objects.get(pk=short_skat.pk).status == Tournament.Status.DRAFT
    event = RoundEvent.objects.get(tournament=short_skat)
    assert event.number == 1 and event.user == director and event.action == "undo"
    assert event.before["seed"] == 7 and event.before["method"] == "random"
    assert sorted(p for t in event.before["tables"] for p in t["participants"]) == seats
    again = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                 {"method": "random"}, format="json")
    assert again.status_code == 201 and again.json()["number"] == 1


def test_a_round_with_an_entry_is_refused_naming_the_table(director_client, short_skat,
                                                          drawn, table):
    resp = table_client_for(table["entry_token"]).post(
        f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True}, format="json")
    assert resp.status_code == 201, resp.content
    resp = director_client.delete(url(short_skat), HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 409
    assert f"Einträge an den Tischen: {table['number']}" in resp.json()["detail"]
    assert Round.objects.filter(tournament=short_skat).count() == 1
    assert not RoundEvent.objects.exists()


def test_only_the_last_round_and_only_by_its_directors(director_client, outsider_client,
                                                      anon_client, short_skat, drawn):
    assert outsider_client.delete(url(short_skat)).status_code == 403
    assert anon_client.delete(url(short_skat)).status_code == 401
    table_token = drawn["tables"][0]["entry_token"]
    assert table_client_for(table_token).delete(url(short_skat)).status_code == 403
    assert director_client.delete(url(short_skat, 9)).status_code == 404
    finish_round(director_client, drawn)
    assert director_client.post(f"{url(short_skat)}close/").status_code == 200
    second = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                  {"method": "random"}, format="json")
    assert second.status_code == 201
    resp = director_client.delete(url(short_skat, 1), HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 409 and "last round" in resp.json()["detail"]
    assert director_client.delete(url(short_skat, 2)).status_code == 204
    assert list(Round.objects.filter(tournament=short_skat).values_list("number", flat=True)
                ) == [1]


def test_the_console_asks_first_then_takes_the_draw_back(short_skat, drawn, director):
    desk = Client(HTTP_ACCEPT_LANGUAGE="de")
    desk.force_login(director)
    page = desk.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert "Auslosung zurücknehmen" in page
    undo = f"/console/t/{short_skat.pk}/rounds/1/undo/"
    asked = desk.post(undo)
    assert asked.status_code == 200 and "Ja, Auslosung zurücknehmen" in asked.content.decode()
    assert Round.objects.filter(tournament=short_skat).exists()
    done = desk.post(undo, {"confirm": "yes"}, follow=True).content.decode()
    assert "Die Auslosung der Runde 1 wurde zurückgenommen." in done
    assert not Round.objects.filter(tournament=short_skat).exists()
    assert "Auslosung zurücknehmen" not in done
