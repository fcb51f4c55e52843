"""The standings cache's one owner: freshness (``etag``), the cached rendered results
(``results``), invalidation (``invalidate``, once per change, after its commit) and the
pollers' snapshots — nothing else decides whether a standings answer, or a page made of
it, is current.

Polling at the cost of a static file: ``StandingsSnapshotMiddleware`` (early in
``MIDDLEWARE``, right after WhiteNoise) answers the anonymous GETs of the views that
declare a ``snapshot`` (a ``Snapshotted``: the API's standings, the public board, its
standings part and print, the player's own page and its live part — found by resolving
the path against the URLconf, so no pattern is written twice) from bytes it keeps in
process memory, keyed by the view, its URL's arguments, the query (none or
``round=N``) and, for pages, the language the request resolves to (never German to an
English reader).

Each snapshot depends on *scopes* (``invalidations``): everything about its tournament
(any save of the tournament, a draw, a round closed or reopened, a withdrawal, a
publication choice), its computation (a recompute), any sheet of the tournament (the
standings turn stale: the API's answer; a board rendered while current), one table's
sheet (the pages of that table's players: a deal, a correction, a submission, a
confirmation). A view that renders an answer for a published tournament declares its
scopes (``mark``); the middleware remembers the answer with what it read of those
scopes before the view's first database read: the counts of invalidations pushed to
this process while the listener is subscribed (served as long as none of its scopes was
invalidated since, for at most ``TOKEN_SECONDS``, with no Redis round trip, neither when
it is remembered nor when it is served; dropped without one once the counts say one was,
as a process does not count its own invalidations twice), else the scopes' *tokens* on
Redis (served while the cache still holds those tokens, one round trip per poll for all
its scopes). Where the scopes are known only from the view (a
page found by its slug, a player's table found by the token) the first render teaches
them and the next one is remembered.

So a deal at one table of a championship drops the API's standings (``stale`` flips) and
the pages of that table's four players, not the 3,000 others; a board rendered while the
standings were stale survives the following deals and is re-rendered once per
computation.

``invalidate`` deletes the tokens and pushes an invalidation once the transaction that
changes the answer commits. A poll racing the change read the counts and tokens before
its first database read, so what it remembers is dropped by the invalidation after the
commit. New tokens are drawn at the next render. Tokens expire after ``TOKEN_SECONDS``,
and a snapshot is trusted without the tokens for as long after the view or the tokens
last confirmed it, which bounds what no invalidation covers (a player's new name, an
invalidation lost while Redis was down). Anything unusual — a client with credentials or
a session or messages cookie, another query string, a cache error, no snapshot — falls
through to the view. The one kind of credentials answered here is a staff token
(``Authorization: Token``) polling a view that declares a ``staff`` check (the API's
standings): its answer (the director's full names) is remembered for that token alone,
and served only while the check says the token still exists, its user is still active
staff and still directs the tournament. The check asks the database (one indexed query)
unless the listener is subscribed and has heard no change of access
(``invalidations.ACCESS``: a token, a user, a tournament's directors or a club's admins
saved or deleted, pushed after the commit) nor of the tournament since the database's
last yes, at most ``ACCESS_SECONDS`` ago — so a revoked token or a removed director
reads nothing more from the poll after the change is pushed.

A page carrying a form gets a CSRF token of its reader's own (``csrf_token``'s field is
filled in per request, its cookie set as Django would). An answer without one is also
served gzipped to the readers that accept it — every browser: a championship's board
part is a megabyte of HTML. It is compressed once per snapshot, by its first such
reader: a player's live part, rendered anew after nearly every computation, is mostly
read once, by the render's own reader, and so never compressed.

The same scopes keep what a view read of the database in this process's memory
(``kept``, ``keep``, ``memo``): a player's seats, each shown table and the ranks of a
computation — so that the view renders a page the snapshots no longer hold without its
queries when only another part of it changed (a computation drops every player's page;
a deal, its table's four). What one process read of a table after a change it shares with
the others (``shared``, ``share``: on Redis, keyed by the scopes' tokens read before the
read), so that a table is read once per change, not once per process.

Redis is reached through ``connection`` (redis-py from ``REDIS_URL``) where Django's
cache API is too slow (the token on every poll) or has no call (publish/subscribe).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.middleware.gzip import re_accepts_gzip
from django.urls import Resolver404, get_urlconf, resolve
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import get_language_from_request

from tournaments.bounds import round_number
from tournaments.conditional import precondition_answer
from tournaments.recompute import connection, invalidations
from tournaments.recompute.invalidations import (
    computation_scope,
    sheets_scope,
    table_scope,
    tournament_scope,
)
from tournaments.selectors import standings_version

log = logging.getLogger(__name__)

TOKEN_SECONDS = 120
# a view's 304 may re-tag a remembered answer with the same ETag for this long after it
# was rendered (ETags do not cover players' names)
RETAG_SECONDS = 600
# one per page, round and language, and one per polling phone: a championship's players
MAX_SNAPSHOTS = 8192
RESULTS_SECONDS = 120
# a staff poll's permission, once the database said yes, is trusted from memory (while no
# change of access was pushed) for at most this long
ACCESS_SECONDS = 5
# cookies that make an answer someone's own: the view answers
_PRIVATE_COOKIES = (settings.SESSION_COOKIE_NAME, "messages")
# the field ``{% csrf_token %}`` renders; its value is each reader's own
_CSRF_FIELD = re.compile(rb'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{64}(")')
_CSRF_MARK = b"\x00csrf\x00"
_csrf = CsrfViewMiddleware(lambda request: None)
# answers at least this long are also served gzipped, compressed once per snapshot by its
# first reader that accepts it (``_gzipped``): a championship's board part is a megabyte
# of HTML that every phone polls (about 70 kB gzipped); a page with a CSRF token is never
# compressed (BREACH)
GZIP_MIN_BYTES = 1024


@dataclass(frozen=True)
class Snapshotted:
    """What a view declares (``view.snapshot``) to have its anonymous GETs answered from
    the middleware's memory. ``per_language``: the answer is in words, keyed by the
    language the request resolves to. ``scopes``: the scopes read from the URL's
    arguments before the view (the API's standings); None: learnt from the view's
    ``mark``."""

    name: str
    per_language: bool = False
    scopes: Callable[[dict], tuple[str, ...]] | None = None
    # ``staff(token, arguments)``: whether a staff token (``Authorization: Token``) may
    # read the answer that the view gives its holder, asked of the database on every
    # poll that a snapshot answers; None: staff polls always reach the view
    staff: Callable[[str, dict], bool] | None = None


def standings_scopes(tournament_id: int, *, stale: bool = False) -> tuple[str, ...]:
    """An answer made of a tournament's standings: dropped by a recompute and by anything
    about the tournament, and — while it shows them current — by any sheet change."""
    scopes = (tournament_scope(tournament_id), computation_scope(tournament_id))
    return scopes if stale else (*scopes, sheets_scope(tournament_id))


def player_structure_scopes(tournament_id: int, table_ids) -> tuple[str, ...]:
    """What a player's page reads besides the standings (``player_view``): the
    tournament's scope and the sheets of the player's tables."""
    return (tournament_scope(tournament_id), *(table_scope(t) for t in sorted(set(table_ids))))


def player_scopes(tournament_id: int, table_ids) -> tuple[str, ...]:
    """A player's page: what it reads besides the standings, and the computation."""
    return (*player_structure_scopes(tournament_id, table_ids),
            computation_scope(tournament_id))


@dataclass
class _Snapshot:
    scopes: tuple[str, ...]
    tokens: tuple
    etag: str | None
    body: bytes
    headers: tuple
    rendered: float
    seen: tuple | None
    confirmed: float
    csrf: bool
    gzippable: bool = False
    gzipped: bytes | None = None


# (view, URL arguments, query, language) -> _Snapshot
_snapshots: dict[tuple, _Snapshot] = {}
# the same keys -> the scopes the view declared last (for views that learn them)
_hints: dict[tuple, tuple[str, ...]] = {}
# a staff token's snapshot key -> (the counts of access and its tournament, when) of the
# database's last yes (``_staff_may_read``)
_access: dict[tuple, tuple[tuple, float]] = {}
_lock = threading.Lock()
# invalidations made by this process (observability; tests count them)
_made = {"invalidations": 0}


def forget_all() -> None:
    """Drop every snapshot this process holds (a test's fresh start: SQLite gives the ids of
    a rolled-back test's tournaments out again)."""
    with _lock:
        _snapshots.clear()
        _hints.clear()
        _access.clear()
        _memos.clear()
        _ranked.clear()
        _rendered.clear()


def _token_key(scope: int | str) -> str:
    return f"standings:token:{scope}"


def read_tokens(scopes) -> tuple[int | None, ...]:
    """The scopes' tokens as the middleware reads them, in one round trip (a player's
    page has three scopes; a tournament's id names its scope).

    On Redis straight through the owner's client: Django's ``cache.get`` builds a new
    client per call, half the cost of a poll. Tokens are ints, which Django's Redis
    serializer stores as plain digits."""
    client = connection.client()
    if client is None:
        found = cache.get_many([_token_key(scope) for scope in scopes])
        return tuple(found.get(_token_key(scope)) for scope in scopes)
    return _stored_tokens(client.mget([connection.key(_token_key(scope)) for scope in scopes]))


def _stored_tokens(raws) -> tuple[int | None, ...]:
    """Tokens as Redis returns them (plain digits, as Django's serializer stores ints);
    None where there is none."""
    return tuple(int(raw) if raw is not None and raw.isdigit() else None for raw in raws)


def _new_token() -> int:
    return secrets.randbits(62) + 1


def _delete_tokens(scopes, then_publish: str | None = None) -> None:
    """Delete the scopes' tokens, on every invalidation (each deal's POST): straight
    through the owner's client, like ``read_tokens``, not a new cache client per call;
    ``then_publish``: the invalidation's message, published after the deletion in the
    same round trip (a pipeline: Redis runs the two in order)."""
    client = connection.client()
    if client is None:
        cache.delete_many([_token_key(scope) for scope in scopes])
        return
    pipe = client.pipeline(transaction=False)
    keys = [connection.key(_token_key(scope)) for scope in scopes]
    if keys:
        pipe.delete(*keys)
    if then_publish is not None:
        invalidations.publish(then_publish, via=pipe)
    pipe.execute()


def current_token(scope: int | str) -> int | None:
    """The scope's token, drawn afresh when there is none; None when the cache fails.

    Read before the view's first database read, so the answer it tags can only be older
    than an invalidation that deleted this token."""
    key = _token_key(scope)
    try:
        token = cache.get(key)
        if token is None:
            cache.add(key, _new_token(), TOKEN_SECONDS)
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
            build: Callable[[], bytes], *, variant: str = "") -> bytes:
    """The rendered results of one computation (``version``), from the cache when it
    holds that computation's, else ``build()`` (stored for the next poll). ``variant``
    keeps apart what only some readers get (``"full"``: the staff's full names)."""
    key = f"standings:results:{tournament_id}:{round_number}{variant and ':' + variant}"
    return versioned(key, version, build, keep=True)


