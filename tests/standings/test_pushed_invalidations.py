"""Invalidations pushed over Redis publish/subscribe: with the listener subscribed, a
poll asks Redis nothing; an invalidation published by another process reaches this one;
when the subscription breaks, polls check the token on Redis again."""

import time
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.recompute import invalidations, snapshots
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.REDIS_URL, reason="publish/subscribe needs Redis "
                       "(the PostgreSQL + Redis pass of .ci/run)"),
]


@pytest.fixture(autouse=True)
def _clean():
    snapshots._snapshots.clear()
    yield
    snapshots._snapshots.clear()


def url(tournament):
    return f"/api/v1/tournaments/{tournament.pk}/standings/"


def until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.01)


def subscribed(tournament) -> None:
    until(lambda: invalidations.seen(tournament.pk) is not None)


def test_a_poll_asks_redis_nothing_while_subscribed(anon_client, short_skat, table,
                                                    django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    computation = invalidations.computation_scope(short_skat.pk)
    count = invalidations.seen(computation)[1]
    anon_client.get(url(short_skat))  # the recompute has committed: its invalidation
    assert invalidations.seen(computation)[1] == count + 1
    first = anon_client.get(url(short_skat))
    echoed()  # its message came back, and was not counted again
    assert invalidations.seen(computation)[1] == count + 1
    with (mock.patch.object(snapshots, "read_tokens", side_effect=AssertionError("Redis")),
          django_assert_num_queries(0)):
        again = anon_client.get(url(short_skat))
        not_modified = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.content == first.content and not_modified.status_code == 304


def echoed() -> None:
    """Wait until every message published so far came back to this process: one more,
    from another client, is heard after them (one channel, in order)."""
    marker = invalidations.table_scope(2**40)
    before = invalidations.seen(marker)
    redis.Redis.from_url(settings.REDIS_URL).publish(
        caches["default"].make_key(invalidations.CHANNEL),
        invalidations.invalidation_message(None, 2**40))
    until(lambda: invalidations.seen(marker) != before)


def test_a_process_counts_its_own_invalidation_once(short_skat):
    subscribed(short_skat)
    before = invalidations.seen(short_skat.pk)
    snapshots.invalidate_now(short_skat.pk)
    assert invalidations.seen(short_skat.pk)[1] == before[1] + 1  # when it made it
    echoed()
    assert invalidations.seen(short_skat.pk)[1] == before[1] + 1  # not at its echo


def test_a_snapshot_whose_counts_moved_is_dropped_without_asking_redis(anon_client,
                                                                       short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    anon_client.get(url(short_skat))
    first = anon_client.get(url(short_skat))
    # another process's invalidation: the token deleted, then the scope published
    cache.delete(snapshots._token_key(short_skat.pk))
    before = invalidations.seen(short_skat.pk)
    redis.Redis.from_url(settings.REDIS_URL).publish(
        caches["default"].make_key(invalidations.CHANNEL),
        invalidations.invalidation_message(short_skat.pk))
    until(lambda: invalidations.seen(short_skat.pk) != before)
    with mock.patch.object(snapshots, "read_tokens", wraps=snapshots.read_tokens) as asked:
        again = anon_client.get(url(short_skat))
    assert not asked.called  # the counts said it: rendered anew without a round trip
    assert again.status_code == 200 and again.content == first.content


def test_an_invalidation_of_another_process_reaches_this_one(anon_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    first = anon_client.get(url(short_skat))
    before = invalidations.seen(short_skat.pk)
    # what another process's invalidate_now does: drop the token, publish the id
    backend = caches["default"]
    cache.delete(snapshots._token_key(short_skat.pk))
    redis.Redis.from_url(settings.REDIS_URL).publish(
        backend.make_key(invalidations.CHANNEL), short_skat.pk)
    until(lambda: invalidations.seen(short_skat.pk) != before)
    view = mock.patch("api.standings.TournamentStandings.get",
                      side_effect=AssertionError("view reached"))
    with view, pytest.raises(AssertionError, match="view reached"):
        anon_client.get(url(short_skat))
    assert anon_client.get(url(short_skat)).content == first.content


def test_a_broken_subscription_falls_back_to_the_token(anon_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    anon_client.get(url(short_skat))
    generation = invalidations.seen(short_skat.pk)[0]
    killer = redis.Redis.from_url(settings.REDIS_URL)
    with mock.patch.object(invalidations, "RETRY_SECONDS", 2):
        killer.client_kill_filter(_type="pubsub")
        until(lambda: invalidations.seen(short_skat.pk) is None)
        # no pushed invalidations now: an expired token sends the poll to the view
        cache.delete(snapshots._token_key(short_skat.pk))
        view = mock.patch("api.standings.TournamentStandings.get",
                          side_effect=AssertionError("view reached"))
        with view, pytest.raises(AssertionError, match="view reached"):
            anon_client.get(url(short_skat))
    # subscribed again: a new generation, counts read before are void
    until(lambda: invalidations.seen(short_skat.pk) is not None)
    assert invalidations.seen(short_skat.pk)[0] > generation


def test_a_snapshot_from_before_the_subscription_is_trusted_once_the_token_confirms_it(
        anon_client, short_skat, table, settings):
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    settings.STANDINGS_PUSH_INVALIDATIONS = False
    first = anon_client.get(url(short_skat))  # remembered without a pushed count
    settings.STANDINGS_PUSH_INVALIDATIONS = True
    assert anon_client.get(url(short_skat)).content == first.content  # the token confirms
    with mock.patch.object(snapshots, "read_tokens", side_effect=AssertionError("Redis")):
        assert anon_client.get(url(short_skat)).content == first.content


def test_a_directors_poll_asks_nothing_until_another_process_pushes_a_change_of_access(
        director, short_skat, table, django_assert_num_queries):
    """While subscribed, a staff token's yes is trusted from memory; a change of access
    published by another process (a token deleted there, a director removed) makes the
    next poll ask the database again — which then says no."""
    from tests.conftest import token_client

    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    client = token_client(director)
    until(lambda: client.get(url(short_skat)) is not None
          and snapshots._access)  # rendered, remembered, and the database said yes
    first = client.get(url(short_skat))
    with django_assert_num_queries(0):
        assert client.get(url(short_skat)).content == first.content
    before = invalidations.seen(invalidations.ACCESS)
    # what another process's commit of a removed director pushes
    type(director).objects.filter(pk=director.pk).update(is_staff=False)
    redis.Redis.from_url(settings.REDIS_URL).publish(
        caches["default"].make_key(invalidations.CHANNEL), invalidations.ACCESS)
    until(lambda: invalidations.seen(invalidations.ACCESS) != before)
    answer = client.get(url(short_skat))
    assert first["ETag"].endswith('-full"')  # the director's answer...
    assert answer.status_code == 200 and not answer["ETag"].endswith('-full"')  # ...no more


def test_a_computation_of_another_process_reaches_the_players_pages_here(
        short_skat, table, django_assert_num_queries):
    """A player's page keeps what it reads besides the standings while the pushed counts
    hold, and the computation's ranks likewise: with nothing pushed it reads nothing; a
    computation another process announces makes it read that computation (two queries)
    and nothing else; a change at the player's table makes it read the rest too."""
    from tournaments.models import Participant
    from tournaments.player_view import personal_overview

    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    token = Participant.objects.filter(seats__table_id=table["id"]).values_list(
        "personal_token", flat=True).first()
    personal_overview(token)  # learns the player's tables
    personal_overview(token)
    with (mock.patch.object(snapshots, "read_tokens", side_effect=AssertionError("Redis")),
          django_assert_num_queries(0)):
        kept = personal_overview(token)
    computation = invalidations.computation_scope(short_skat.pk)
    before = invalidations.seen(computation)
    standings_recompute(tournament_id=short_skat.pk)  # as another process computes it
    with django_assert_num_queries(0):  # not announced yet
        assert personal_overview(token)[1] == kept[1]
    client = redis.Redis.from_url(settings.REDIS_URL)
    channel = caches["default"].make_key(invalidations.CHANNEL)
    # what another process's invalidate_now does: drop the token, publish the scope
    cache.delete(snapshots._token_key(computation))
    client.publish(channel, invalidations.invalidation_message(short_skat.pk,
                                                               computation=True))
    until(lambda: invalidations.seen(computation) != before)
    with django_assert_num_queries(2):  # when computed, and its lists
        again = personal_overview(token)
    assert again[1].body == kept[1].body
    before = invalidations.seen(invalidations.table_scope(table["id"]))
    cache.delete(snapshots._token_key(invalidations.table_scope(table["id"])))
    client.publish(channel, invalidations.invalidation_message(None, table["id"]))
    until(lambda: invalidations.seen(invalidations.table_scope(table["id"])) != before)
    with CaptureQueriesContext(connection) as queries:
        personal_overview(token)
    assert len(queries.captured_queries) > 2


def test_a_render_while_subscribed_is_remembered_without_asking_redis(
        anon_client, short_skat, table, django_assert_num_queries):
    """After a computation every player's poll renders: with the listener subscribed the
    counts read before the render vouch for what it remembers, as they vouch for what is
    served — no round trip for the scopes' tokens, before or after; once the counts
    have vouched for ``TOKEN_SECONDS`` it is rendered again (nothing else to ask)."""
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    anon_client.get(url(short_skat))  # the recompute's invalidation is counted
    no_redis = (mock.patch.object(snapshots, "read_tokens", side_effect=AssertionError),
                mock.patch.object(snapshots, "_tokens", side_effect=AssertionError))
    with no_redis[0], no_redis[1]:
        first = anon_client.get(url(short_skat))
        with django_assert_num_queries(0):
            again = anon_client.get(url(short_skat))
        assert again.content == first.content
        with mock.patch.object(snapshots, "TOKEN_SECONDS", 0), CaptureQueriesContext(
                connection) as queries:
            late = anon_client.get(url(short_skat))
    assert late.status_code == 200 and late.content == first.content
    assert queries.captured_queries  # rendered again, not served from memory


def test_a_snapshot_remembered_on_the_counts_alone_is_not_served_without_them(
        anon_client, short_skat, table):
    """Remembered while subscribed (no tokens), then the subscription is gone: the
    poll cannot confirm it on Redis, so the view answers."""
    standings_recompute(tournament_id=short_skat.pk)
    subscribed(short_skat)
    anon_client.get(url(short_skat))
    anon_client.get(url(short_skat))
    key = next(k for k in snapshots._snapshots if k[0] == "api-standings")
    assert snapshots._snapshots[key].tokens == ()
    with mock.patch.object(invalidations, "seen", return_value=None):
        view = mock.patch("api.standings.TournamentStandings.get",
                          side_effect=AssertionError("view reached"))
        with view, pytest.raises(AssertionError, match="view reached"):
            anon_client.get(url(short_skat))
