"""The director's panel of calls and objections on the console's tournament page: it
shows each open call (table, who, when, why) and open objection (table, deal, who, note)
at once, marks calls seen or done and decides objections through the services (a bad
decision is shown at its field), at the same query cost at 1 table as at 2 rounds of
many; the staff sheet shows objections with their decisions, and the history names the
player's phone."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import player_client, seated
from tournaments.models import DirectorCall, Objection, SheetEvent

pytestmark = pytest.mark.django_db

PASSED = {"passed": True}


@pytest.fixture
def staff_browser(client, director):
    client.force_login(director)
    return client


def raise_both(table):
    phone = player_client(seated(table)[0])
    base = f"/api/v1/tables/{table['id']}/"
    assert phone.post(f"{base}deals/", {"number": 1, **PASSED}, format="json").status_code == 201
    call = phone.post(f"{base}calls/", {"reason": "Karten fehlen"}, format="json").json()
    objection = phone.post(f"{base}objections/", {"note": "Spiel 1 falsch", "deal": 1},
                           format="json").json()
    return call, objection


def test_the_panel_shows_calls_and_objections_and_the_director_handles_them(
        short_skat, table, staff_browser):
    call, objection = raise_both(table)
    name = seated(table)[0].player.name
    panel = staff_browser.get(f"/console/t/{short_skat.pk}/voice/").content.decode()
    assert "Karten fehlen" in panel and "Spiel 1 falsch" in panel and name in panel
    assert f"/console/table/{table['id']}/" in panel  # the link to the staff sheet
    page = staff_browser.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert 'id="voice-panel"' in page and "Karten fehlen" in page

    resp = staff_browser.post(f"/console/t/{short_skat.pk}/calls/{call['id']}/",
                              {"status": "seen"})
    assert resp.status_code == 302
    assert DirectorCall.objects.get(pk=call["id"]).status == "seen"
    assert player_client(seated(table)[0]).get(
        f"/api/v1/tables/{table['id']}/calls/{call['id']}/").json()["status"] == "seen"
    staff_browser.post(f"/console/t/{short_skat.pk}/calls/{call['id']}/", {"status": "closed"})
    assert "Karten fehlen" not in staff_browser.get(
        f"/console/t/{short_skat.pk}/voice/").content.decode()

    resp = staff_browser.post(f"/console/t/{short_skat.pk}/objections/{objection['id']}/",
                              {"resolution": "  Geprüft, richtig  "})
    assert resp.status_code == 302
    decided = Objection.objects.get(pk=objection["id"])
    assert decided.status == "resolved" and decided.resolution == "Geprüft, richtig"
    sheet = staff_browser.get(f"/console/table/{table['id']}/").content.decode()
    assert "Spiel 1 falsch" in sheet and "Geprüft, richtig" in sheet
    assert f"{name} (eigenes Handy)" in sheet  # the history names the player's phone
    assert "Entscheidung: Geprüft, richtig" in sheet


@pytest.mark.parametrize("resolution", ["", "   ", "x" * 501])
def test_a_bad_decision_is_shown_at_its_field(short_skat, table, staff_browser, resolution):
    _call, objection = raise_both(table)
    resp = staff_browser.post(f"/console/t/{short_skat.pk}/objections/{objection['id']}/",
                              {"resolution": resolution})
    assert resp.status_code == 400
    html = resp.content.decode()
    assert f'id="objection-{objection["id"]}"' in html and 'class="field-error"' in html
    assert Objection.objects.get(pk=objection["id"]).status == "open"


def test_a_bad_call_status_is_refused(short_skat, table, staff_browser):
    call, _objection = raise_both(table)
    resp = staff_browser.post(f"/console/t/{short_skat.pk}/calls/{call['id']}/",
                              {"status": "open"})
    assert resp.status_code == 400 and 'class="field-error"' in resp.content.decode()
    assert DirectorCall.objects.get(pk=call["id"]).status == "open"


def test_another_tournaments_call_is_404(short_skat, table, staff_browser, club, director):
    from tests.factories import TournamentFactory

    call, objection = raise_both(table)
    other = TournamentFactory(club=club)
    other.directors.add(director)
    assert staff_browser.post(f"/console/t/{other.pk}/calls/{call['id']}/",
                              {"status": "seen"}).status_code == 404
    assert staff_browser.post(f"/console/t/{other.pk}/objections/{objection['id']}/",
                              {"resolution": "x"}).status_code == 404


def test_the_panel_costs_the_same_with_more_calls_and_objections(short_skat, table,
                                                                 other_table, staff_browser):
    def cost() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert staff_browser.get(f"/console/t/{short_skat.pk}/voice/").status_code == 200
        return len(ctx)

    raise_both(table)
    few = cost()
    for t in (table, other_table):
        for p in seated(t):
            player_client(p).post(f"/api/v1/tables/{t['id']}/calls/", {}, format="json")
            player_client(p).post(f"/api/v1/tables/{t['id']}/objections/", {"note": "?"},
                                  format="json")
    assert DirectorCall.objects.count() == 7 and Objection.objects.count() == 8
    assert cost() == few


def test_outsiders_and_anonymous_do_not_see_the_panel(short_skat, client, outsider):
    assert client.get(f"/console/t/{short_skat.pk}/voice/").status_code in (302, 403)
    client.force_login(outsider)
    assert client.get(f"/console/t/{short_skat.pk}/voice/").status_code in (403, 404)
    assert not SheetEvent.objects.exists()


def test_the_polled_panel_is_a_private_304_until_a_call_or_objection_changes(
        short_skat, table, staff_browser, requests_commit):
    url = f"/console/t/{short_skat.pk}/voice/"
    staff_browser.get(f"/console/t/{short_skat.pk}/")  # the page: its forms' CSRF secret
    first = staff_browser.get(url)
    assert first["Cache-Control"] == "private, no-cache"
    assert staff_browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    call, _objection = raise_both(table)
    raised = staff_browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert raised.status_code == 200 and "Karten fehlen" in raised.content.decode()
    assert staff_browser.get(url, HTTP_IF_NONE_MATCH=raised["ETag"]).status_code == 304
    staff_browser.post(f"/console/t/{short_skat.pk}/calls/{call['id']}/", {"status": "closed"})
    closed = staff_browser.get(url, HTTP_IF_NONE_MATCH=raised["ETag"])
    assert closed.status_code == 200 and "Karten fehlen" not in closed.content.decode()
    staff_browser.logout()
    assert staff_browser.get(url, HTTP_IF_NONE_MATCH=closed["ETag"]).status_code == 302
