"""A player's statistics stored and answered (games.md §11, api.md "Insight"): kept
current by the re-rating through the ratings' outbox, equal to a full recompute, and read
by anyone from published results, by the player and his club from all."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ratings.insight_models import SheetStat
from ratings.services import ratings_recompute
from tests.factories import PlayerFactory, StaffFactory
from tests.ratings.helpers import GRAND_LOST, SUIT_WON, day, dealt_event, play_event, seat_player
from tournaments.models import Deal
from tournaments.services import Actor, deal_correct

pytestmark = pytest.mark.django_db

@pytest.fixture
def players(club):
    return [PlayerFactory(club=club) for _n in range(4)]


def stats_rows(game="skat"):
    return list(SheetStat.objects.filter(game=game).order_by("key", "player_id").values_list(
        "key", "player_id", "tournament_id", "date", "score", "placement",
        "expected_placement", "deals", "by_role", "by_kind"))


def get(client, player_id, **query):
    return client.get(f"/api/v1/players/{player_id}/stats/", {"game": "skat", **query})


def test_a_finished_sheet_is_counted_from_its_deals(boss, players):
    _tournament, table = dealt_event(boss, players, date=day(0))
    ratings_recompute(game="skat")
    two, three = seat_player(table, 2), seat_player(table, 3)
    answer = get(APIClient(), two).json()
    assert answer["sheets"] == 1 and answer["deals"] == 1
    assert answer["by_kind"] == {"suit": {"declared": 1, "won": 1, "lost": 0}}
    assert answer["by_role"] == {"declarer": {"deals": 1, "won": 1, "lost": 0}}
    assert answer["placement_avg"] == 1 and answer["expected_placement_avg"] == 2.5
    assert answer["performance"] == 1.5
    assert get(APIClient(), three).json()["by_kind"] == {
        "grand": {"declared": 1, "won": 0, "lost": 1}}
    four = get(APIClient(), seat_player(table, 4)).json()
    assert four["deals"] == 2
    assert four["by_role"] == {"defender": {"deals": 2, "won": 1, "lost": 1}}
    assert answer["series"][0]["date"] == day(0).isoformat()


def test_a_correction_restates_the_statistics_as_a_full_recompute_would(boss, players):
    _first, table = dealt_event(boss, players, date=day(0))
    dealt_event(boss, players, date=day(1), records=(SUIT_WON, {**GRAND_LOST, "won": True}))
    ratings_recompute(game="skat")
    deal = Deal.objects.get(table=table, number=1)
    deal_correct(table_id=table.pk, number=1, record={**SUIT_WON, "won": False},
                 actor=Actor(user=boss), if_match=deal.etag)
    ratings_recompute(game="skat")
    incremental = stats_rows()
    answer = get(APIClient(), seat_player(table, 2)).json()
    assert answer["sheets"] == 2
    assert answer["by_kind"]["suit"]["lost"] >= 1
    ratings_recompute(game="skat", full=True)
    assert stats_rows() == incremental


@pytest.mark.django_db(transaction=True)
def test_the_statistics_follow_a_finished_sheet_through_the_outbox(in_process_tasks, club):
    """The real path: ending the sheet commits, the re-rating task runs, the rows are
    there without anyone asking for a recompute."""
    boss = StaffFactory(is_superuser=True)
    players = [PlayerFactory(club=club) for _n in range(4)]
    _tournament, table = dealt_event(boss, players, date=day(0))
    assert SheetStat.objects.filter(player_id=seat_player(table, 4), deals=2).exists()


def test_the_public_sees_published_results_only_and_the_club_sees_all(boss, players, club):
    dealt_event(boss, players, date=day(0))
    _hidden, table = dealt_event(boss, players, date=day(1), published=False)
    ratings_recompute(game="skat")
    player = seat_player(table, 2)
    assert get(APIClient(), player).json()["sheets"] == 1
    staff = APIClient()
    staff.force_authenticate(boss)
    assert get(staff, player).json()["sheets"] == 2
    loner = PlayerFactory(club=club)
    dealt_event(boss, [loner, *players[:3]], date=day(2), published=False)
    ratings_recompute(game="skat")
    assert get(APIClient(), loner.pk).status_code == 404


def test_a_date_range_narrows_the_sheets(boss, players):
    for n in range(3):
        dealt_event(boss, players, date=day(n))
    ratings_recompute(game="skat")
    player = players[0].pk
    answer = get(APIClient(), player, **{"from": day(1).isoformat(), "to": day(1).isoformat()})
    assert answer.json()["sheets"] == 1
    assert answer.json()["series"][0]["date"] == day(1).isoformat()
    assert get(APIClient(), player, **{"from": day(1).isoformat()}).json()["sheets"] == 2


@pytest.mark.parametrize(("query", "field"), [
    ({"game": ""}, "game"), ({"game": "poker"}, "game"), ({"from": "2026-13-01"}, "from"),
    ({"to": "yesterday"}, "to"), ({"from": "2026-03-02", "to": "2026-03-01"}, "to"),
    ({"from": "２０２６-03-01"}, "from"),
])
def test_bad_input_is_a_400_naming_the_parameter(boss, players, query, field):
    dealt_event(boss, players, date=day(0))
    answer = APIClient().get(f"/api/v1/players/{players[0].pk}/stats/",
                             {"game": "skat", **query})
    assert answer.status_code == 400
    assert field in answer.json()["errors"] or field in str(answer.json())


def test_a_missing_game_is_a_400_and_an_unknown_player_a_404(boss, players):
    dealt_event(boss, players, date=day(0))
    answer = APIClient().get(f"/api/v1/players/{players[0].pk}/stats/")
    assert answer.status_code == 400 and "game" in str(answer.json())
    assert APIClient().get("/api/v1/players/999999/stats/", {"game": "skat"}).status_code == 404


def test_the_etag_answers_304_until_a_sheet_changes_the_game(boss, players):
    dealt_event(boss, players, date=day(0))
    ratings_recompute(game="skat")
    first = get(APIClient(), players[0].pk)
    etag = first["ETag"]
    again = APIClient().get(f"/api/v1/players/{players[0].pk}/stats/", {"game": "skat"},
                            HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    dealt_event(boss, players, date=day(1))
    ratings_recompute(game="skat")
    moved = APIClient().get(f"/api/v1/players/{players[0].pk}/stats/", {"game": "skat"},
                            HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved.json()["sheets"] == 2


def test_the_player_reads_his_own_statistics_with_his_token(boss, players):
    # a personal token is valid around its event's day
    tournament, table = dealt_event(boss, players, date=timezone.localdate(), published=False)
    ratings_recompute(game="skat")
    mine = table.seats.get(seat=2).participant
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Player {mine.personal_token}")
    answer = phone.get("/api/v1/me/stats/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["game"] == tournament.game and answer.json()["sheets"] == 1
    assert answer["ETag"]
    assert APIClient().get("/api/v1/me/stats/").status_code == 401


def test_a_summary_sheet_counts_its_placement_but_no_deals(boss, players):
    play_event(boss, players, date=day(0), scores={p.pk: 100 - 10 * i
                                                   for i, p in enumerate(players)})
    ratings_recompute(game="skat")
    answer = get(APIClient(), players[0].pk).json()
    assert answer["sheets"] == 1 and answer["deals"] == 0
    assert answer["by_kind"] == {} and answer["placement_avg"] == 1


def test_a_database_of_the_last_release_gets_its_statistics_from_the_migration(boss, players):
    """Rated results without statistics (a database of the last release): ratings 0005
    asks for a full re-rating, and the next re-rating fills the rows a full recompute
    writes, the ratings unchanged."""
    import importlib

    from django.apps import apps

    from ratings.models import RatingEntry

    dealt_event(boss, players, date=day(0))
    dealt_event(boss, players, date=day(1), records=(SUIT_WON, {**GRAND_LOST, "won": True}))
    ratings_recompute(game="skat")
    expected = stats_rows()
    history = list(RatingEntry.objects.order_by("key", "player_id").values_list(
        "key", "player_id", "mu", "sigma", "sheets", "rating"))
    SheetStat.objects.all().delete()  # as the last release left it
    migration = importlib.import_module("ratings.migrations.0005_fill_sheet_stats")
    migration.ask_for_a_full_rerating(apps, None)
    migration.ask_for_a_full_rerating(apps, None)  # stats still missing: asked again
    ratings_recompute(game="skat")
    assert stats_rows() == expected
    assert list(RatingEntry.objects.order_by("key", "player_id").values_list(
        "key", "player_id", "mu", "sigma", "sheets", "rating")) == history
    migration.ask_for_a_full_rerating(apps, None)  # filled: nothing asked
    assert ratings_recompute(game="skat").last_rerated == 0
