"""Blank paper sheets per game, laid out like the clubs' paper lists."""

import re

import pytest
from django.test import Client

from games.engines import DealContext, get_engine
from tests.factories import ParticipantFactory, StaffFactory, TournamentFactory
from tournaments.models import Table
from tournaments.services import round_draw

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game,players,columns,foot", [
    ("skat", 3, ["Spieler", "Spiel", "Wert"],
     ["Spielpunkte", "+50 je gewonnenes Spiel", "Verlorene Spiele der anderen × 40",
      "Wertung (Seeger-Fabian)"]),
    ("schafkopf", 4, ["Spieler", "Spiel", "Augen", "Wert"], ["Summe"]),
    ("baptistenskat", 4, ["Karten", "Trumpf", "Ansagen", "Stiche"], ["Summe"]),
    ("labatarde", 4, ["Karten", "Trumpf", "Ansagen", "Stiche"],
     ["Strafpunkte – weniger ist besser"]),
    ("basler", 4, ["Stiche A : B", "Letzter Stich"], ["Summe"]),
])
def test_every_game_has_its_paper_list(club, game, players, columns, foot):
    director = StaffFactory(username=f"leitung-{game}")
    tournament = TournamentFactory(club=club, game=game)
    tournament.directors.add(director)
    for n in range(players):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    table = Table.objects.get(round=rnd)
    client = Client()
    client.force_login(director)
    html = client.get(f"/console/t/{tournament.pk}/rounds/1/paper/").content.decode()
    head = html.split('<table class="data paper-grid">', 1)[1].split("</thead>", 1)[0]
    for column in ["Geber", *columns]:
        assert f"<th>{column}</th>" in head, column
    foot_html = html.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    for label in foot:
        assert label in foot_html, label
    engine = get_engine(game)
    rules = engine.options(tournament.rules)
    length = engine.sheet_length(players, rules)
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td>([^<]*)</td>', html)
    assert [int(n) for n, _ in rows] == list(range(1, length + 1))
    names = {s.seat: s.participant.player.name for s in table.seats.all()}
    first = engine.deal_hints(DealContext(1, players, rules))["dealer"]
    assert rows[0][1] == names[first]
    assert "<svg" in html and f"/t/{table.entry_token}/" in html   # the QR code and its link
