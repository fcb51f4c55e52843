"""The standings cache's one owner: freshness (``etag``), the cached rendered results
(``results``), invalidation (``invalidate``, once per change, after its commit) and the
pollers' snapshots — nothing else decides whether a standings answer is current.

Polling the public standings at the cost of a static file:
``StandingsSnapshotMiddleware`` (early in ``MIDDLEWARE``, right after WhiteNoise) answers
the GETs of the views that declare ``standings_snapshots`` (the API's
``/api/v1/tournaments/<id>/standings/[?round=N]``, found by resolving the path against
the URLconf, so no pattern is written twice) from bytes it keeps in process
memory. Every answer the view renders for a published tournament is remembered with
what the poll read before the view's first database read: the count of invalidations
pushed to this process (``invalidations``: while its listener is subscribed, the
snapshot is served as long as no invalidation of its tournament arrived since, with no
Redis round trip at all) and the tournament's *token* on Redis (otherwise the snapshot is
served only while the cache still holds that token: one look-up per poll).

``invalidate`` deletes the token and pushes an invalidation once the transaction that
changes the answer commits: a sheet change (``stale``, via ``outbox.sheet_changed``), a
finished recompute, and any save or delete of a ``Tournament`` (signal: publish,
unpublish, finish, reopen). A poll racing the change read the token before its first
database read, so what it remembers is dropped by the invalidation after the commit.
A new token is drawn at the next view render. Tokens expire after
``TOKEN_SECONDS``, and a snapshot is trusted without the token for as long after the
view or the token last confirmed it, which bounds what no invalidation covers (a
player's new name, an invalidation lost while Redis was down). Anything unusual — a
client with credentials or a session cookie, another query string, a cache error, no
snapshot — falls through to the view.

Redis is reached through ``connection`` (redis-py from ``REDIS_URL``) where Django's
cache API is too slow (the token on every poll) or has no call (publish/subscribe).
"""

from __future__ import annotations

import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse
from django.urls import Resolver404, get_urlconf, resolve

from tournaments.bounds import round_number
from tournaments.conditional import precondition_answer
from tournaments.recompute import connection, invalidations
from tournaments.selectors import standings_version

log = logging.getLogger(__name__)

TOKEN_SECONDS = 120
# a view's 304 may re-tag a remembered answer with the same ETag for this long after it
# was rendered (ETags do not cover players' names)
RETAG_SECONDS = 600
MAX_SNAPSHOTS = 256
RESULTS_SECONDS = 120
# headers of the view's answer that describe a request, not the standings
_DROP_HEADERS = {"content-language", "set-cookie"}

# (tournament, round) -> (token, ETag, body, headers, rendered at, invalidations seen,
# confirmed by the view at)
_snapshots: dict[tuple[int, int], tuple] = {}
_lock = threading.Lock()
# invalidations made by this process (observability; tests count them)
_made = {"invalidations": 0}


def forget_all() -> None:
    """Drop every snapshot this process holds (a test's fresh start: SQLite gives the ids of
    a rolled-back test's tournaments out again)."""
    with _lock:
        _snapshots.clear()


def _token_key(tournament_id: int) -> str:
    return f"standings:token:{tournament_id}"


def read_token(tournament_id: int) -> int | None:
    """The tournament's token as the middleware reads it, on every poll.

    On Redis straight through the owner's client: Django's ``cache.get`` builds a new
    client per call, half the cost of a poll. Tokens are ints, which Django's Redis
    serializer stores as plain digits."""
    client = connection.client()
    if client is None:
        return cache.get(_token_key(tournament_id))
    raw = client.get(connection.key(_token_key(tournament_id)))
    return int(raw) if raw is not None and raw.isdigit() else None


def current_token(tournament_id: int) -> int | None:
    """The tournament's token, drawn afresh when there is none; None when the cache fails.

    Read before the view's first database read, so the answer it tags can only be older
    than an invalidation that deleted this token."""
    key = _token_key(tournament_id)
    try:
        token = cache.get(key)
        if token is None:
            cache.add(key, secrets.randbits(62) + 1, TOKEN_SECONDS)
            token = cache.get(key)
        return token
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)
        return None


class Freshness(NamedTuple):
    """What a standings answer of one round is tagged with."""

    etag: str
    computed_at: Any  # when the stored standings were computed; None: never
    pending: int | None  # the newest change not yet in them; None: they are current
    version: str  # the computation, as the cached results are keyed


def etag(tournament, round_number: int) -> Freshness:
    """The one freshness check of a tournament's standings (two indexed look-ups)."""
    computed_at, pending = standings_version(tournament)
    version = f"{computed_at.timestamp() if computed_at else 0}"
    return Freshness(f'"st-{tournament.pk}-{round_number}-{version}-{pending or 0}"',
                     computed_at, pending, version)


def results(tournament_id: int, round_number: int, version: str,
            build: Callable[[], bytes]) -> bytes:
    """The rendered results of one computation (``version``), from the cache when it
    holds that computation's, else ``build()`` (stored for the next poll)."""
    key = f"standings:results:{tournament_id}:{round_number}"
    try:
        cached = cache.get(key)
    except Exception:  # the cache is an optimisation; Redis down must not fail a read
        log.warning("standings cache unavailable", exc_info=True)
        cached = None
    if cached is not None and cached[0] == version:
        return cached[1]
    value = build()
    try:
        cache.set(key, (version, value), RESULTS_SECONDS)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)
    return value