# how long one process may hold the render of a shared answer before another may start
# it anew (a render that died leaves its lock to expire); a reader with nothing older to
# show waits at most ``RENDER_WAIT_SECONDS`` for it, then renders it itself
RENDER_LOCK_SECONDS = 10
RENDER_WAIT_SECONDS = 3.0
_RENDER_POLL_SECONDS = 0.02
# key -> (version, value) of the large shared answers this process served last (the
# board's part and the API's standings of a championship: a megabyte each, fetched from
# the cache once per version, not once per poll)
_rendered: dict[str, tuple[str, Any]] = {}
MAX_RENDERED = 64


class Shared(NamedTuple):
    """A shared answer and the version it was rendered for: the one asked for, or — while
    another process renders that one — the one before it (``current`` False)."""

    value: Any
    version: str
    current: bool


def _keep_rendered(key: str, version: str, value: Any) -> None:
    with _lock:
        if len(_rendered) >= MAX_RENDERED and key not in _rendered:
            _rendered.clear()
        _rendered[key] = (version, value)


def _cached(key: str) -> tuple[str, Any] | None:
    try:
        return cache.get(key)
    except Exception:  # the cache is an optimisation; Redis down must not fail a read
        log.warning("standings cache unavailable", exc_info=True)
        return None


def _lock_released(lock: str, deadline: float) -> bool:
    """Whether another process's build (its ``lock``) ended before ``deadline``. Polled
    on the lock alone: a waiting reader fetches the value once the build is done, not
    the old one (a megabyte) every few milliseconds while it runs."""
    while time.monotonic() < deadline:
        time.sleep(_RENDER_POLL_SECONDS)
        try:
            if cache.get(lock) is None:
                return True
        except Exception:
            log.warning("standings cache unavailable", exc_info=True)
            return False
    return False


