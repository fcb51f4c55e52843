"""A season of ten club evenings: best N of M, the attendance minimum, staleness, the API."""

import datetime

import pytest

from clublife.models import Season, SeasonOutbox
from clublife.services.evenings import club_evening_create
from clublife.services.season_rows import season_recompute
from clublife.services.seasons import season_update
from clublife.tasks import sweep_seasons
from config.celery import app as celery_app
from tests.clublife.helpers import day, enter_round, play_evening, score
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Tournament
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import round_draw, tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club):
    return {name: PlayerFactory(club=club, name=name) for name in "ABCDE"}


@pytest.fixture
def ten_evenings(club, director, members):
    """A plays all ten evenings (100 each), B five (250, then 60), C four (120 ×3, 50),
    D three (400 each), E seven from the fourth on (50 each); a new guest (50) fills each
    of the last five tables."""
    a, b, c, d, e = (members[n] for n in "ABCDE")
    plan = [
        {a: 100, b: 250, c: 120, d: 400},
        {a: 100, b: 60, c: 120, d: 400},
        {a: 100, b: 60, c: 120, d: 400},
        {a: 100, b: 60, c: 50, e: 50},
        {a: 100, b: 60, e: 50},
        {a: 100, e: 50},
        {a: 100, e: 50},
        {a: 100, e: 50},
        {a: 100, e: 50},
        {a: 100, e: 50},
    ]
    evenings = []
    for n, scores in enumerate(plan):
        guests = {f"Gast {n}": 50} if len(scores) == 2 else {}
        evenings.append(play_evening(club, director, day(n), scores, guests, seed=n))
    return evenings


def season_of(club):
    return Season.objects.get(club=club, game="skat", year=2026)


def ranking(season):
    return [(r.player.name, r.rank, r.score, r.attended, r.counted)
            for r in season.rows.select_related("player").order_by("position")]


def test_every_evening_counts_by_default(club, ten_evenings):
    season = season_recompute(season_id=season_of(club).pk)
    assert season.evenings == 10
    rows = ranking(season)
    assert rows[:5] == [("D", 1, 1200, 3, 3), ("A", 2, 1000, 10, 10), ("B", 3, 490, 5, 5),
                        ("C", 4, 410, 4, 4), ("E", 5, 350, 7, 7)]
    # five guests of one evening each, 50 points apiece: one shared rank
    assert [(name[:4], rank, points) for name, rank, points, *_ in rows[5:]] == [
        ("Gast", 6, 50)] * 5


def test_best_three_of_ten_with_an_attendance_minimum_of_four(club, ten_evenings):
    season = season_update(season=season_of(club), best_n=3, min_evenings=4)
    season = season_recompute(season_id=season.pk)
    rows = ranking(season)
    assert rows[:4] == [("B", 1, 370, 5, 3), ("C", 2, 360, 4, 3), ("A", 3, 300, 10, 3),
                        ("E", 4, 150, 7, 3)]
    # below the minimum: listed after, without a rank (D would lead with 1200)
    assert rows[4] == ("D", None, 1200, 3, 3)
    assert all(rank is None for _n, rank, *_ in rows[5:]) and len(rows) == 10
    b_row = season.rows.get(player__name="B")
    assert [e["counted"] for e in b_row.results] == [True, True, True, False, False]


def test_new_seasons_start_with_the_clubs_defaults(director, members):
    club = ClubFactory(season_best_n=2, season_min_evenings=1)
    club.admins.add(director)
    play_evening(club, director, day(1), {PlayerFactory(club=club): 100,
                                          PlayerFactory(club=club): 60,
                                          PlayerFactory(club=club): 50})
    season = season_of(club)
    assert (season.best_n, season.min_evenings) == (2, 1)


def test_a_recomputed_evening_marks_its_season_stale(club, director, members):
    play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    season = season_of(club)
    assert SeasonOutbox.objects.filter(season=season).count() == 1
    season_recompute(season_id=season.pk)
    assert not SeasonOutbox.objects.exists()
    assert season_recompute(season_id=season.pk).recomputes == 2  # idempotent


def test_open_tournaments_and_other_years_do_not_count(club, director, members):
    play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    last_year = play_evening(club, director, day(-10), {members["D"]: 500,
                                                        members["B"]: 60, members["C"]: 50})
    assert last_year.date.year == 2025
    season = season_recompute(season_id=season_of(club).pk)
    assert [r[0] for r in ranking(season)] == ["A", "B", "C"]


