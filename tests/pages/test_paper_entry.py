"""A paper Skat sheet's totals typed in from the console."""

import pytest
from django.test import Client

from tournaments.models import Seat, SheetEvent, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(director):
    client = Client()
    client.force_login(director)
    return client


def totals(seats, values):
    data = {}
    for seat, (points, won, lost) in zip(seats, values, strict=True):
        data.update({f"seat{seat}_game_points": points, f"seat{seat}_won": won,
                     f"seat{seat}_lost": lost})
    return data


def test_totals_are_scored_by_seeger_fabian_and_kept_in_the_history(console, table):
    url = f"/console/table/{table['id']}/summary/"
    page = console.get(url).content.decode()
    assert "Spielpunkte" in page and table["seats"][0]["name"] in page
    resp = console.post(url, totals([1, 2, 3], [(120, 2, 0), (-48, 0, 1), (0, 0, 0)]))
    assert resp.status_code == 302
    scores = {s.seat: s.score for s in Seat.objects.filter(table_id=table["id"])}
    assert scores == {1: 120 + 100 + 40, 2: -48 - 50, 3: 40}
    assert SheetEvent.objects.filter(table_id=table["id"], action="summary").exists()
    assert Table.objects.get(pk=table["id"]).summary is not None


def test_bad_totals_are_shown_at_the_seat_and_field_and_nothing_is_stored(console, table):
    url = f"/console/table/{table['id']}/summary/"
    resp = console.post(url, totals([1, 2, 3], [(50, 0, 0), (0, 9, 0), (0, 0, 0)]))
    assert resp.status_code == 400
    html = resp.content.decode()
    first = html.split('data-seat="1"', 1)[1].split("</fieldset>", 1)[0]
    assert "Ein Platz ohne Alleinspiele hat 0 Spielpunkte." in first
    second = html.split('data-seat="2"', 1)[1].split("</fieldset>", 1)[0]
    assert "Muss eine ganze Zahl von 0 bis 3 sein." in second   # a 3-deal series
    assert Table.objects.get(pk=table["id"]).summary is None
    assert not SheetEvent.objects.filter(action="summary").exists()


def test_only_the_tournaments_directors_enter_totals(outsider, table):
    client = Client()
    client.force_login(outsider)
    assert client.get(f"/console/table/{table['id']}/summary/").status_code in (403, 404)


def test_the_directors_totals_count_at_once(console, table):
    """The players signed the paper: the totals typed in are the submitted sheet, not a
    sheet "complete, not submitted" waiting for a per-table submit."""
    url = f"/console/table/{table['id']}/summary/"
    resp = console.post(url, totals([1, 2, 3], [(120, 2, 0), (-48, 0, 1), (0, 0, 0)]))
    assert resp.status_code == 302
    assert Table.objects.get(pk=table["id"]).submitted
    submit = SheetEvent.objects.get(table_id=table["id"], action="submit")
    assert submit.after["unconfirmed_reason"] == (
        "Summen von der Papierliste, eingegeben von der Turnierleitung.")
    # a correction of the submitted totals is taken, and the sheet stays submitted
    resp = console.post(url, totals([1, 2, 3], [(96, 2, 0), (-48, 0, 1), (0, 0, 0)]))
    assert resp.status_code == 302 and Table.objects.get(pk=table["id"]).submitted


def test_too_many_games_are_named_with_the_other_errors(console, table):
    url = f"/console/table/{table['id']}/summary/"
    # a 3-deal series: 2 + 2 games are too many, and seat 3 has points without games
    resp = console.post(url, totals([1, 2, 3], [(120, 2, 0), (-48, 0, 2), (30, 0, 0)]))
    assert resp.status_code == 400
    html = resp.content.decode()
    assert "Eine Serie hat höchstens 3 Spiele" in html
    assert "Ein Platz ohne Alleinspiele hat 0 Spielpunkte." in html
    assert not Table.objects.get(pk=table["id"]).submitted


def test_a_table_with_paper_totals_says_so_instead_of_a_game_count(console, table):
    """Its deals were never typed in: the console's round and the sheet say the totals
    came from paper, not "0 / 3" games."""
    tournament = Table.objects.get(pk=table["id"]).round.tournament_id
    round_page = console.get(f"/console/t/{tournament}/").content.decode()
    assert "0 / 3" in round_page and "Summen vom Papier</span>" not in round_page
    console.post(f"/console/table/{table['id']}/summary/",
                 totals([1, 2, 3], [(120, 2, 0), (-48, 0, 1), (0, 0, 0)]))
    round_page = console.get(f"/console/t/{tournament}/").content.decode()
    assert '<span class="paper-totals">Summen vom Papier</span>' in round_page
    assert "0 / 3" not in round_page
    sheet = console.get(f"/console/table/{table['id']}/").content.decode()
    assert "nur mit Summen erfasst" in sheet and "0 von 3 Spielen" not in sheet