def _shared(key: str, version: str, build: Callable[[], Any], *, keep: bool,
            previous: bool) -> Shared:
    """``build()``'s value for ``version`` of ``key``, built once and shared by every
    process and reader through the cache (the newest version only), with one build at a
    time: the reader that takes the build's lock (in the cache) builds; a reader arriving
    meanwhile gets — with ``previous`` — the version before it, else waits for the build
    (at most ``RENDER_WAIT_SECONDS``, then builds it itself). ``keep``: the value is
    also kept in this process's memory (a large answer read by every poll)."""
    kept = _rendered.get(key) if keep else None
    if kept is not None and kept[0] == version:
        return Shared(kept[1], version, True)
    lock = f"{key}:rendering"
    try:
        if previous and kept is not None and cache.get(lock) is not None:
            # the version before, from memory, while another process renders this one
            return Shared(kept[1], kept[0], False)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)
        return Shared(build(), version, True)
    cached = _cached(key)
    if cached is not None and cached[0] == version:
        if keep:
            _keep_rendered(key, *cached)
        return Shared(cached[1], version, True)
    older = (kept or cached) if previous else None
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while True:
        try:
            mine = cache.add(lock, 1, RENDER_LOCK_SECONDS)
        except Exception:
            log.warning("standings cache unavailable", exc_info=True)
            return Shared(build(), version, True)
        if mine:
            try:
                value = build()
                try:
                    cache.set(key, (version, value), RESULTS_SECONDS)
                except Exception:
                    log.warning("standings cache unavailable", exc_info=True)
            finally:
                try:
                    cache.delete(lock)
                except Exception:  # it expires
                    log.warning("standings cache unavailable", exc_info=True)
            if keep:
                _keep_rendered(key, version, value)
            return Shared(value, version, True)
        if older is not None:
            return Shared(older[1], older[0], False)
        if not _lock_released(lock, deadline):
            return Shared(build(), version, True)
        cached = _cached(key)
        if cached is not None and cached[0] == version:
            if keep:
                _keep_rendered(key, *cached)
            return Shared(cached[1], version, True)


