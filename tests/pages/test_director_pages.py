"""The console's director tools and the printable standings, through the test client:
withdrawing (with the present count), duplicate pasted names, ending a sheet early,
reopening a round, finishing, the print page and its query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Deal, Round, SheetEvent, Table, Tournament
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, deal_record, round_close, round_draw, sheet_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client, director):
    client.force_login(director)
    return client


def play(tournament, director, *, seed=1):
    """Draw a round, enter every sheet with passed deals, submit and close it."""
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=seed)
    actor = Actor(user=director)
    for table in rnd.tables.all():
        for number in range(1, table.seats.count() + 1):
            deal_record(table_id=table.pk, number=number, record={"passed": True}, actor=actor)
        sheet_submit(table_id=table.pk, actor=actor)
    round_close(round_id=rnd.pk, actor=actor)
    return rnd


def test_withdrawing_updates_the_row_and_the_present_count(console, short_skat):
    p = short_skat.participants.first()
    url = f"/console/t/{short_skat.pk}/participant/{p.pk}/withdrawn/"
    resp = console.post(url, {"confirm": "yes"}, HTTP_HX_REQUEST="true")
    html = resp.content.decode()
    assert resp.status_code == 200
    assert f'id="participant-{p.pk}"' in html and 'class="withdrawn"' in html
    assert 'id="present-count" hx-swap-oob="true"' in html and "6 Spieler anwesend" in html
    assert "✓" not in html  # a withdrawn player is not shown as present
    page = console.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert "6 Spieler anwesend" in page
    resp = console.post(url, HTTP_HX_REQUEST="true")
    assert "7 Spieler anwesend" in resp.content.decode() and "✓" in resp.content.decode()


def test_pasted_duplicates_are_reported_not_skipped_silently(console, short_skat):
    existing = short_skat.participants.first().player.name
    names = f"Anna Neu\nanna  neu\n{existing}\nBernd Neu\n"
    resp = console.post(f"/console/t/{short_skat.pk}/register/", {"names": names}, follow=True)
    html = resp.content.decode()
    assert short_skat.participants.count() == 9
    assert "2 Spieler angemeldet" in html
    assert "anna  neu" in html and existing in html
    assert "Nicht erneut angemeldet" in html


def test_end_a_sheet_early_from_the_console(console, short_skat, director):
    rnd = round_draw(tournament_id=short_skat.pk, method="random", seed=3)
    table = rnd.tables.get(number=1)
    page = console.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert f"/console/t/{short_skat.pk}/tables/{table.pk}/end/" in page
    url = f"/console/t/{short_skat.pk}/tables/{table.pk}/end/"
    bad = console.post(url, {"reason": "   ", "confirm": "yes"})
    assert bad.status_code == 400
    assert "Dieses Feld ist zwingend erforderlich" in bad.content.decode() or \
        "Grund" in bad.content.decode()
    assert not Table.objects.get(pk=table.pk).submitted
    resp = console.post(url, {"reason": "Spieler krank", "confirm": "yes"}, follow=True)
    table.refresh_from_db()
    assert table.submitted and table.shortened and table.end_reason == "Spieler krank"
    assert "vorzeitig beendet: Spieler krank" in resp.content.decode()
    again = console.post(url, {"reason": "nochmal", "confirm": "yes"}, follow=True)
    assert "schon abgegeben" in again.content.decode()  # the conflict is shown, nothing changes
    assert SheetEvent.objects.filter(table=table, action="end").count() == 1


def test_reopen_a_round_from_the_console_and_close_it_again(console, short_skat, director):
    play(short_skat, director)
    page = console.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert f"/console/t/{short_skat.pk}/rounds/1/reopen/" in page
    resp = console.post(f"/console/t/{short_skat.pk}/rounds/1/reopen/", {"confirm": "yes"},
                        follow=True)
    assert "wieder geöffnet" in resp.content.decode()
    assert Round.objects.get(tournament=short_skat).reopened
    assert "Runde 1 erneut abschließen" in resp.content.decode()
    console.post(f"/console/t/{short_skat.pk}/rounds/1/close/", {"confirm": "yes"})
    assert Round.objects.get(tournament=short_skat).closed


def test_finish_and_reopen_from_the_console(console, short_skat, director, client):
    round_draw(tournament_id=short_skat.pk, method="random", seed=3)
    resp = console.post(f"/console/t/{short_skat.pk}/finish/", {"confirm": "yes"}, follow=True)
    assert "Runde 1" in resp.content.decode()  # close it first
    assert Tournament.objects.get(pk=short_skat.pk).status == "running"
    Round.objects.filter(tournament=short_skat).delete()
    resp = console.post(f"/console/t/{short_skat.pk}/finish/", {"confirm": "yes"}, follow=True)
    html = resp.content.decode()
    assert Tournament.objects.get(pk=short_skat.pk).status == "finished"
    assert "Turnier wieder öffnen" in html
    assert "beendet" in console.get("/console/").content.decode()
    assert "beendet" in console.get(f"/p/{short_skat.slug}/").content.decode()
    assert "beendet" in console.get("/").content.decode()
    p = short_skat.participants.first()
    resp = console.post(f"/console/t/{short_skat.pk}/participant/{p.pk}/withdrawn/",
                        {"confirm": "yes"}, follow=True)
    assert "beendet" in resp.content.decode()
    p.refresh_from_db()
    assert not p.withdrawn
    console.post(f"/console/t/{short_skat.pk}/finish/", {"confirm": "yes"})
    assert Tournament.objects.get(pk=short_skat.pk).status == "draft"


def test_the_print_page_lists_overall_and_every_round(client, short_skat, director):
    play(short_skat, director, seed=1)
    withdrawn = short_skat.participants.first()
    withdrawn.withdrawn = True
    withdrawn.save()
    rnd = round_draw(tournament_id=short_skat.pk, method="random", seed=2)
    table = rnd.tables.order_by("number").first()
    actor = Actor(user=director)
    deal_record(table_id=table.pk, number=1, record={"passed": True}, actor=actor)
    from tournaments.services import sheet_end
    sheet_end(table_id=table.pk, reason="Zeit abgelaufen", actor=actor)
    standings_recompute(tournament_id=short_skat.pk)
    html = client.get(f"/p/{short_skat.slug}/print/").content.decode()
    assert "Gesamt" in html and "Runde 1" in html and "Runde 2" in html
    assert "zurückgezogen" in html and "Zeit abgelaufen" in html
    assert "@media print" not in html  # the print rules live in the stylesheet
    assert f"/clubs/tournaments/{short_skat.pk}/standings.csv" in html
    one = client.get(f"/p/{short_skat.slug}/print/?round=2").content.decode()
    assert "Runde 2" in one and "<h2>Gesamt</h2>" not in one
    board = client.get(f"/p/{short_skat.slug}/").content.decode()
    assert f"/p/{short_skat.slug}/print/" in board and "standings.csv" in board
    assert "zurückgezogen" in board
    round_two = client.get(f"/p/{short_skat.slug}/?round=2").content.decode()
    assert "Zeit abgelaufen" in round_two
    english = client.get(f"/p/{short_skat.slug}/print/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Overall" in english.content.decode() and "withdrawn" in english.content.decode()


def test_an_unpublished_print_page_is_for_its_directors_only(client, short_skat, director):
    short_skat.published = False
    short_skat.save()
    assert client.get(f"/p/{short_skat.slug}/print/").status_code == 404
    client.force_login(director)
    assert client.get(f"/p/{short_skat.slug}/print/").status_code == 200


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_print_page_query_count_does_not_grow_with_rounds_or_players(
        client, short_skat, director, club, requests_commit):
    # the changes between the two reads reach the page's snapshot as if committed
    url = f"/p/{short_skat.slug}/print/"
    play(short_skat, director, seed=1)
    standings_recompute(tournament_id=short_skat.pk)
    one_round = _queries(client, url)
    for n in range(5):
        ParticipantFactory(tournament=short_skat, player=PlayerFactory(club=club),
                           start_number=20 + n)
    for seed in (2, 3):
        rnd = play(short_skat, director, seed=seed)
        table = rnd.tables.first()
        Table.objects.filter(pk=table.pk).update(shortened=True, end_reason="Zeit")
    standings_recompute(tournament_id=short_skat.pk)
    assert Deal.objects.count() > 20
    assert _queries(client, url) == one_round
