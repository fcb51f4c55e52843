"""The director's console through the Django test client: every step of a club evening."""

import re

import pytest

from tournaments.models import Participant, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client, director):
    client.force_login(director)
    return client


def test_console_needs_a_staff_login(client):
    resp = client.get("/console/")
    assert resp.status_code == 302 and "/login" in resp["Location"]


def test_outsider_cannot_open_a_tournament_he_does_not_direct(client, outsider, short_skat):
    client.force_login(outsider)
    assert client.get(f"/console/t/{short_skat.pk}/").status_code == 403


def test_a_club_evening_from_creation_to_table_cards(console, club):
    resp = console.post("/console/", {"name": "Donnerstagsrunde", "game": "skat",
                                      "club": club.pk, "published": "on"})
    assert resp.status_code == 302
    tournament = Tournament.objects.get(name="Donnerstagsrunde")
    names = "\n".join(f"Spieler {i}" for i in range(1, 8)) + "\n\n"
    resp = console.post(f"/console/t/{tournament.pk}/register/", {"names": names})
    assert resp.status_code == 302
    assert tournament.participants.count() == 7
    resp = console.post(f"/console/t/{tournament.pk}/draw/", {"method": "balanced"})
    assert resp.status_code == 302
    rnd = Round.objects.get(tournament=tournament)
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 4]
    cards = console.get(f"/console/t/{tournament.pk}/rounds/1/cards/")
    html = cards.content.decode()
    assert cards.status_code == 200
    assert html.count("<svg") == 2
    for table in rnd.tables.all():
        assert f"/t/{table.entry_token}/" in html
    paper = console.get(f"/console/t/{tournament.pk}/rounds/1/paper/").content.decode()
    assert paper.count('class="paper-sheet"') == 2
    page = console.get(f"/console/t/{tournament.pk}/").content.decode()
    assert "Spieler 7" in page


def test_draw_errors_show_next_to_the_form(console, club, director):
    console.post("/console/", {"name": "Zu wenige", "game": "skat", "club": club.pk})
    tournament = Tournament.objects.get(name="Zu wenige")
    console.post(f"/console/t/{tournament.pk}/register/", {"names": "A\nB\nC\nD\nE"})
    resp = console.post(f"/console/t/{tournament.pk}/draw/", {"method": "random"},
                        HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert "cannot be split" in resp.content.decode()
    assert not Round.objects.filter(tournament=tournament).exists()


def test_blank_paste_list_is_refused(console, short_skat):
    resp = console.post(f"/console/t/{short_skat.pk}/register/", {"names": "\n  \n"})
    assert resp.status_code == 400
    assert short_skat.participants.count() == 7


def test_check_in_toggle_with_htmx_returns_the_row(console, short_skat):
    participant = short_skat.participants.first()
    resp = console.post(f"/console/t/{short_skat.pk}/participant/{participant.pk}/checked_in/",
                        HTTP_HX_REQUEST="true")
    assert resp.status_code == 200
    assert f'id="participant-{participant.pk}"' in resp.content.decode()
    assert Participant.objects.get(pk=participant.pk).checked_in is False


def test_rules_are_validated_by_the_engine_and_locked_after_the_draw(console, short_skat):
    resp = console.post(f"/console/t/{short_skat.pk}/rules/",
                        {"series_deals_3": "0", "series_deals_4": "48", "scoring": "plain",
                         "grand_ouvert_base": "24"})
    assert resp.status_code == 400
    resp = console.post(f"/console/t/{short_skat.pk}/rules/",
                        {"series_deals_3": "36", "series_deals_4": "48", "scoring": "plain",
                         "grand_ouvert_base": "24", "kontra_re": "on"})
    assert resp.status_code == 302
    short_skat.refresh_from_db()
    assert short_skat.rules == {"scoring": "plain", "kontra_re": True}
    console.post(f"/console/t/{short_skat.pk}/draw/", {"method": "random"})
    resp = console.post(f"/console/t/{short_skat.pk}/rules/",
                        {"series_deals_3": "36", "series_deals_4": "48",
                         "scoring": "seeger_fabian", "grand_ouvert_base": "24"})
    assert resp.status_code == 400
    short_skat.refresh_from_db()
    assert short_skat.rules == {"scoring": "plain", "kontra_re": True}


def test_close_round_refused_while_sheets_are_open(console, short_skat, drawn):
    resp = console.post(f"/console/t/{short_skat.pk}/rounds/1/close/", {"confirm": "yes"},
                        follow=True)
    assert not Round.objects.get(tournament=short_skat).closed
    assert re.search(r"class=\"error\"", resp.content.decode())


def test_staff_sheet_page_shows_the_history(console, table, table_client):
    table_client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True},
                      format="json")
    resp = console.get(f"/console/table/{table['id']}/")
    assert resp.status_code == 200
    assert 'class="history"' in resp.content.decode()


def test_a_club_evening_needs_its_club_and_date(console, club):
    """Issue 53: ticked "Vereinsabend" without a club or a date is refused at those
    fields, nothing stored; with them the evening counts for the club's season."""
    resp = console.post("/console/", {"name": "Freitagsrunde", "game": "skat",
                                      "club_evening": "on"})
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "Ein Vereinsabend braucht seinen Verein." in html
    assert "Ein Datum ist erforderlich." in html
    assert not Tournament.objects.filter(name="Freitagsrunde").exists()
    resp = console.post("/console/", {"name": "Freitagsrunde", "game": "skat",
                                      "club": club.pk, "date": "2026-03-06",
                                      "club_evening": "on"})
    assert resp.status_code == 302
    evening = Tournament.objects.get(name="Freitagsrunde")
    assert evening.club_evening and evening.published and evening.club_id == club.pk
