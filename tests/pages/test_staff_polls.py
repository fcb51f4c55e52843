"""The staff's and the tables' polled answers on ``tournaments.freshness``: the console's
full page (its ``#live`` part is polled every 15 s) and the API's table answer. Each poll
with the ETag it holds is answered 304 while nothing it shows changed, and a new answer
with a new ETag after a change that it shows commits; the answers are private, and the
console's is keyed by who reads it."""

import pytest
from django.test import Client

from tests.conftest import player_client, seated
from tests.tournaments.test_player_phone_services import fill

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(requests_commit):
    """Each change here counts as committed (its versions bumped) by the next request."""


@pytest.fixture
def console(director):
    client = Client()
    client.force_login(director)
    client.get("/console/")  # the session's CSRF secret, which the page's forms carry
    return client


def page(tournament) -> str:
    return f"/console/t/{tournament.pk}/"


def test_the_console_page_is_a_private_304_until_a_sheet_changes(short_skat, table,
                                                                  table_client, console):
    first = console.get(page(short_skat))
    assert first.status_code == 200 and first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    assert "Cookie" in first["Vary"]
    unchanged = console.get(page(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    assert unchanged["Cache-Control"] == "private, no-cache" and unchanged.content == b""

    fill(table_client, table, 1)
    changed = console.get(page(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed["Cache-Control"] == "private, no-cache"


def test_a_check_in_and_a_players_call_renew_the_console_page(short_skat, table, console):
    first = console.get(page(short_skat))
    participant = seated(table)[0]
    resp = console.post(f"/console/t/{short_skat.pk}/participant/{participant.pk}/checked_in/")
    assert resp.status_code in (200, 302)
    after_toggle = console.get(page(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after_toggle.status_code == 200 and after_toggle["ETag"] != first["ETag"]

    call = player_client(participant).post(f"/api/v1/tables/{table['id']}/calls/",
                                           {"reason": "Karten fehlen"}, format="json")
    assert call.status_code == 201, call.content
    after_call = console.get(page(short_skat), HTTP_IF_NONE_MATCH=after_toggle["ETag"])
    assert after_call.status_code == 200 and "Karten fehlen" in after_call.content.decode()


def test_another_reader_and_a_waiting_message_get_the_page_rendered(
        short_skat, table, console, director):
    first = console.get(page(short_skat))
    other = Client()
    other.force_login(director)  # a new session: a new CSRF secret for the page's forms
    other.get("/console/")
    assert other.get(page(short_skat), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200

    # a refused step changes nothing; its message shows once, on the next page
    last = console.get(page(short_skat))
    refused = console.post(f"/console/t/{short_skat.pk}/rounds/1/reopen/", {"confirm": "yes"})
    assert refused.status_code == 302
    shown = console.get(page(short_skat), HTTP_IF_NONE_MATCH=last["ETag"])
    assert shown.status_code == 200 and 'class="messages' in shown.content.decode()
    assert shown["Cache-Control"] == "private, no-store"
    assert console.get(page(short_skat), HTTP_IF_NONE_MATCH=last["ETag"]).status_code == 304


def api_table(table) -> str:
    return f"/api/v1/tables/{table['id']}/"


@pytest.mark.parametrize("reader", ["table", "director", "player"])
def test_the_api_table_is_a_private_304_until_its_sheet_changes(
        table, other_table, table_client, director_client, reader):
    client = {"table": table_client, "director": director_client,
              "player": player_client(seated(table)[1])}[reader]
    first = client.get(api_table(table))
    assert first.status_code == 200 and first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    unchanged = client.get(api_table(table), HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    assert unchanged["Cache-Control"] == "private, no-cache"

    fill(table_client_of(other_table), other_table, 1)  # another table's deal: still 304
    assert client.get(api_table(table), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    fill(table_client, table, 1)
    changed = client.get(api_table(table), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert len(changed.json()["deals"]) == 1


def table_client_of(table):
    from tests.conftest import table_client_for

    return table_client_for(table["entry_token"])


def test_an_objection_renews_the_api_table_and_staff_see_their_own(table, table_client,
                                                                   director_client):
    fill(table_client, table, 1)
    first = table_client.get(api_table(table))
    staff = director_client.get(api_table(table))
    assert "entry_token" in staff.json() and "entry_token" not in first.json()
    assert staff["ETag"] != first["ETag"]  # the staff's answer is another one
    objection = player_client(seated(table)[0]).post(
        f"{api_table(table)}objections/", {"note": "Spiel 1 falsch", "deal": 1}, format="json")
    assert objection.status_code == 201, objection.content
    changed = table_client.get(api_table(table), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert [o["note"] for o in changed.json()["objections"]] == ["Spiel 1 falsch"]
