"""The tablet's sheet reads like the paper list: who dealt, who played, the game in words,
its value; for Skat the Seeger-Fabian rows whose sum is the sheet's score; for La Bâtarde
the note that fewer penalty points are better."""

import re

import pytest

from tests.conftest import table_client_for
from tests.factories import ParticipantFactory, TournamentFactory
from tournaments.models import Seat, Table
from tournaments.services import round_draw

pytestmark = pytest.mark.django_db


def post(table, number, record):
    client = table_client_for(table["entry_token"])
    resp = client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **record},
                       format="json")
    assert resp.status_code == 201, resp.content


def cells(html, caption):
    """The rows of the table with that caption: header → list of cell texts."""
    table = html.split(caption, 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        head = re.search(r'<th scope="row">(.*?)</th>', row, re.S)
        if head:  # a cell's text without its markup (spans that keep parts together)
            rows[re.sub(r"<[^>]+>", "", head.group(1)).strip()] = [
                re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
                for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    return rows


def test_skat_rows_in_words_and_the_seeger_fabian_rows_add_up(client, table):
    names = {s["seat"]: s["name"] for s in table["seats"]}
    post(table, 1, {"declarer": 2, "game": "clubs", "matadors": 1, "won": True})      # +24
    post(table, 2, {"passed": True})
    post(table, 3, {"declarer": 1, "game": "grand", "matadors": 2, "won": False})     # -144
    html = client.get(f"/t/{table['entry_token']}/sheet/").content.decode()
    assert "Kreuz mit 1, gewonnen" in html and "Grand mit 2, verloren" in html
    assert "eingepasst" in html and 'class="deal-row passed"' in html
    assert f"Spieler: {names[2]}" in html and "Geber: " in html
    assert ">+24<" in html and ">\u2212144<" in html  # a minus sign, not a hyphen
    rows = cells(html, "Seeger-Fabian-Abrechnung")
    assert rows["Spielpunkte"] == ["\u2212144", "24", "0"]
    assert rows["Gewonnene Spiele"] == ["0", "1", "0"]
    assert rows["Verlorene Spiele"] == ["1", "0", "0"]
    assert rows["+50 je gewonnenes Spiel"] == ["+0", "+50", "+0"]
    assert rows["−50 je verlorenes Spiel"] == ["\u221250", "+0", "+0"]
    assert rows["Verlorene Spiele der anderen"] == ["0", "1", "1"]
    assert rows["+40 je verlorenes Spiel der anderen"] == ["+0", "+40", "+40"]
    seats = {s.seat: s.score for s in Seat.objects.filter(table_id=table["id"])}
    foot = re.search(r"Seeger-Fabian-Abrechnung.*?<tfoot>(.*?)</tfoot>", html, re.S).group(1)
    assert [int(v.replace("\u2212", "-"))
            for v in re.findall(r'class="total">(\u2212?\d+)<', foot)] == [
        seats[1], seats[2], seats[3]] == [-194, 114, 40]


def test_english_sheet(client, table):
    post(table, 1, {"declarer": 2, "game": "spades", "matadors": -2, "hand": True, "won": True})
    html = client.get(f"/t/{table['entry_token']}/sheet/", HTTP_ACCEPT_LANGUAGE="en").content
    html = html.decode()
    assert "Spades without 2, hand, won" in html and "Seeger-Fabian list" in html
    assert re.search(r"Others(&#x27;|')? lost games</th>", html)
    assert "+40 per game the others lost</th>" in html


def test_labatarde_says_fewer_penalty_points_are_better(client, club):
    tournament = TournamentFactory(club=club, game="labatarde")
    for n in range(4):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    html = client.get(f"/t/{Table.objects.get(round=rnd).entry_token}/").content.decode()
    assert "Strafpunkte – weniger ist besser" in html
    assert "Seeger-Fabian" not in html
