"""The pollers' fast path: StandingsSnapshotMiddleware answers from process memory only
while the tournament's token is unchanged, and every change that alters the answer drops
the token: a sheet change, a recompute, publish/unpublish, any save or delete."""

from unittest import mock

import pytest
from django.core.cache import cache

from tournaments.recompute import snapshots
from tournaments.recompute.outbox import sheet_changed
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services.entries import tournament_update

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}  # +24


@pytest.fixture(autouse=True)
def _clean():
    # no cache.clear(): on Redis that is FLUSHDB of a database others may share; a new
    # tournament's save drops its token, and cached results carry their computation
    snapshots._snapshots.clear()
    yield
    snapshots._snapshots.clear()


def url(tournament, query=""):
    return f"/api/v1/tournaments/{tournament.pk}/standings/{query}"


def enter(client, table, deals):
    for number, deal in enumerate(deals, start=1):
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **deal},
                           format="json")
        assert resp.status_code == 201, resp.content


def served_from_snapshot(client, django_assert_num_queries, path, **headers):
    with django_assert_num_queries(0):
        return client.get(path, **headers)


def test_a_poll_is_answered_from_the_snapshot(anon_client, short_skat, table,
                                              django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    assert snapshots.read_tokens((short_skat.pk,)) == (None,)
    first = anon_client.get(url(short_skat))
    again = served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat))
    assert again.status_code == 200
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert snapshots.read_tokens((short_skat.pk,)) == (snapshots.current_token(
        short_skat.pk),)
    assert again["Content-Type"] == "application/json"
    assert again["Cache-Control"] == "no-cache"
    assert again.json()["stale"] is False
    not_modified = served_from_snapshot(anon_client, django_assert_num_queries,
                                        url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304 and not_modified["ETag"] == first["ETag"]
    round1 = anon_client.get(url(short_skat, "?round=1"))
    assert round1.json()["round"] == 1
    assert served_from_snapshot(anon_client, django_assert_num_queries,
                                url(short_skat, "?round=1")).content == round1.content


def test_a_sheet_change_makes_it_stale(anon_client, director_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    first = anon_client.get(url(short_skat))
    anon_client.get(url(short_skat))
    enter(director_client, table, [WIN])
    changed = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["stale"] is True
    assert changed["ETag"] != first["ETag"]


def test_the_invalidation_after_commit_drops_a_snapshot_taken_before_it(
        anon_client, short_skat, table, django_capture_on_commit_callbacks,
        django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    with mock.patch("tournaments.recompute.outbox.schedule_standings"):
        with django_capture_on_commit_callbacks() as callbacks:
            sheet_changed(short_skat.pk)
            # a poll racing the change: its snapshot may predate the commit
            anon_client.get(url(short_skat))
            served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat))
        for callback in callbacks:  # the commit
            callback()
    with pytest.raises(pytest.fail.Exception):  # the view ran
        served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat))
    assert anon_client.get(url(short_skat)).json()["stale"] is True


def test_a_recompute_refreshes_it(anon_client, director_client, short_skat, table):
    enter(director_client, table, [WIN])
    stale = anon_client.get(url(short_skat)).json()
    assert anon_client.get(url(short_skat)).json() == stale and stale["stale"] is True
    standings_recompute(tournament_id=short_skat.pk)
    fresh = anon_client.get(url(short_skat)).json()
    assert fresh["stale"] is False and fresh["results"][0]["score"] == 74


@pytest.mark.parametrize("how", ["tournament_update", "save"])
def test_unpublishing_hides_it_at_once(anon_client, short_skat, table, how):
    standings_recompute(tournament_id=short_skat.pk)
    anon_client.get(url(short_skat))
    assert anon_client.get(url(short_skat)).status_code == 200
    if how == "save":
        short_skat.published = False
        short_skat.save()
    else:
        tournament_update(tournament=short_skat, published=False)
    assert anon_client.get(url(short_skat)).status_code == 404
    assert anon_client.get(url(short_skat)).status_code == 404
    tournament_update(tournament=short_skat, published=True)
    assert anon_client.get(url(short_skat)).status_code == 200


def test_a_deleted_tournament_is_gone(anon_client, tournament):
    tournament_update(tournament=tournament, published=True)
    path = url(tournament)
    anon_client.get(path)
    assert anon_client.get(path).status_code == 200
    tournament.delete()
    assert anon_client.get(path).status_code == 404


def test_unpublished_standings_are_never_remembered(anon_client, director_client,
                                                    short_skat, table):
    short_skat.published = False
    short_skat.save()
    assert director_client.get(url(short_skat)).status_code == 200
    assert anon_client.get(url(short_skat)).status_code == 404
    assert not snapshots._snapshots


def test_credentials_and_unusual_queries_reach_the_view(anon_client, director_client,
                                                        short_skat, table,
                                                        django_assert_num_queries):
    anon_client.get(url(short_skat))
    with django_assert_num_queries(0):
        anon_client.get(url(short_skat))
    bad = anon_client.get(url(short_skat), HTTP_AUTHORIZATION="Token nonsense")
    assert bad.status_code == 401
    assert director_client.get(url(short_skat)).status_code == 200
    assert anon_client.get(url(short_skat, "?round=01")).json()["round"] == 1
    assert anon_client.get(url(short_skat, "?round=0")).status_code == 400
    assert anon_client.get(url(short_skat, "?round=99999")).status_code == 400
    anon_client.cookies["sessionid"] = "whatever"
    with pytest.raises(pytest.fail.Exception):  # the view ran
        served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat))


def test_without_the_token_or_the_cache_the_view_answers(anon_client, short_skat, table,
                                                         settings):
    settings.STANDINGS_PUSH_INVALIDATIONS = False  # the token is what is checked
    first = anon_client.get(url(short_skat))
    cache.delete(snapshots._token_key(short_skat.pk))  # expired
    view = mock.patch("api.standings.TournamentStandings.get",
                      side_effect=AssertionError("view reached"))
    with view, pytest.raises(AssertionError, match="view reached"):
        anon_client.get(url(short_skat))
    anon_client.get(url(short_skat))
    with (mock.patch.object(snapshots, "read_tokens", side_effect=ConnectionError),
          mock.patch.object(snapshots.cache, "get", side_effect=ConnectionError)):
        broken = anon_client.get(url(short_skat))
    assert broken.status_code == 200 and broken.content == first.content


def test_a_304_of_the_view_renews_the_snapshot(anon_client, director_client, short_skat,
                                               table, django_assert_num_queries, settings):
    settings.STANDINGS_PUSH_INVALIDATIONS = False  # the token is what is checked
    standings_recompute(tournament_id=short_skat.pk)
    first = anon_client.get(url(short_skat))
    etag = first["ETag"]
    cache.delete(snapshots._token_key(short_skat.pk))  # the token expired
    with pytest.raises(pytest.fail.Exception):  # the view answers
        served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat),
                             HTTP_IF_NONE_MATCH=etag)
    assert served_from_snapshot(anon_client, django_assert_num_queries, url(short_skat),
                                HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert served_from_snapshot(anon_client, django_assert_num_queries,
                                url(short_skat)).content == first.content
    enter(director_client, table, [WIN])  # a change: a new ETag, never re-tagged
    changed = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["stale"] is True
