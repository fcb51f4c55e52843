"""The API's standings as a poller sees them (``tournaments.freshness``): a 304 while
nothing it shows changed, a new answer after every committed change that alters it
(a sheet change, a recompute), and publish/unpublish or a deletion at the next request.
An anonymous reader's answer of a published tournament may be kept by a shared cache
for two seconds; a director's and a hidden tournament's never."""

from unittest import mock

import pytest
from django.core.cache import cache

from tests.standings.test_standings_fast import WIN, enter, url
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services.entries import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """Each change here counts as committed (its versions bumped) by the next request."""

def test_a_poll_is_answered_304_while_nothing_changed(anon_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    first = anon_client.get(url(short_skat))
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    assert first["Cache-Control"] == "public, max-age=2"
    assert first.json()["stale"] is False
    again = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert again["Cache-Control"] == "public, max-age=2"
    round1 = anon_client.get(url(short_skat, "?round=1"))
    assert round1.json()["round"] == 1 and round1["ETag"] != first["ETag"]


def test_a_sheet_change_makes_it_stale(anon_client, director_client, short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    first = anon_client.get(url(short_skat))
    enter(director_client, table, [WIN])
    changed = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["stale"] is True
    assert changed["ETag"] != first["ETag"]


def test_a_recompute_refreshes_it(anon_client, director_client, short_skat, table):
    enter(director_client, table, [WIN])
    stale = anon_client.get(url(short_skat))
    assert stale.json()["stale"] is True
    standings_recompute(tournament_id=short_skat.pk)
    fresh = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=stale["ETag"])
    assert fresh.status_code == 200
    assert fresh.json()["stale"] is False and fresh.json()["results"][0]["score"] == 74


@pytest.mark.parametrize("how", ["tournament_update", "save"])
def test_unpublishing_hides_it_at_once(anon_client, short_skat, table, how):
    standings_recompute(tournament_id=short_skat.pk)
    etag = anon_client.get(url(short_skat))["ETag"]
    if how == "save":
        short_skat.published = False
        short_skat.save()
    else:
        tournament_update(tournament=short_skat, published=False)
    assert anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=etag).status_code == 404
    tournament_update(tournament=short_skat, published=True)
    assert anon_client.get(url(short_skat)).status_code == 200


def test_a_deleted_tournament_is_gone(anon_client, tournament):
    tournament_update(tournament=tournament, published=True)
    path = url(tournament)
    etag = anon_client.get(path)["ETag"]
    tournament.delete()
    assert anon_client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_hidden_tournament_is_never_kept(anon_client, director_client, short_skat, table):
    short_skat.published = False
    short_skat.save()
    hidden = director_client.get(url(short_skat))
    assert hidden.status_code == 200 and hidden["Cache-Control"] == "private, no-store"
    assert anon_client.get(url(short_skat)).status_code == 404


def test_the_directors_answer_is_private(anon_client, director_client, short_skat, table):
    public = anon_client.get(url(short_skat))
    full = director_client.get(url(short_skat))
    assert full["Cache-Control"] == "private, no-cache"
    assert "Authorization" in full["Vary"]
    assert full["ETag"] != public["ETag"]
    again = director_client.get(url(short_skat), HTTP_IF_NONE_MATCH=full["ETag"])
    assert again.status_code == 304 and again["Cache-Control"] == "private, no-cache"


def test_bad_queries_and_credentials_are_refused(anon_client, short_skat, table):
    assert anon_client.get(url(short_skat), HTTP_AUTHORIZATION="Token nonsense"
                           ).status_code == 401
    assert anon_client.get(url(short_skat, "?round=01")).json()["round"] == 1
    assert anon_client.get(url(short_skat, "?round=0")).status_code == 400
    assert anon_client.get(url(short_skat, "?round=99999")).status_code == 400


def test_without_the_cache_every_poll_is_answered_and_kept_by_nobody(anon_client, short_skat,
                                                                     table):
    first = anon_client.get(url(short_skat))
    with mock.patch.object(cache, "get_many", side_effect=ConnectionError):
        broken = anon_client.get(url(short_skat), HTTP_IF_NONE_MATCH=first["ETag"])
    assert broken.status_code == 200 and broken.content == first.content
    assert broken["Cache-Control"] == "private, no-store" and not broken.has_header("ETag")


def test_a_scope_never_seen_gets_a_version_that_holds_until_a_bump():
    from tournaments import freshness

    scopes = [freshness.table(10**9 + 7), freshness.calls(10**9 + 7)]
    first = freshness.versions(scopes)
    assert first is not None and len(set(first)) == 2 and all(first)
    assert freshness.versions(scopes) == first
    assert freshness.versions(scopes[:1]) == first[:1]
    cache.set(f"fresh:{scopes[1]}", "another", None)  # written by another process first
    assert freshness.versions(reversed(scopes)) == ("another", first[0])
    freshness.bump_now(scopes[:1])
    changed = freshness.versions(scopes)
    assert changed[0] != first[0] and changed[1] == "another"
    cache.delete_many([f"fresh:{scope}" for scope in scopes])
