"""Categories (games.md §10.3) and the club ranking (§10.4) through the API."""

import pytest

from tests.factories import ClubFactory
from tests.ratings.list_helpers import played, players
from tournaments.models import Participant, Tournament


@pytest.fixture
def event(club, director):
    """Six players of two clubs (and a guest) played one round; 1 and 3 are Damen."""
    other = ClubFactory(name="Bonn")
    people = players(club, 3) + players(other, 2, prefix="Bonner") + players(None, 1, "Gast")
    tournament, participants = played(
        club, people, [900, 800, 700, 750, 100, 1000], won={0: 5, 1: 6, 2: 4, 3: 1})
    tournament.directors.add(director)
    return tournament, participants, other


def url(tournament, rest=""):
    return f"/api/v1/tournaments/{tournament.pk}/{rest}"


def test_categories_are_set_ticked_and_filter_the_standings(director_client, anon_client,
                                                            event, requests_commit):
    tournament, participants, _other = event
    resp = director_client.patch(url(tournament), {"categories": ["Damen", " Senioren "]},
                                 format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["categories"] == ["Damen", "Senioren"]
    for p in (participants[1], participants[3]):
        resp = director_client.patch(url(tournament, f"participants/{p.pk}/"),
                                     {"categories": ["Damen"]}, format="json")
        assert resp.status_code == 200, resp.content
        assert resp.json()["categories"] == ["Damen"]
    got = anon_client.get(url(tournament, "standings/"), {"category": "Damen"})
    assert got.status_code == 200, got.content
    rows = got.json()["results"]
    assert [(r["participant"], r["rank"]) for r in rows] == [
        (participants[1].pk, 1), (participants[3].pk, 2)]
    assert got.json()["category"] == "Damen"
    # its ETag follows who is in the category
    again = anon_client.get(url(tournament, "standings/"), {"category": "Damen"},
                            HTTP_IF_NONE_MATCH=got["ETag"])
    assert again.status_code == 304
    director_client.patch(url(tournament, f"participants/{participants[0].pk}/"),
                          {"categories": ["Damen"]}, format="json")
    after = anon_client.get(url(tournament, "standings/"), {"category": "Damen"},
                            HTTP_IF_NONE_MATCH=got["ETag"])
    assert after.status_code == 200
    assert [r["rank"] for r in after.json()["results"]] == [1, 2, 3]
    empty = anon_client.get(url(tournament, "standings/"), {"category": "Senioren"})
    assert empty.json()["results"] == []


def test_dropping_a_category_takes_it_from_the_participants(director_client, event):
    tournament, participants, _other = event
    director_client.patch(url(tournament), {"categories": ["Damen", "Jugend"]}, format="json")
    director_client.patch(url(tournament, f"participants/{participants[0].pk}/"),
                          {"categories": ["Jugend", "Damen"]}, format="json")
    assert Participant.objects.get(pk=participants[0].pk).categories == ["Damen", "Jugend"]
    director_client.patch(url(tournament), {"categories": ["Jugend"]}, format="json")
    assert Participant.objects.get(pk=participants[0].pk).categories == ["Jugend"]


@pytest.mark.parametrize("body, field", [
    ({"categories": ["Damen", "Damen"]}, "categories"),
    ({"categories": [""]}, "categories"),
    ({"categories": ["x" * 41]}, "categories"),
    ({"categories": [str(n) for n in range(11)]}, "categories"),
    ({"categories": "Damen"}, "categories"),
    ({"categories": [3]}, "categories"),
    ({"club_ranking_k": 0}, "club_ranking_k"),
    ({"club_ranking_k": 11}, "club_ranking_k"),
])
def test_bad_tournament_options_are_400_naming_the_field(director_client, event, body, field):
    tournament = event[0]
    resp = director_client.patch(url(tournament), body, format="json",
                                 HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    assert field in resp.json()
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert fresh.categories == [] and fresh.club_ranking_k is None


def test_unknown_categories_are_400(director_client, anon_client, event):
    tournament, participants, _other = event
    director_client.patch(url(tournament), {"categories": ["Damen"]}, format="json")
    resp = director_client.patch(url(tournament, f"participants/{participants[0].pk}/"),
                                 {"categories": ["Herren"]}, format="json")
    assert resp.status_code == 400 and "categories" in resp.json()
    assert Participant.objects.get(pk=participants[0].pk).categories == []
    for value in ("Herren", ""):
        got = anon_client.get(url(tournament, "standings/"), {"category": value},
                              HTTP_ACCEPT_LANGUAGE="en")
        assert got.status_code == 400 and "category" in got.json()


def test_club_ranking_sums_the_best_k(director_client, anon_client, event, club):
    tournament, participants, other = event
    empty = anon_client.get(url(tournament, "clubs/standings/")).json()
    assert empty["results"] == []
    resp = director_client.patch(url(tournament), {"club_ranking_k": 2}, format="json")
    assert resp.status_code == 200 and resp.json()["club_ranking_k"] == 2
    got = anon_client.get(url(tournament, "clubs/standings/"))
    assert got.status_code == 200
    results = got.json()["results"]
    # club: 900 + 800 = 1700; Bonn: 750 + 100 = 850; the guest counts for no club
    assert [(r["club"], r["rank"], r["score"]) for r in results] == [
        (club.pk, 1, 1700), (other.pk, 2, 850)]
    assert results[0]["name"] == club.name
    assert [p["participant"] for p in results[0]["players"]] == [
        participants[0].pk, participants[1].pk]
    assert set(results[0]["players"][0]) == {"participant", "name", "score"}
    director_client.patch(url(tournament), {"club_ranking_k": 3}, format="json")
    results = anon_client.get(url(tournament, "clubs/standings/")).json()["results"]
    assert [(r["club"], r["rank"]) for r in results] == [(club.pk, 1), (other.pk, None)]


def test_the_club_at_registration_is_kept_when_the_player_moves(director_client, club):
    from tests.factories import PlayerFactory
    player = PlayerFactory(club=club)
    tournament = Tournament.objects.create(name="T", slug="t-reg", game="skat", club=club)
    tournament.directors.add(*club.admins.all())
    from tournaments.services import participant_add
    participant = participant_add(tournament=tournament, player=player)
    player.club = ClubFactory()
    player.save()
    assert Participant.objects.get(pk=participant.pk).club_id == club.pk


def test_prize_lists_per_category_follow_one_prize_per_player(director_client, event):
    tournament, participants, _other = event
    director_client.patch(url(tournament), {"categories": ["Damen"]}, format="json")
    for p in (participants[0], participants[1]):  # 1st (900) and 2nd (800) overall
        director_client.patch(url(tournament, f"participants/{p.pk}/"),
                              {"categories": ["Damen"]}, format="json")
    body = {"entry_fee_cents": 0, "places_goods": ["Pokal"],
            "categories": {"Damen": {"places_cents": [500]}}}
    resp = director_client.put(url(tournament, "prizes/"), body, format="json")
    assert resp.status_code == 200, resp.content
    damen = resp.json()["category_payouts"][0]
    # the overall winner is the guest (1000): the Damen prize goes to their first
    assert damen["category"] == "Damen"
    assert [(p["participant"], p["amount_cents"]) for p in damen["payouts"]] == [
        (participants[0].pk, 500)]
    director_client.patch(url(tournament), {"one_prize_per_player": True}, format="json")
    body["places_goods"] = ["Pokal", "Buch"]  # now participants[0] wins overall too
    resp = director_client.put(url(tournament, "prizes/"), body, format="json")
    damen = resp.json()["category_payouts"][0]
    assert [(p["participant"], p["amount_cents"]) for p in damen["payouts"]] == [
        (participants[1].pk, 500)]
    bad = director_client.put(url(tournament, "prizes/"),
                              {"entry_fee_cents": 0, "categories": {"Herren": {}}},
                              format="json")
    assert bad.status_code == 400 and "categories" in bad.json()


def test_category_prizes_go_out_in_the_cash_report(director_client, event):
    tournament, participants, _other = event
    director_client.patch(url(tournament), {"categories": ["Damen"]}, format="json")
    director_client.patch(url(tournament, f"participants/{participants[1].pk}/"),
                          {"categories": ["Damen"]}, format="json")
    director_client.put(url(tournament, "prizes/"), {
        "entry_fee_cents": 0, "places_cents": [1000],
        "categories": {"Damen": {"places_cents": [300]}}}, format="json")
    cash = director_client.get(url(tournament, "cash/")).json()
    assert cash["prizes_cents"] == 1300


@pytest.mark.parametrize("size", [4, 40])
def test_club_and_category_standings_cost_the_same_queries_at_any_field(
        anon_client, club, size, django_assert_max_num_queries):
    people = players(club, size // 2) + players(ClubFactory(), size - size // 2, "Gast")
    tournament, participants = played(club, people, list(range(size, 0, -1)))
    Tournament.objects.filter(pk=tournament.pk).update(club_ranking_k=2, categories=["Damen"])
    Participant.objects.filter(pk__in=[p.pk for p in participants[::3]]).update(
        categories=["Damen"])
    with django_assert_max_num_queries(9):
        clubs = anon_client.get(url(tournament, "clubs/standings/")).json()["results"]
    assert [r["rank"] for r in clubs] == [1, 2]
    with django_assert_max_num_queries(9):
        rows = anon_client.get(url(tournament, "standings/"), {"category": "Damen"}).json()
    assert len(rows["results"]) == len(participants[::3])


def test_categories_and_the_club_ranking_travel_with_the_archive(event):
    import copy
    import json

    from archive.export import tournament_export
    from archive.importing import tournament_import
    tournament, participants, _other = event
    Tournament.objects.filter(pk=tournament.pk).update(
        categories=["Damen", "Jugend"], club_ranking_k=2, one_prize_per_player=True)
    Participant.objects.filter(pk=participants[1].pk).update(categories=["Jugend"])
    tournament.refresh_from_db()
    archive = json.loads(json.dumps(tournament_export(tournament=tournament)))
    archive["rounds"], archive["standings"] = [], []  # the helper's table of 6 is no game's
    older = copy.deepcopy(archive)
    for key in ("categories", "club_ranking_k", "one_prize_per_player"):
        del older["tournament"][key]
    for p in older["participants"]:
        del p["categories"]
    archive["tournament"]["slug"] = "kopie"
    copy_ = tournament_import(data=archive)
    assert copy_.categories == ["Damen", "Jugend"] and copy_.club_ranking_k == 2
    assert copy_.one_prize_per_player
    assert copy_.participants.get(start_number=2).categories == ["Jugend"]
    older["tournament"]["slug"] = "alt"
    old = tournament_import(data=older)
    assert old.categories == [] and old.club_ranking_k is None


def test_a_new_tournament_may_bring_its_categories_and_k(director_client, club):
    resp = director_client.post("/api/v1/tournaments/", {
        "name": "Damenpokal", "game": "skat", "club": club.pk,
        "categories": ["Damen", "Gäste"], "club_ranking_k": 4}, format="json")
    assert resp.status_code == 201, resp.content
    assert resp.json()["categories"] == ["Damen", "Gäste"]
    assert resp.json()["club_ranking_k"] == 4
