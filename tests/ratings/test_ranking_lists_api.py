"""Ranking lists through the API as api.md writes them (games.md §10.2)."""

import datetime

import pytest

from ratings.list_models import RankingList
from tests.factories import ClubFactory
from tests.ratings.list_helpers import played, players

URL = "/api/v1/clubs/{}/ranking-lists/"
BODY = {"name": "Jahresrangliste 2026", "game": "skat", "first": "2026-01-01",
        "last": "2026-12-31"}


@pytest.fixture
def three_events(club):
    """Three published Skat tournaments of the club in 2026 (and one that must not
    count: unpublished; one of 2025; one of another game)."""
    people = players(club, 4)
    a, b, c, d = people
    played(club, [a, b, c, d], [900, 800, 800, 100], date=datetime.date(2026, 2, 1))
    played(club, [a, b, c], [100, 500, 300], date=datetime.date(2026, 3, 1))
    played(club, [b, c, d], [10, 20, 30], date=datetime.date(2026, 4, 1))
    played(club, [d, a], [10, 20], date=datetime.date(2026, 5, 1), published=False)
    played(club, [d, a], [10, 20], date=datetime.date(2025, 5, 1))
    played(club, [d, a], [10, 20], date=datetime.date(2026, 5, 1), game="schafkopf")
    return people


def test_director_creates_a_list_and_anyone_reads_its_results(director_client, anon_client,
                                                               club, three_events):
    a, b, c, d = three_events
    resp = director_client.post(URL.format(club.pk), {**BODY, "best_n": 2}, format="json")
    assert resp.status_code == 201, resp.content
    rid = resp.json()["id"]
    got = anon_client.get(f"/api/v1/ranking-lists/{rid}/")
    assert got.status_code == 200
    results = got.json()["results"]
    # event 1 (N=4): a 4, b 3, c 3 (tied at 2: best shared place), d 1
    # event 2 (N=3): b 3, c 2, a 1;  event 3 (N=3): d 3, c 2, b 1
    # best 2: a 4+1=5, b 3+3=6, c 3+2=5 (places 2,2), d 1+3=4
    by_player = {r["player"]: r for r in results}
    assert [(r["player"], r["rank"], r["points"]) for r in results] == [
        (b.pk, 1, 6), (a.pk, 2, 5), (c.pk, 3, 5), (d.pk, 4, 4)]
    assert by_player[b.pk]["events"][2] == {
        "tournament": by_player[b.pk]["events"][2]["tournament"], "place": 3, "points": 1,
        "counted": False}
    assert [e["place"] for e in by_player[c.pk]["events"]] == [2, 2, 2]
    assert set(results[0]) >= {"rank", "player", "name", "points", "events"}
    assert len(got.json()["tournaments"]) == 3


def test_points_list_and_min_events(director_client, club, three_events):
    a, b, c, d = three_events
    resp = director_client.post(URL.format(club.pk),
                                {**BODY, "points": [10, 5], "min_events": 3}, format="json")
    assert resp.status_code == 201, resp.content
    results = resp.json()["results"]
    # a: 10 + 0 (two events: unranked); b: 5 + 10 + 0; c: 5 + 5 + 5 (b placed
    # first once: better best place); d: 0 + 10 (unranked)
    assert [(r["player"], r["rank"], r["points"]) for r in results] == [
        (b.pk, 1, 15), (c.pk, 2, 15), (a.pk, None, 10), (d.pk, None, 10)]


def test_the_clubs_list_is_listed_and_another_clubs_tournaments_count_when_named(
        director_client, anon_client, club, three_events):
    other = ClubFactory()
    guest = players(other, 2, prefix="Gast")
    played(other, guest, [5, 1], date=datetime.date(2026, 6, 1))
    resp = director_client.post(URL.format(club.pk), {**BODY, "clubs": [club.pk, other.pk]},
                                format="json")
    assert resp.status_code == 201, resp.content
    assert len(resp.json()["tournaments"]) == 4
    listed = anon_client.get(URL.format(club.pk)).json()
    assert [item["clubs"] for item in listed] == [sorted([club.pk, other.pk])]


@pytest.mark.parametrize("body, field", [
    ({"points": [1, -1]}, "points"),
    ({"points": "feld"}, "points"),
    ({"points": [1.5]}, "points"),
    ({"points": [True]}, "points"),
    ({"points": list(range(201))}, "points"),
    ({"points": {"1": 2}}, "points"),
    ({"best_n": 0}, "best_n"),
    ({"min_events": -1}, "min_events"),
    ({"last": "2025-01-01"}, "last"),
    ({"clubs": [999999]}, "clubs"),
    ({"game": "poker"}, "game"),
    ({"extra": 1}, "extra"),
])
def test_bad_input_is_400_naming_the_field_and_stores_nothing(director_client, club, body,
                                                              field):
    resp = director_client.post(URL.format(club.pk), {**BODY, **body}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    assert field in resp.json()
    assert not RankingList.objects.exists()


def test_only_the_clubs_admins_create_lists(outsider_client, anon_client, club):
    assert outsider_client.post(URL.format(club.pk), BODY, format="json").status_code == 403
    assert anon_client.post(URL.format(club.pk), BODY, format="json").status_code in (401, 403)
    assert not RankingList.objects.exists()


def test_names_follow_the_publication_choice(director_client, anon_client, club,
                                             three_events):
    a = three_events[0]
    a.publication = "initial"
    a.save()
    rid = director_client.post(URL.format(club.pk), BODY, format="json").json()["id"]
    public = {r["player"]: r["name"] for r in
              anon_client.get(f"/api/v1/ranking-lists/{rid}/").json()["results"]}
    staff = {r["player"]: r["name"] for r in
             director_client.get(f"/api/v1/ranking-lists/{rid}/").json()["results"]}
    assert staff[a.pk] == a.name
    assert public[a.pk] != a.name


def test_reading_a_list_costs_the_same_queries_for_more_events(
        director_client, anon_client, club, three_events, django_assert_max_num_queries):
    rid = director_client.post(URL.format(club.pk), BODY, format="json").json()["id"]
    with django_assert_max_num_queries(8):
        anon_client.get(f"/api/v1/ranking-lists/{rid}/")
    for month in range(6, 12):
        played(club, players(club, 5, prefix=f"M{month}"), [5, 4, 3, 2, 1],
               date=datetime.date(2026, month, 1))
    with django_assert_max_num_queries(8):
        assert len(anon_client.get(f"/api/v1/ranking-lists/{rid}/").json()["results"]) > 30


def test_a_tournament_without_a_date_counts_on_the_day_it_was_created(director_client, club):
    from django.utils import timezone

    from tournaments.models import Tournament
    tournament, _people = played(club, players(club, 2), [2, 1])
    Tournament.objects.filter(pk=tournament.pk).update(date=None)
    today = timezone.localdate()
    body = {**BODY, "first": str(today.replace(month=1, day=1)),
            "last": str(today.replace(month=12, day=31))}
    resp = director_client.post(URL.format(club.pk), body, format="json")
    assert resp.status_code == 201, resp.content
    assert [t["id"] for t in resp.json()["tournaments"]] == [tournament.pk]
    assert len(resp.json()["results"]) == 2