def test_an_unpublished_evening_leaves_the_season_until_it_is_published_again(
        club, director, members, anon_client):
    play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    hidden = play_evening(club, director, day(2), {members["D"]: 900, members["B"]: 60,
                                                   members["C"]: 50}, seed=2)
    season = season_of(club)
    tournament_update(tournament=hidden, published=False)
    assert SeasonOutbox.objects.filter(season=season).exists()  # the season moves at once
    season = season_recompute(season_id=season.pk)
    assert [r[0] for r in ranking(season)] == ["A", "B", "C"] and season.evenings == 1
    body = anon_client.get(url(club.pk)).json()
    assert body["evenings"] == 1 and "D" not in {row["name"] for row in body["results"]}
    assert hidden.pk not in {result["evening"] for row in body["results"]
                             for result in row["evenings"]}, body
    tournament_update(tournament=hidden, published=True)
    season = season_recompute(season_id=season.pk)
    assert [r[0] for r in ranking(season)][0] == "D" and season.evenings == 2


@pytest.fixture
def in_process_tasks(settings):
    before = celery_app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def test_without_a_broker_a_sheet_reaches_the_season_after_commit(
        club, director, members, in_process_tasks, django_capture_on_commit_callbacks):
    a, b, c = members["A"], members["B"], members["C"]
    evening = club_evening_create(club=club, date=day(2), player_ids=[a.pk, b.pk, c.pk],
                                  director=director)
    rnd = round_draw(tournament_id=evening.pk, method="random", seed=3)
    points = {a.pk: 200, b.pk: 100, c.pk: 50}
    with django_capture_on_commit_callbacks(execute=True):
        enter_round(rnd, director, lambda p: score(points[p.pk]))
    season = season_of(club)
    assert season.recomputes >= 1 and not SeasonOutbox.objects.exists()
    assert [r[:3] for r in ranking(season)] == [("A", 1, 200), ("B", 2, 100), ("C", 3, 50)]


def test_the_sweep_publishes_every_pending_season(club, director, members, in_process_tasks):
    play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    assert SeasonOutbox.objects.exists()
    assert sweep_seasons() == 1
    assert not SeasonOutbox.objects.exists() and season_of(club).recomputes == 1


def test_an_evening_no_season_can_hold_still_gets_its_standings(club, director, members):
    evening = play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                                    members["C"]: 50})
    Season.objects.all().delete()
    Tournament.objects.filter(pk=evening.pk).update(date=datetime.date(1000, 1, 1))
    assert standings_recompute(tournament_id=evening.pk).recomputes == 2
    assert not Season.objects.exists()


# ---------------------------------------------------------------- API


def url(club_id, year=2026, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/api/v1/clubs/{club_id}/seasons/{year}/" + (f"?{query}" if query else "")


def test_season_api_etag_and_304(anon_client, club, director, members):
    play_evening(club, director, day(1), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    stale = anon_client.get(url(club.pk, game="skat"))
    assert stale.status_code == 200 and stale.json()["stale"] is True
    season_recompute(season_id=season_of(club).pk)
    first = anon_client.get(url(club.pk, game="skat"))
    body = first.json()
    assert body["stale"] is False and body["evenings"] == 1
    assert [(r["rank"], r["name"], r["score"]) for r in body["results"]] == [
        (1, "A", 100), (2, "B", 60), (3, "C", 50)]
    assert first["ETag"] != stale["ETag"]
    again = anon_client.get(url(club.pk, game="skat"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    play_evening(club, director, day(2), {members["A"]: 100, members["B"]: 60,
                                          members["C"]: 50})
    changed = anon_client.get(url(club.pk, game="skat"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["stale"] is True


def test_season_api_defaults_to_the_clubs_game(anon_client, club):
    body = anon_client.get(url(club.pk)).json()
    assert body["game"] == "skat" and body["results"] == [] and body["stale"] is False


def test_season_api_unknown_club_is_404(anon_client):
    assert anon_client.get(url(999999)).status_code == 404


@pytest.mark.parametrize("year", ["abc", "0", "99999", "-1"])
def test_season_api_bad_year_is_400(anon_client, club, year):
    resp = anon_client.get(url(club.pk, year=year))
    assert resp.status_code == 400 and "year" in resp.json()


def test_season_api_bad_game_is_400(anon_client, club):
    resp = anon_client.get(url(club.pk, game="poker"))
    assert resp.status_code == 400 and "game" in resp.json()


def test_club_admin_changes_how_the_season_counts(director_client, outsider_client, club):
    body = {"best_n": 3, "min_evenings": 4}
    assert outsider_client.put(url(club.pk), body, format="json").status_code == 403
    resp = director_client.put(url(club.pk), body, format="json")
    assert resp.status_code == 200, resp.content
    assert (resp.json()["best_n"], resp.json()["min_evenings"]) == (3, 4)
    bad = director_client.put(url(club.pk), {"best_n": 0, "min_evenings": 1}, format="json")
    assert bad.status_code == 400 and "best_n" in bad.json()
