"""Moving the stored standings from one row per participant to pages kept every row.

The database goes back to ``tournaments.0007`` (rows), standings rows are written with
the model as it was then, and after migrating forward the same lists, ranked on read,
come back from the pages."""

import pytest

from tests.migrating import leaves, migrate
from tournaments.models import StandingsPage, Tournament
from tournaments.selectors import standings_rows

BEFORE = [("tournaments", "0007_outbox_round")]


@pytest.mark.django_db(transaction=True)
def test_the_rows_become_pages_and_rank_the_same():
    old = migrate(BEFORE)
    Player = old.get_model("clubs", "Player")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Preisskat", slug="preisskat", game="skat", rules={})
    Participant = old.get_model("tournaments", "Participant")
    people = [Participant.objects.create(tournament=tournament, start_number=i,
                                         player=Player.objects.create(name=f"P{i}"))
              for i in range(1, 4)]
    StandingRow = old.get_model("tournaments", "StandingRow")
    # (participant, round, rank, score, won, lost): 2 and 3 tie on every figure
    for person, number, rank, score, won, lost in [
            (people[0], 0, 1, 150, 3, 0), (people[1], 0, 2, 90, 1, 1),
            (people[2], 0, 2, 90, 1, 1), (people[0], 1, 1, 150, 3, 0),
            (people[1], 1, 2, 90, 1, 1), (people[2], 1, 2, 90, 1, 1)]:
        StandingRow.objects.create(
            tournament=tournament, round_number=number, participant=person, rank=rank,
            score=score, figures={"won": won, "lost": lost, "game_points": 0},
            rounds=[{"round": 1, "score": score}])

    migrate(leaves())

    moved = Tournament.objects.get(pk=tournament.pk)
    for number in (0, 1):
        assert [(r["participant"], r["rank"], r["score"], r["won"], r["lost"], r["rounds"])
                for r in standings_rows(moved, number)] == [
            (people[0].pk, 1, 150, 3, 0, [{"round": 1, "score": 150}]),
            (people[1].pk, 2, 90, 1, 1, [{"round": 1, "score": 90}]),
            (people[2].pk, 2, 90, 1, 1, [{"round": 1, "score": 90}])]
    pages = StandingsPage.objects.filter(tournament=moved)
    assert set(pages.values_list("round_number", flat=True)) == {0, 1}
