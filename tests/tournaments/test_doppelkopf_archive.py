"""A Doppelkopf tournament through the archive and the CSV files (games.md §8): Pflichtsoli,
a Hochzeit with its Hochzeiter first, penalties, an annulled game and time up survive
export → empty database → import with the same archive and the same standings; the
standings file names the solos in the reader's language."""

import copy
import json

import pytest
from django.utils import translation

from archive.export import tournament_export
from archive.importing import tournament_import
from archive.standings_file import standings_csv
from tests.factories import ParticipantFactory, TournamentFactory
from tests.tournaments.test_archive import empty_the_database, same_document
from tournaments.models import Deal
from tournaments.recompute.standings_rows import compute_standings
from tournaments.services import Actor, deals_record, round_close, round_draw, sheet_submit

pytestmark = pytest.mark.django_db

NORMAL = {"game": "normal", "re": [1, 2], "re_points": 130,
          "announcements": {"re": "re"}, "extras": {"kontra": {"fuchs": 1}}}
HOCHZEIT = {"game": "hochzeit", "re": [3, 1], "re_points": 100}
MINOR = {"game": "normal", "re": [2, 4], "re_points": 140,
         "penalties": [{"seat": 1, "kind": "minor"}]}
ANNULLED = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious", "absagen": 1}]}


def solo(seat, points=130):
    return {"game": "solo_damen", "re": [seat], "re_points": points}


# a whole round at a 4-table: 20 normal-column games, 4 Pflichtsoli, an annulled game
ROUND = ([NORMAL, HOCHZEIT, solo(2), MINOR, ANNULLED, solo(4, 100)] + [NORMAL] * 10
         + [solo(1)] + [MINOR] * 6 + [solo(3)] + [HOCHZEIT])


def names(tournament):
    return {p.pk: p.player.name for p in tournament.participants.select_related("player")}


def by_name(tournament):
    who = names(tournament)
    return sorted((who[r["participant"]], r["rank"], r["score"], r["solos"])
                  for r in compute_standings(tournament))


def test_a_doppelkopf_tournament_leaves_and_comes_back_the_same(club, director):
    tournament = TournamentFactory(club=club, game="doppelkopf", rules={})
    for n in range(8):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    staff, tablet = Actor(user=director), Actor(by_table=True)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=3)
    for table in rnd.tables.order_by("number"):
        deals_record(table_id=table.pk, records=ROUND, actor=tablet)
        sheet_submit(table_id=table.pk, actor=staff)
    round_close(round_id=rnd.pk)
    second = round_draw(tournament_id=tournament.pk, method="ranking", seed=4)
    first = second.tables.order_by("number").first()
    deals_record(table_id=first.pk, actor=tablet,
                 records=[NORMAL, solo(2), {"game": "time_up"}])
    before = by_name(tournament)
    assert len(ROUND) == 25 and before[0][3] >= 1
    archive = json.loads(json.dumps(tournament_export(tournament=tournament)))
    deals = archive["rounds"][0]["tables"][0]["deals"]
    assert [d["game"] for d in deals].count("annulled") == 1
    assert deals[1]["re"] == [3, 1]
    empty_the_database()
    imported = tournament_import(data=copy.deepcopy(archive))
    assert same_document(json.loads(json.dumps(tournament_export(tournament=imported))),
                         archive)
    assert by_name(imported) == before
    # what the engine derives (a compulsory solo) is derived again, not imported
    third = Deal.objects.get(table__round__tournament=imported, table__round__number=1,
                             table__number=archive["rounds"][0]["tables"][0]["number"],
                             number=3)
    assert third.extra["compulsory"] is True


def test_the_standings_file_names_the_solos(club):
    tournament = TournamentFactory(club=club, game="doppelkopf", rules={})
    for n in range(4):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=3)
    table = rnd.tables.get()
    deals_record(table_id=table.pk, records=[NORMAL, solo(2)], actor=Actor(by_table=True))
    with translation.override("de"):
        header = standings_csv(tournament).lstrip("\ufeff").splitlines()[0].split(";")
    assert header[:6] == ["Rang", "Startnummer", "Name", "Verein", "Wertung", "Soli"]
    with translation.override("en"):
        lines = standings_csv(tournament).lstrip("\ufeff").splitlines()
    assert lines[0].split(";")[5] == "Solos"
    solos = {line.split(";")[1]: line.split(";")[5] for line in lines[1:]}
    seat2 = table.seats.get(seat=2).participant
    assert solos[str(seat2.start_number)] == "1"