def versioned(key: str, version: str, build: Callable[[], Any], *, keep: bool = False
              ) -> Any:
    """What ``build()`` gives for ``version`` of the thing ``key`` names, built once and
    shared by every process through the cache (the newest version only): the standings
    of one computation, its ranks. A reader that arrives while another builds it waits
    for that build. ``keep``: also kept in this process's memory (a large answer that
    every poll reads)."""
    return _shared(key, version, build, keep=keep, previous=False).value


def shared_render(key: str, etag: str, build: Callable[[], Any], token: int | None) -> Shared:
    """What ``build()`` renders for the answer tagged ``etag`` (the computation, whether
    changes are pending, the language) since the tournament's last change, rendered once
    and shared by every process and poll. ``token``: the tournament scope's token
    (``current_token(tournament_scope(...))``), read before the answer's first database
    read, so that a change during the render makes the next reader render anew. Deals
    alone do not: while the board shows the standings stale, the room's next hundred
    deals change nothing it shows, and a championship's board of 3,000 rows is a
    second's render.

    One render per answer, not one per poll that arrives while it runs: every other poll
    meanwhile gets the answer before it (``current`` False; ``etag_of`` its version gives
    its own ETag: not to be remembered as this one), or — when there is none — waits for
    the render. None as ``token`` (the cache is down): rendered here, not shared."""
    if token is None:
        return Shared(build(), etag, True)
    return _shared(key, f"{etag}|{token}", build, keep=True, previous=True)


def etag_of(version: str) -> str:
    """The ETag of a ``shared_render`` answer's version."""
    return version.rpartition("|")[0] or version


# tournament -> (a computation, what was read of it): every player's page reads its ranks
_ranked: dict[int, tuple[Any, Any]] = {}


def of_computation(tournament_id: int, computed_at, build: Callable[[], Any]) -> Any:
    """What ``build()`` reads of one computation (``computed_at``, read before it) —
    a tournament's ranks by participant — read once per computation for every process
    (``versioned``: the first to need it builds and shares it, the others wait for it
    and take it from the cache) and kept in each, instead of once per player's page.
    Never older than ``computed_at``; read only. A championship's ranks are a list of
    3,000 ranked twice (overall and the round): tens of milliseconds, against one for
    the cache's copy."""
    kept = _ranked.get(tournament_id)
    if kept is not None and kept[0] == computed_at and computed_at is not None:
        return kept[1]
    value = (build() if computed_at is None else
             versioned(f"standings:ranks:{tournament_id}", computed_at.isoformat(), build))
    with _lock:
        if len(_ranked) >= MAX_SNAPSHOTS:
            _ranked.clear()
        _ranked[tournament_id] = (computed_at, value)
    return value


@dataclass
class _Memo:
    """A value read from the database, kept in this process while its scopes hold."""

    scopes: tuple[str, ...]
    seen: tuple | None  # the pushed counts read before the value was
    tokens: tuple | None  # and the scopes' tokens
    value: Any
    made: float


# (what, key) -> _Memo: what a player's page reads of the player, of a table, of a
# computation
_memos: dict[tuple, _Memo] = {}
# a kept value holds at most this long: a safety net for an invalidation lost while
# Redis was down (every change that a kept value shows invalidates one of its scopes)
MEMO_SECONDS = 600
MISSING = object()


class Before(NamedTuple):
    """What is read before a value that ``keep`` keeps: the scopes' counts and tokens,
    and where the counts stood."""

    scopes: tuple[str, ...] | None
    seen: tuple | None
    tokens: tuple | None
    start: tuple | None
    made: float

    def narrowed(self, scopes: tuple[str, ...], place: dict[str, int]) -> Before | None:
        """What this read of ``scopes``, some of its own (``place``: each one's index in
        ``self.scopes``), for values read together and kept apart; None where one of
        them is not its own."""
        if any(scope not in place for scope in scopes):
            return None
        at = [place[scope] for scope in scopes]
        return Before(scopes, None if self.seen is None else tuple(self.seen[i] for i in at),
                      None if self.tokens is None else tuple(self.tokens[i] for i in at),
                      self.start, self.made)


def _memo_holds(memo: _Memo, now: float) -> bool:
    if now - memo.made >= MEMO_SECONDS:
        return False
    if memo.seen is not None:
        seen = _seen(memo.scopes)
        if seen == memo.seen:
            return True
        if _moved(memo.seen, seen):
            return False
    # (a new subscription voids the counts: the tokens decide)
    return memo.tokens is not None and _tokens_hold(memo.scopes, memo.tokens)


