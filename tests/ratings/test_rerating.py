"""Re-rating a game from its outbox (games.md §10.1 *Input* and *Order*): what counts,
from where an incremental update restarts, and that it always equals a full recompute."""

import io

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import Rating, RatingEntry, RatingOutbox
from ratings.services import ratings_recompute
from ratings.skill import NEW
from ratings.tasks import sweep_ratings
from tests.factories import PlayerFactory, StaffFactory
from tests.ratings.helpers import day, enter, play_event, stored
from tournaments.models import Table
from tournaments.services import Actor, deal_record, sheet_end, tournament_update

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}


@pytest.fixture
def players(club):
    return [PlayerFactory(club=club) for _n in range(8)]


def test_a_submitted_event_rates_every_player_once_per_table(boss, players):
    play_event(boss, players, date=day(0), scores={p.pk: 100 - 10 * i
                                                   for i, p in enumerate(players)})
    ratings_recompute(game="skat")
    ratings = {r.player_id: r for r in Rating.objects.filter(game="skat")}
    assert set(ratings) == {p.pk for p in players}
    assert all(r.sheets == 1 for r in ratings.values())
    best = ratings[players[0].pk]
    assert best.mu > NEW.mu and best.rating == round(1000 + 40 * (best.mu - 3 * best.sigma))


def test_an_open_sheet_counts_for_nothing_and_its_deals_write_no_outbox_row(boss, players):
    tournament = play_event(boss, players[:3], date=day(0), entered=False)
    table = Table.objects.get(round__tournament=tournament)
    before = RatingOutbox.objects.count()
    deal_record(table_id=table.pk, number=1, record=WIN, actor=Actor(user=boss))
    assert RatingOutbox.objects.count() == before
    ratings_recompute(game="skat", full=True)
    assert not Rating.objects.exists()


def test_a_shortened_sheet_counts_the_players_who_played(boss, players, club):
    """One deal at a table of four: the dealer (seat 1) sat out and played nothing."""
    tournament = play_event(boss, players[:4], date=day(0), entered=False)
    table = Table.objects.get(round__tournament=tournament)
    deal_record(table_id=table.pk, number=1, record={**WIN, "declarer": 2},
                actor=Actor(user=boss))
    sheet_end(table_id=table.pk, reason="Zeit", actor=Actor(user=boss))
    ratings_recompute(game="skat")
    dealer = table.seats.get(seat=1).participant.player_id
    rated = set(Rating.objects.values_list("player_id", flat=True))
    assert rated == {p.pk for p in players[:4]} - {dealer}


def test_a_correction_rerates_from_its_result_on_and_equals_a_full_recompute(boss, players):
    events = [play_event(boss, players, date=day(n), seed=n) for n in range(3)]
    ratings_recompute(game="skat")
    table = Table.objects.filter(round__tournament=events[1]).order_by("number").first()
    enter(table, boss, bump=3)
    state = ratings_recompute(game="skat")
    later = Table.objects.filter(round__tournament__in=events[1:]).count()
    assert state.last_rerated == later  # from the corrected table on, nothing before
    incremental = stored()
    ratings_recompute(game="skat", full=True)
    assert stored() == incremental


def test_nothing_is_rerated_twice_for_the_same_change(boss, players):
    event = play_event(boss, players, date=day(0))
    assert ratings_recompute(game="skat").last_rerated == 2
    assert ratings_recompute(game="skat").last_rerated == 0  # no pending change
    table = Table.objects.filter(round__tournament=event).first()
    enter(table, boss)  # the same totals again: a change that moves nothing
    assert RatingOutbox.objects.exists()
    assert ratings_recompute(game="skat").last_rerated == 0
    assert not RatingOutbox.objects.exists()


def test_a_moved_date_reorders_the_results(boss, players):
    first = play_event(boss, players, date=day(0), seed=1)
    second = play_event(boss, players, date=day(1), seed=2)
    ratings_recompute(game="skat")
    tournament_update(tournament=second, date=day(-1))
    ratings_recompute(game="skat")
    keys = list(RatingEntry.objects.filter(player=players[0]).order_by("key")
                .values_list("result__tournament_id", flat=True))
    assert keys == [second.pk, first.pk]
    incremental = stored()
    ratings_recompute(game="skat", full=True)
    assert stored() == incremental


