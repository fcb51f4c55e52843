"""A season ranked by the average per round (*Rundenschnitt*, games.md §8.8) instead of the
sum: the season's option, its form, its page, its service and its API, for any game.

Three one-round evenings of Skat: A plays all three (100 each: 300, 100 a round), B only
the first (250: 250 a round), C all three (60 each: 180, 60 a round), D the last two (50
each: 100, 50 a round). By the sum A leads; by the average B, with one round, does.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clublife.models import Season, SeasonRow
from clublife.services.season_rows import season_recompute
from clublife.services.seasons import season_update
from games.engines.base import EngineUserError
from tests.clublife.helpers import day, play_evening
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club):
    return {name: PlayerFactory(club=club, name=name) for name in "ABCD"}


@pytest.fixture
def three_evenings(club, director, members):
    a, b, c, d = (members[n] for n in "ABCD")
    for n, scores in enumerate([{a: 100, b: 250, c: 60}, {a: 100, c: 60, d: 50},
                                {a: 100, c: 60, d: 50}]):
        play_evening(club, director, day(n), scores, seed=n)
    return season_of(club)


def season_of(club):
    return Season.objects.get(club=club, game="skat", year=2026)


def ranking(season):
    return [(r.player.name, r.rank, r.score, r.rounds, r.average)
            for r in SeasonRow.objects.filter(season=season).select_related("player")
            .order_by("position")]


@pytest.fixture
def admin(client, director):
    client.force_login(director)
    return client


def page(club):
    return f"/clubs/{club.slug}/seasons/2026/?game=skat"


def test_a_new_season_ranks_by_the_sum(three_evenings):
    season = season_recompute(season_id=three_evenings.pk)
    assert season.ranked_by == "sum"
    assert ranking(season) == [("A", 1, 300, 3, 100.0), ("B", 2, 250, 1, 250.0),
                               ("C", 3, 180, 3, 60.0), ("D", 4, 100, 2, 50.0)]


def test_ranked_by_the_average_fewer_rounds_and_a_higher_average_rank_first(three_evenings):
    season = season_update(season=three_evenings, best_n=None, min_evenings=0,
                           ranked_by="average")
    season = season_recompute(season_id=season.pk)
    assert ranking(season) == [("B", 1, 250, 1, 250.0), ("A", 2, 300, 3, 100.0),
                               ("C", 3, 180, 3, 60.0), ("D", 4, 100, 2, 50.0)]
    # changing best N or the minimum without naming the order keeps it
    season = season_update(season=season, best_n=2, min_evenings=0)
    assert Season.objects.get(pk=season.pk).ranked_by == "average"


def test_the_service_refuses_an_unknown_order_naming_the_field(three_evenings):
    with pytest.raises(EngineUserError) as refused:
        season_update(season=three_evenings, best_n=None, min_evenings=0, ranked_by="median")
    assert [e.field for e in refused.value.errors] == ["ranked_by"]
    assert Season.objects.get(pk=three_evenings.pk).ranked_by == "sum"


def test_the_page_shows_the_average_column_and_says_how_it_ranks(client, club,
                                                                 three_evenings):
    season_recompute(season_id=three_evenings.pk)
    by_sum = client.get(page(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Average per round" not in by_sum.split("<table")[1]
    season_update(season=three_evenings, best_n=None, min_evenings=0, ranked_by="average")
    season_recompute(season_id=three_evenings.pk)
    english = client.get(page(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ranked by the average per round" in english
    table = english.split("<table")[1]
    assert "Average per round" in table and "250.00" in table
    assert table.index(">B</a>") < table.index(">A</a>")
    german = client.get(page(club), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "nach dem Schnitt je Runde" in german
    assert "Schnitt je Runde" in german.split("<table")[1] and "250,00" in german


def test_the_admin_chooses_the_order_in_the_form(admin, club, three_evenings):
    resp = admin.post(page(club), {"best_n": "", "min_evenings": "0", "ranked_by": "average"})
    assert resp.status_code == 302
    assert season_of(club).ranked_by == "average"
    form = admin.get(page(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="average" selected>' in form


@pytest.mark.parametrize("language, words", [
    ("en", "Ranked by: choose the sum of the points or the average per round."),
    ("de", "Rangfolge nach: Wählen Sie die Summe der Punkte oder den Schnitt je Runde."),
])
def test_the_form_refuses_a_bad_order_naming_the_field(admin, club, three_evenings,
                                                       language, words):
    resp = admin.post(page(club), {"best_n": "", "min_evenings": "0", "ranked_by": "median"},
                      HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 400
    assert words in resp.content.decode()
    assert season_of(club).ranked_by == "sum"


def test_the_page_reads_a_fixed_number_of_queries_however_many_evenings(
        client, club, director, members, three_evenings):
    season_update(season=three_evenings, best_n=None, min_evenings=0, ranked_by="average")
    season_recompute(season_id=three_evenings.pk)
    with CaptureQueriesContext(connection) as few:
        assert client.get(page(club)).status_code == 200
    for n in range(3, 7):
        guests = {f"Gast {n}": 40, f"Gast {n}b": 30}
        play_evening(club, director, day(n), {members["B"]: 90}, guests, seed=n)
    season_recompute(season_id=three_evenings.pk)
    assert SeasonRow.objects.filter(season=three_evenings).count() == 12
    with CaptureQueriesContext(connection) as many:
        assert client.get(page(club)).status_code == 200
    assert len(many) == len(few)


# ---------------------------------------------------------------- API


def url(club_id):
    return f"/api/v1/clubs/{club_id}/seasons/2026/?game=skat"


def test_the_api_round_trips_the_order(director_client, anon_client, club, three_evenings):
    assert anon_client.get(url(club.pk)).json()["ranked_by"] == "sum"
    resp = director_client.put(url(club.pk), {"best_n": None, "min_evenings": 0,
                                              "ranked_by": "average"}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["ranked_by"] == "average"
    season_recompute(season_id=three_evenings.pk)
    body = anon_client.get(url(club.pk)).json()
    assert body["ranked_by"] == "average"
    assert [(r["name"], r["rank"], r["rounds"], r["average"]) for r in body["results"]] == [
        ("B", 1, 1, 250.0), ("A", 2, 3, 100.0), ("C", 3, 3, 60.0), ("D", 4, 2, 50.0)]
    # a PUT that leaves the order out keeps it
    kept = director_client.put(url(club.pk), {"best_n": 2, "min_evenings": 0}, format="json")
    assert kept.status_code == 200 and kept.json()["ranked_by"] == "average"


def test_the_api_refuses_an_unknown_order_naming_the_field(director_client, club,
                                                           three_evenings):
    resp = director_client.put(url(club.pk), {"best_n": None, "min_evenings": 0,
                                              "ranked_by": "median"}, format="json")
    assert resp.status_code == 400 and "ranked_by" in resp.json()
    assert season_of(club).ranked_by == "sum"


def test_the_schema_documents_the_choices(anon_client):
    schema = anon_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    rules = schema["components"]["schemas"]
    choices = [s for name, s in rules.items() if "RankedBy" in name]
    assert choices and all(set(s["enum"]) == {"sum", "average"} for s in choices), rules.keys()


# ---------------------------------------------------------------- migration


@pytest.mark.django_db(transaction=True)
def test_the_migration_ranks_by_the_sum_and_has_stored_rankings_recomputed():
    from django.db.migrations.executor import MigrationExecutor

    def migrate(targets):
        executor = MigrationExecutor(connection)
        executor.migrate(targets)
        executor.loader.build_graph()
        return executor.loader.project_state(targets).apps

    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate([("clublife", "0002_table_money_changes")])
    Club, Player = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
    club = Club.objects.create(name="Kreuz Ass", slug="kreuz-ass")
    player = Player.objects.create(name="Anna", club=club)
    OldSeason = old.get_model("clublife", "Season")
    stored = OldSeason.objects.create(club=club, game="skat", year=2025)
    old.get_model("clublife", "SeasonRow").objects.create(
        season=stored, player=player, position=1, rank=1, score=300, attended=3, counted=3)
    OldSeason.objects.create(club=club, game="skat", year=2026)  # nothing stored yet

    new = migrate(leaves)

    seasons = new.get_model("clublife", "Season").objects.order_by("year")
    assert [s.ranked_by for s in seasons] == ["sum", "sum"]
    assert new.get_model("clublife", "SeasonRow").objects.get().rounds == 0
    outbox = new.get_model("clublife", "SeasonOutbox").objects
    assert list(outbox.values_list("season_id", flat=True)) == [stored.pk]