def kept(key: tuple, scopes: tuple[str, ...] | None = None) -> Any:
    """The value ``keep`` kept under ``key`` (with ``scopes``, only for those) while
    nothing of its scopes was invalidated since it was read, at most ``MEMO_SECONDS``;
    else ``MISSING``."""
    memo = _memos.get(key)
    if memo is not None and (scopes is None or memo.scopes == scopes) and _memo_holds(
            memo, time.monotonic()):
        return memo.value
    return MISSING


def before(key: tuple, scopes: tuple[str, ...] | None = None) -> Before:
    """Read before the value of ``key``: the counts and tokens of its scopes (``scopes``,
    else those it was kept with last: a player's tables, learnt from the reads)."""
    now = time.monotonic()
    if scopes is None:
        memo = _memos.get(key)
        scopes = memo.scopes if memo is not None else None
    if not scopes:
        return Before(None, None, None, invalidations.point(), now)
    return Before(scopes, _seen(scopes), _tokens(scopes), invalidations.point(), now)


def keep(key: tuple, scopes: tuple[str, ...], value: Any, read: Before) -> None:
    """Keep ``value`` of ``key``, read after ``read``, as depending on ``scopes``. A
    change committed during the read drops it (the counts and tokens came before). When
    ``scopes`` are not those ``read`` knew, it is kept if the counts say none of them
    moved since the read began; else from the next read on."""
    scopes = tuple(scopes)
    seen, tokens = read.seen, read.tokens
    if scopes != read.scopes:  # counts, then the check: a change after it finds them older
        seen = _seen(scopes)
        if not invalidations.unchanged_since(read.start, scopes):
            seen = None
        tokens = None
    _bounded(_memos, key, _Memo(scopes, seen, tokens, value, read.made))


def memo(key: tuple, scopes: tuple[str, ...], build: Callable[[], Any]) -> Any:
    """``build()``, kept under ``key`` while its ``scopes`` hold (``kept``, ``keep``): a
    dictionary look-up instead of the queries."""
    value = kept(key, scopes)
    if value is MISSING:
        read = before(key, scopes)
        value = build()
        keep(key, scopes, value, read)
    return value


# how long a value one process shares with the others (``share``) is kept on Redis. Its
# key names the tokens it was read under, so an invalidation makes it unreachable at once;
# this bounds what the unreachable ones hold (on a championship day a deal every 17 ms
# leaves one table's state behind) and covers the polls of the table's players after it
SHARED_SECONDS = 30


def shared_version(name: str, read: Before) -> str | None:
    """The key under which what was read under ``name`` after ``read`` is shared
    (``shared``, ``share``), or None where nothing is shared."""
    # without Redis each process has a cache of its own, and no other process to share
    # with: nothing is pickled into it; no tokens (the cache failed): nothing is shared
    if read.tokens is None or connection.client() is None:
        return None
    return f"standings:shared:{name}:" + ":".join(str(token) for token in read.tokens)


def shared(reads: dict[str, Before]) -> dict[str, Any]:
    """What another process read and shared (``share``) under each name of ``reads``
    (what this process read before it: ``before``), while none of its scopes has been
    invalidated since: the tokens read before are part of the key. One round trip; {}
    when the cache fails."""
    keys = {name: key for name, read in reads.items()
            if (key := shared_version(name, read)) is not None}
    if not keys:
        return {}
    try:
        found = cache.get_many(list(keys.values()))
    except Exception:  # the cache is an optimisation; Redis down must not fail a read
        log.warning("standings cache unavailable", exc_info=True)
        return {}
    return {name: found[key] for name, key in keys.items() if key in found}


def share(values: dict[str, tuple[Before, Any]]) -> None:
    """Share each value read after its ``Before`` (``shared``) with the other processes,
    for ``SHARED_SECONDS`` (one round trip). A change committed during the read deleted
    the tokens it is keyed by: no reader after the change finds it."""
    keyed = {key: value for name, (read, value) in values.items()
             if (key := shared_version(name, read)) is not None}
    if not keyed:
        return
    try:
        cache.set_many(keyed, SHARED_SECONDS)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)


def invalidation_count() -> int:
    """How many invalidations this process has made (observability)."""
    return _made["invalidations"]


def invalidate_now(tournament_id: int | None, table_id: int | None = None, *,
                   computation: bool = False) -> None:
    """Invalidate at once: everything about the tournament, or — with ``table_id`` — the
    tournament's sheets and that table's (only the table's without a tournament), or —
    with ``computation`` — the tournament's stored standings."""
    text = invalidations.invalidation_message(tournament_id, table_id,
                                              computation=computation)
    scopes = invalidations.scopes_of(text)
    with _lock:
        _made["invalidations"] += 1
    for scope in scopes:
        invalidations.bump(scope)
    try:
        _delete_tokens(scopes, then_publish=text)
    except Exception:  # bounded by TOKEN_SECONDS
        log.warning("snapshots of %s not invalidated", text, exc_info=True)
    dropped = set(scopes)
    with _lock:
        for key in [k for k, v in _snapshots.items() if dropped.intersection(v.scopes)]:
            _snapshots.pop(key, None)