ops = st.lists(st.one_of(
    st.tuples(st.just("event"), st.integers(0, 6), st.sampled_from([3, 4, 6, 7, 8]), st.booleans(),
              st.integers(0, 50)),
    st.tuples(st.just("correct"), st.integers(0, 30), st.integers(1, 6)),
    st.tuples(st.just("submit"), st.integers(0, 30)),
    st.tuples(st.just("move"), st.integers(0, 30), st.integers(-3, 8)),
), min_size=1, max_size=7)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=ops)
def test_incremental_equals_full_after_any_changes(boss, players, ops):
    """Late events (earlier dates), corrections, sheets submitted late, moved dates: the
    re-rating after each change stores what a full recompute stores."""
    with transaction.atomic():
        events = []
        for op in ops:
            if op[0] == "event":
                _kind, when, size, submit, seed = op
                events.append(play_event(boss, players[:size], date=day(when), seed=seed,
                                         submit=submit))
            elif events and op[0] == "correct":
                tables = list(Table.objects.filter(round__tournament__in=events,
                                                   submitted=True).order_by("pk"))
                if tables:
                    enter(tables[op[1] % len(tables)], boss, bump=op[2])
            elif events and op[0] == "submit":
                tables = list(Table.objects.filter(round__tournament__in=events,
                                                   submitted=False).order_by("pk"))
                if tables:
                    enter(tables[op[1] % len(tables)], boss)
            elif events and op[0] == "move":
                tournament_update(tournament=events[op[1] % len(events)], date=day(op[2]))
            ratings_recompute(game="skat")
        incremental = stored()
        ratings_recompute(game="skat", full=True)
        assert stored() == incremental
        transaction.set_rollback(True)


def test_the_command_recomputes_in_full(boss, players):
    play_event(boss, players, date=day(0))
    ratings_recompute(game="skat")
    expected = stored()
    Rating.objects.all().delete()
    out = io.StringIO()
    call_command("recompute_ratings", "--game", "skat", stdout=out)
    assert "skat: 2 result(s) rated" in out.getvalue()
    assert stored() == expected
    call_command("recompute_ratings", stdout=out)
    assert stored() == expected


@pytest.mark.django_db(transaction=True)
def test_a_submission_rerates_after_its_commit_through_the_task(in_process_tasks, club):
    """The real path: submitting the last sheet commits, the task runs (in process), the
    outbox is emptied and the ratings are there."""
    boss = StaffFactory(is_superuser=True)
    players = [PlayerFactory(club=club) for _n in range(3)]
    play_event(boss, players, date=day(0), scores={p.pk: 100 - i for i, p in
                                                   enumerate(players)})
    assert Rating.objects.filter(game="skat").count() == 3
    assert not RatingOutbox.objects.exists()
    assert sweep_ratings() == 0


@pytest.mark.django_db(transaction=True)
def test_only_a_rerating_of_its_own_commits_without_waiting_for_the_disk(boss, players):
    """Ratings are derived: their own transaction may commit before its WAL is flushed
    (PostgreSQL); a caller's transaction around the re-rating keeps its durability."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    play_event(boss, players, date=day(0))
    relaxed = "SET LOCAL synchronous_commit TO OFF"
    with CaptureQueriesContext(connection) as own:
        ratings_recompute(game="skat")
    with CaptureQueriesContext(connection) as inside, transaction.atomic():
        play_event(boss, players, date=day(1))
        ratings_recompute(game="skat")
    expected = connection.vendor == "postgresql"
    assert any(q["sql"] == relaxed for q in own.captured_queries) is expected
    assert not any(q["sql"] == relaxed for q in inside.captured_queries)
    assert Rating.objects.filter(game="skat", sheets=2).count() == len(players)