def invalidation_count() -> int:
    """How many invalidations this process has made (observability)."""
    return _made["invalidations"]


def invalidate_now(tournament_id: int) -> None:
    with _lock:
        _made["invalidations"] += 1
    invalidations.bump(tournament_id)
    try:
        cache.delete(_token_key(tournament_id))
        invalidations.publish(tournament_id)
    except Exception:  # bounded by TOKEN_SECONDS
        log.warning("standings snapshot of %s not invalidated", tournament_id, exc_info=True)
    with _lock:
        for key in [k for k in _snapshots if k[0] == tournament_id]:
            _snapshots.pop(key, None)


def invalidate(tournament_id: int) -> None:
    """Drop the tournament's snapshots once the current transaction commits (at once
    outside one). Before the commit every poll still reads the old answer, which is the
    current one; a poll racing the commit read its token before its database read, so the
    invalidation after the commit drops what it remembers."""
    transaction.on_commit(functools.partial(invalidate_now, tournament_id), robust=True)


def _tournament_saved(sender, instance, **kwargs) -> None:
    invalidate(instance.pk)


post_save.connect(_tournament_saved, sender="tournaments.Tournament",
                  dispatch_uid="snapshots.tournament_saved")
post_delete.connect(_tournament_saved, sender="tournaments.Tournament",
                    dispatch_uid="snapshots.tournament_deleted")


def mark(response: HttpResponse, tournament_id: int, round_number: int, token: int | None,
         published: bool) -> HttpResponse:
    """Let the middleware remember this answer (a 200 of a published tournament), or
    re-tag the answer it remembered with the same ETag (a 304)."""
    if token is not None and published:
        response._standings_snapshot = (tournament_id, round_number, token)
    return response


def _round_of(query: str) -> int | None:
    """0 for no query, N for exactly ``round=N`` within the bound; else None (the view
    answers: another query, or a refusal)."""
    if query == "":
        return 0
    name, _eq, raw = query.partition("=")
    return round_number(raw) if name == "round" and _eq else None


@functools.lru_cache(maxsize=1024)
def _snapshot_tournament(path: str, urlconf) -> int | None:
    """The tournament whose standings ``path`` asks for, when its view serves snapshots
    (``standings_snapshots``); None for any other path. Resolved once per path."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    view = getattr(match.func, "view_class", match.func)
    if not getattr(view, "standings_snapshots", False):
        return None
    return match.kwargs.get("tournament_id")


class StandingsSnapshotMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        tournament_id = (_snapshot_tournament(request.path_info, get_urlconf())
                         if request.method == "GET" else None)
        if tournament_id is None:
            return self.get_response(request)
        meta = request.META
        round_number = _round_of(meta.get("QUERY_STRING", ""))
        plain = (round_number is not None and "HTTP_AUTHORIZATION" not in meta
                 and settings.SESSION_COOKIE_NAME not in request.COOKIES)
        if not plain:
            return self.get_response(request)
        key = (tournament_id, round_number)
        seen = invalidations.seen(key[0])
        answer = self._from_snapshot(request, key, seen)
        if answer is not None:
            return answer
        response = self.get_response(request)
        self._remember(key, response, seen)
        return response

    def _from_snapshot(self, request, key, seen):
        snapshot = _snapshots.get(key)
        if snapshot is None:
            return None
        token, etag, body, headers, _rendered, then, confirmed = snapshot
        pushed = (seen is not None and then == seen
                  and time.monotonic() - confirmed < TOKEN_SECONDS)
        if not pushed:
            try:
                current = read_token(key[0])
            except Exception:
                log.warning("standings cache unavailable", exc_info=True)
                return None
            if current != token:  # kept: a 304 of the view may re-tag it
                return None
            if seen is not None:  # unchanged since ``seen`` was read: trusted from now on
                with _lock:
                    if _snapshots.get(key) is snapshot:
                        _snapshots[key] = (*snapshot[:5], seen, time.monotonic())
        # RFC 9110 preconditions as the view applies them (weak tags, lists, "*")
        conditional = precondition_answer(request, etag, {"Cache-Control": "no-cache"})
        if conditional is not None:
            if conditional.status_code != 304:
                return None  # a failed If-Match: the view answers it
            return conditional
        response = HttpResponse(body, content_type="application/json")
        for name, value in headers:
            response[name] = value
        return response

    def _remember(self, key, response, seen) -> None:
        marked = getattr(response, "_standings_snapshot", None)
        if marked is None or marked[:2] != key or response.cookies or response.streaming:
            return
        now = time.monotonic()
        if response.status_code == 304:
            with _lock:
                old = _snapshots.get(key)
                if (old is not None and old[1] == response.get("ETag")
                        and now - old[4] < RETAG_SECONDS):
                    _snapshots[key] = (marked[2], *old[1:5], seen, now)
            return
        if response.status_code != 200:
            return
        headers = tuple((k, v) for k, v in response.items()
                        if k.lower() not in _DROP_HEADERS)
        with _lock:
            if len(_snapshots) >= MAX_SNAPSHOTS:
                _snapshots.clear()
            _snapshots[key] = (marked[2], response["ETag"], response.content, headers, now,
                               seen, now)