def invalidate(tournament_id: int | None, table_id: int | None = None, *,
               computation: bool = False) -> None:
    """Drop the snapshots of the tournament (with ``table_id``: of its sheets and that
    table; with ``computation``: of its standings, a recompute) once the current
    transaction commits (at once outside one). Before the commit every poll still reads
    the old answer, which is the current one; a poll racing the commit read its tokens
    before its database read, so the invalidation after the commit drops what it
    remembers."""
    transaction.on_commit(functools.partial(invalidate_now, tournament_id, table_id,
                                            computation=computation), robust=True)


def access_now() -> None:
    """Tell every process that who may read what changed (after the change's commit)."""
    invalidations.bump(invalidations.ACCESS)
    try:
        invalidations.publish(invalidations.ACCESS)
    except Exception:  # bounded by ACCESS_SECONDS
        log.warning("access change not pushed", exc_info=True)


def _access_changed(sender, **kwargs) -> None:
    """A staff token, a user or a directorship changed: every staff poll answered from
    memory asks the database again, once this change has committed."""
    transaction.on_commit(access_now, robust=True)


def _tournament_saved(sender, instance, **kwargs) -> None:
    invalidate(instance.pk)


def _round_saved(sender, instance, **kwargs) -> None:
    """A draw, a round closed or reopened: where the players sit and may enter; a
    participant's change (a personal token renewed or erased, a withdrawal): their page."""
    invalidate(instance.tournament_id)


def _confirmation_saved(sender, instance, **kwargs) -> None:
    """A confirmation is seen on the pages of that table's players only."""
    invalidate(None, instance.table_id)


# every save or delete of these drops what shows them
for _model, _handler in (("Tournament", _tournament_saved), ("Round", _round_saved),
                         ("Participant", _round_saved),
                         ("SheetConfirmation", _confirmation_saved)):
    for _signal, _what in ((post_save, "saved"), (post_delete, "deleted")):
        _signal.connect(_handler, sender=f"tournaments.{_model}",
                        dispatch_uid=f"snapshots.{_model.lower()}_{_what}")


for _sender in ("authtoken.Token", settings.AUTH_USER_MODEL):
    for _signal, _what in ((post_save, "saved"), (post_delete, "deleted")):
        _signal.connect(_access_changed, sender=_sender,
                        dispatch_uid=f"snapshots.access.{_sender}_{_what}")
for _sender in ("tournaments.Tournament_directors", "clubs.Club_admins"):
    m2m_changed.connect(_access_changed, sender=_sender,
                        dispatch_uid=f"snapshots.access.{_sender}")


def mark(response: HttpResponse, scopes: tuple[str, ...], published: bool, *,
         staff: bool = False) -> HttpResponse:
    """Let the middleware remember this answer (a 200 of a published tournament) as
    depending on ``scopes``, or re-tag the answer it remembered with the same ETag (a
    304). An unpublished tournament's answer is never remembered. ``staff``: the answer
    of those who direct the tournament, remembered only for the staff token that asked
    and served to it only while the view's ``staff`` check says it may read it."""
    if published:
        response._snapshot_scopes = tuple(scopes)
        response._snapshot_staff = staff
    return response


def _round_of(query: str) -> int | None:
    """0 for no query, N for exactly ``round=N`` within the bound; else None (the view
    answers: another query, or a refusal)."""
    if query == "":
        return 0
    name, _eq, raw = query.partition("=")
    return round_number(raw) if name == "round" and _eq else None


@functools.lru_cache(maxsize=4096)
def _snapshot_view(path: str, urlconf) -> tuple[Snapshotted, tuple] | None:
    """The declaration of the view ``path`` resolves to and its URL's arguments, when it
    serves snapshots; None for any other path. Resolved once per path."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    view = getattr(match.func, "view_class", match.func)
    spec = getattr(view, "snapshot", None)
    if not isinstance(spec, Snapshotted):
        return None
    return spec, tuple(sorted(match.kwargs.items()))


def _seen(scopes: tuple[str, ...]) -> tuple | None:
    counts = tuple(invalidations.seen(scope) for scope in scopes)
    return None if None in counts else counts


def _moved(then: tuple | None, now: tuple | None) -> bool:
    """Whether the pushed counts say a scope was invalidated between ``then`` and ``now``
    (both ``_seen``, of the same scopes): the same subscription counted more. Then its
    token was deleted before the invalidation was published, and asking Redis would
    only say so again (a process's own invalidations are counted once: ``invalidations.
    heard``); after a new subscription (or without one) the tokens decide."""
    return (then is not None and now is not None
            and all(a[0] == b[0] for a, b in zip(then, now, strict=True))
            and then != now)


def _tokens(scopes: tuple[str, ...]) -> tuple | None:
    """The scopes' tokens as ``current_token`` gives them — a missing one drawn — in one
    round trip (a player's page has three scopes; after a computation or a deal one of
    them is gone); None when the cache fails."""
    client = connection.client()
    if client is not None:
        keys = [connection.key(_token_key(scope)) for scope in scopes]
        pipe = client.pipeline(transaction=False)
        for key in keys:  # ``cache.add``: only where there is none
            pipe.set(key, _new_token(), ex=TOKEN_SECONDS, nx=True)
        pipe.mget(keys)
        try:
            raws = pipe.execute()[-1]
        except Exception:
            log.warning("standings cache unavailable", exc_info=True)
            return None
        tokens = _stored_tokens(raws)
        return None if None in tokens else tokens
    keys = [_token_key(scope) for scope in scopes]
    try:
        found = cache.get_many(keys)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)
        return None
    tokens = tuple(found[key] if key in found else current_token(scope)
                   for key, scope in zip(keys, scopes, strict=True))
    return None if None in tokens else tokens


def _tokens_hold(scopes: tuple[str, ...], tokens: tuple) -> bool:
    """Whether the cache still holds ``tokens`` for ``scopes`` (none was invalidated
    since they were read); False when the cache fails."""
    try:
        return read_tokens(scopes) == tokens
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)
        return False


def _bounded(store: dict, key, value) -> None:
    """Store under the lock, dropping the oldest entries beyond ``MAX_SNAPSHOTS``."""
    with _lock:
        store.pop(key, None)
        while len(store) >= MAX_SNAPSHOTS:
            store.pop(next(iter(store)), None)
        store[key] = value


def _staff_token(spec: Snapshotted, header: str | None) -> str | bool | None:
    """None without credentials; the token of ``Authorization: Token <token>`` where
    the view answers staff polls from snapshots; False for any other credentials (the
    view answers)."""
    if header is None:
        return None
    if spec.staff is None:
        return False
    scheme, _space, token = header.partition(" ")
    if scheme.lower() != "token" or not token or " " in token or len(token) > 128:
        return False
    return token


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _staff_may_read(spec: Snapshotted, token: str, key: tuple, arguments: tuple) -> bool:
    """``spec.staff``'s answer for this token and these URL arguments. A yes is trusted
    without asking again while the listener has heard no change of access
    (``invalidations.ACCESS``) nor of the tournament since the database said it, for at
    most ``ACCESS_SECONDS`` (a change whose message was lost); else — no listener, a
    no — the database is asked on this poll."""
    scopes = (invalidations.ACCESS, *spec.scopes(dict(arguments))[:1])
    seen = _seen(scopes)  # read before the database: a change after it drops the yes
    kept = _access.get(key)
    if (seen is not None and kept is not None and kept[0] == seen
            and time.monotonic() - kept[1] < ACCESS_SECONDS):
        return True
    allowed = spec.staff(token, dict(arguments))
    if allowed and seen is not None:
        _bounded(_access, key, (seen, time.monotonic()))
    else:
        with _lock:
            _access.pop(key, None)
    return allowed


def _gzipped(snapshot: _Snapshot) -> bytes | None:
    """The snapshot's body gzipped, compressed by its first reader that accepts it; None
    where compressing does not make it smaller. Two readers at once may both compress:
    the same bytes, the last one kept."""
    if snapshot.gzipped is None and snapshot.gzippable:
        packed = compress_string(snapshot.body)
        if len(packed) < len(snapshot.body):
            snapshot.gzipped = packed
        else:
            snapshot.gzippable = False
    return snapshot.gzipped


class StandingsSnapshotMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = (_snapshot_view(request.path_info, get_urlconf())
                 if request.method == "GET" else None)
        if found is None:
            return self.get_response(request)
        spec, arguments = found
        meta = request.META
        query = meta.get("QUERY_STRING", "")
        cookies = request.COOKIES
        staff = _staff_token(spec, meta.get("HTTP_AUTHORIZATION"))
        if (_round_of(query) is None or staff is False
                or any(name in cookies for name in _PRIVATE_COOKIES)):
            return self.get_response(request)
        language = get_language_from_request(request) if spec.per_language else ""
        # a staff token's answers are its own: keyed by (a digest of) the token
        key = (spec.name, arguments, query, language, staff and _digest(staff))
        scopes = spec.scopes(dict(arguments)) if spec.scopes else _hints.get(key)
        seen = tokens = None
        if scopes:
            seen = _seen(scopes)
            may_read = (functools.partial(_staff_may_read, spec, staff, key, arguments)
                        if staff else None)
            answer = self._from_snapshot(request, key, scopes, seen, may_read)
            if answer is not None:
                return answer
            # while the counts are pushed they alone vouch for what is remembered now
            # (empty tokens: served while they hold, at most TOKEN_SECONDS, then rendered
            # again), as they vouch for a snapshot remembered with tokens: no round trip
            # per render (after a computation, nearly every player's poll renders)
            tokens = _tokens(scopes) if seen is None else ()
        start = invalidations.point()
        response = self.get_response(request)
        if bool(staff) == getattr(response, "_snapshot_staff", False):
            self._remember(key, spec, scopes, tokens, response, seen, start)
        return response

    def _from_snapshot(self, request, key, scopes, seen, may_read):
        snapshot = _snapshots.get(key)
        if snapshot is None or snapshot.scopes != scopes:
            return None
        # the token, its user (active, staff) and what they may read: asked every time, so
        # a token deleted or a director removed reads nothing more from the very next poll
        if may_read is not None and not may_read():
            return None
        pushed = (seen is not None and snapshot.seen == seen
                  and time.monotonic() - snapshot.confirmed < TOKEN_SECONDS)
        if not pushed:
            if _moved(snapshot.seen, seen) or not snapshot.tokens:
                return None  # invalidated since it was remembered, or nothing to ask
            if not _tokens_hold(scopes, snapshot.tokens):  # kept: a 304 may re-tag it
                return None
            if seen is not None:  # unchanged since ``seen`` was read: trusted from now on
                with _lock:
                    snapshot.seen, snapshot.confirmed = seen, time.monotonic()
        gzipped = snapshot.gzippable and bool(
            re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
        # the gzipped answer is another representation: its validator is weak (RFC 9110
        # 8.8.1), which If-None-Match compares weakly all the same
        etag = snapshot.etag
        if gzipped and etag is not None and not etag.startswith("W/"):
            etag = f"W/{etag}"
        if etag is not None:
            # RFC 9110 preconditions as the view applies them (weak tags, lists, "*")
            headers = {"Cache-Control": "no-cache"}
            headers.update((k, v) for k, v in snapshot.headers if k.lower() == "vary")
            conditional = precondition_answer(request, etag, headers)
            if conditional is not None:
                if conditional.status_code != 304:
                    return None  # a failed If-Match: the view answers it
                if snapshot.gzippable:
                    patch_vary_headers(conditional, ("Accept-Encoding",))
                return conditional
        packed = _gzipped(snapshot) if gzipped else None
        gzipped = packed is not None
        body = packed if gzipped else snapshot.body
        if snapshot.csrf:  # the reader's own token, as ``{% csrf_token %}`` makes it
            _csrf.process_request(request)
            body = body.replace(_CSRF_MARK, get_token(request).encode())
        response = HttpResponse(body)
        for name, value in snapshot.headers:
            response[name] = value
        if snapshot.gzippable:
            patch_vary_headers(response, ("Accept-Encoding",))
        if gzipped:
            response["Content-Encoding"] = "gzip"
            if etag is not None:
                response["ETag"] = etag
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(body))
        if snapshot.csrf:
            _csrf.process_response(request, response)
        return response

    def _remember(self, key, spec, scopes, tokens, response, seen, start) -> None:
        marked = getattr(response, "_snapshot_scopes", None)
        if marked is None or response.streaming:
            return
        if marked != scopes:  # learnt now
            if spec.scopes is not None or response.status_code != 200:
                return
            _bounded(_hints, key, marked)
            # remembered at once when the pushed counts say nothing of its scopes came
            # since the render began; else from the next render on. Tokens, then counts
            # are read before that check: an invalidation after it finds them older.
            try:
                tokens = read_tokens(marked)
            except Exception:
                return
            if None in tokens:
                tokens = ()  # trusted while the counts vouch for it, then rendered again
            scopes, seen = marked, _seen(marked)
            if seen is None or not invalidations.unchanged_since(start, marked):
                return
        if tokens is None:
            return
        now = time.monotonic()
        if response.status_code == 304:
            with _lock:
                old = _snapshots.get(key)
                if (old is not None and old.etag == response.get("ETag")
                        and now - old.rendered < RETAG_SECONDS):
                    old.tokens, old.seen, old.confirmed = tokens, seen, now
            return
        if response.status_code != 200:
            return
        body = response.content
        if set(response.cookies) - {settings.CSRF_COOKIE_NAME}:
            return  # an answer of this reader's own
        csrf = bool(response.cookies)
        if csrf:
            body = _CSRF_FIELD.sub(rb"\1" + _CSRF_MARK + rb"\2", body)
        drop = {"set-cookie"} if spec.per_language else {"set-cookie", "content-language"}
        headers = tuple((k, v) for k, v in response.items() if k.lower() not in drop)
        gzippable = (not csrf and len(body) >= GZIP_MIN_BYTES
                     and not response.has_header("Content-Encoding"))
        _bounded(_snapshots, key, _Snapshot(scopes, tokens, response.get("ETag"), body,
                                            headers, now, seen, now, csrf, gzippable))
