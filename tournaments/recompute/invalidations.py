"""Standings invalidations pushed to every serving process (Redis publish/subscribe).

``snapshots.invalidate_now`` counts an invalidation here (``bump``) and publishes it on
one channel; each serving process runs one listener thread, started by its first poll
(and again after a fork), subscribed to that channel, which counts every invalidation
it hears. While the listener is subscribed (``seen`` answers), the snapshot middleware
trusts its own memory: a snapshot is served while its tournament's count is the one
read when the poll that rendered it began — no Redis round trip per poll, the work of
serving a file from memory. A message sent while the subscription was down is lost, so
subscribing (again) starts a new generation: every count read before is void. Without
the listener (not subscribed yet, Redis down, another cache, or
``STANDINGS_PUSH_INVALIDATIONS`` off) ``seen`` answers None and the middleware checks
the tournament's token on Redis, as before.

What is counted is a *scope*: everything about a tournament but its standings
(``tournament_scope``, the tournament's id as text: a save, a draw, a withdrawal, a
publication choice), its stored standings (``computation_scope``: a recompute), any sheet
of it (``sheets_scope``: the standings turn stale) or one table's sheet (``table_scope``:
the pages of the players at that table). One message names what changed:
``"<tournament>"`` is the tournament's scope, ``"c<tournament>"`` a new computation,
``"<tournament>:<table>"`` a sheet change (that tournament's sheets and that table),
``":<table>"`` a change that only that table's players see (a confirmation), ``"a"``
(``ACCESS``) a change of who may read what (a staff token, a user, a tournament's
directors, a club's admins). ``publish`` puts the sending process before it
(``"<origin>/<text>"``): a process has counted its own invalidation when it made it, so
its listener does not count it again when the message comes back (a count that moved
then always means another change, and a snapshot remembered in between outlives the
echo). A computation is a scope of its own so that what a player's
page reads besides the standings (the seats, the table, the confirmations) outlives the
computations of a championship, which come every few seconds.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from typing import Any

import redis
from django.conf import settings

from tournaments.recompute import connection

log = logging.getLogger(__name__)

CHANNEL = "standings:invalidated"
PING_SECONDS = 5  # a silent subscription is pinged this often, so a dead one is noticed
RETRY_SECONDS = 1

_lock = threading.Lock()
_counts: dict[str, int] = {}
# every count in this process in order: the scope's latest, and the latest of all
_bumped: dict[str, int] = {}
_sequence = {"last": 0}
# the process the listener runs in, its subscription's generation, and whether it is live
_state: dict = {"pid": None, "generation": 0, "live": False}
# this process's name in what it publishes (``origin``)
_origin: dict = {"pid": None, "name": ""}


def _pushing() -> bool:
    return connection.client() is not None and getattr(
        settings, "STANDINGS_PUSH_INVALIDATIONS", True)


def _channel() -> str:
    return connection.key(CHANNEL)


def tournament_scope(tournament_id: int) -> str:
    return str(tournament_id)


def computation_scope(tournament_id: int) -> str:
    return f"c{tournament_id}"


def sheets_scope(tournament_id: int) -> str:
    return f"s{tournament_id}"


def table_scope(table_id: int) -> str:
    return f"d{table_id}"


# who may read what changed (a staff token, its user, a tournament's directors or its
# club's admins): staff polls answered from memory ask the database again
ACCESS = "a"


def invalidation_message(tournament_id: int | None, table_id: int | None = None, *,
                         computation: bool = False) -> str:
    """The one message of an invalidation (see the module's docstring)."""
    if computation:
        return computation_scope(int(tournament_id))
    if table_id is None:
        return str(tournament_id)
    return f"{'' if tournament_id is None else tournament_id}:{table_id}"


def scopes_of(text: str) -> tuple[str, ...]:
    """The scopes a message names; () for a message that is none of ours."""
    if text == ACCESS:
        return (ACCESS,)
    if text[:1] == "c":
        return (text,) if text[1:].isascii() and text[1:].isdigit() else ()
    tournament, colon, table = text.partition(":")
    if not colon:
        return (tournament_scope(int(tournament)),) if tournament.isdigit() else ()
    if not table.isdigit() or (tournament and not tournament.isdigit()):
        return ()
    sheets = (sheets_scope(int(tournament)),) if tournament else ()
    return (*sheets, table_scope(int(table)))


def bump(scope: int | str) -> None:
    """Count an invalidation in this process now (the listener hears it again later)."""
    scope = str(scope)
    with _lock:
        _counts[scope] = _counts.get(scope, 0) + 1
        _sequence["last"] += 1
        _bumped[scope] = _sequence["last"]


def point() -> tuple[int, int] | None:
    """Where the counts stand now (generation, sequence) while the listener is
    subscribed, else None: read before a render whose scopes only the render finds."""
    if seen("") is None:
        return None
    return _state["generation"], _sequence["last"]


def unchanged_since(start: tuple[int, int] | None, scopes) -> bool:
    """Whether no invalidation of ``scopes`` was counted since ``start`` (``point``) and
    the subscription then is still the one now."""
    if start is None or not _state["live"] or _state["generation"] != start[0]:
        return False
    return all(_bumped.get(str(scope), 0) <= start[1] for scope in scopes)


def origin() -> str:
    """This process's name in the messages it publishes: drawn once per process (a
    forked worker draws its own)."""
    if _origin["pid"] != os.getpid():
        with _lock:
            if _origin["pid"] != os.getpid():
                _origin.update(pid=os.getpid(), name=secrets.token_hex(6))
    return _origin["name"]


def publish(text: int | str, via: Any = None) -> None:
    """Tell every other process (``text``: an ``invalidation_message``, counted here
    already by ``bump``); raises when Redis cannot be reached (the caller logs it).
    ``via``: a pipeline of the owner's client that sends it with the caller's other
    commands, in one round trip."""
    if _pushing():
        (via if via is not None else connection.client()).publish(
            _channel(), f"{origin()}/{text}")


def heard(message: str) -> tuple[str, ...]:
    """The scopes a message heard on the channel names for this process to count: none
    of its own (``origin``), and those of a message without an origin as well."""
    sender, slash, text = message.rpartition("/")
    if slash and sender == origin():
        return ()
    return scopes_of(text)


def seen(scope: int | str) -> tuple[int, int] | None:
    """What a poll starts from: (generation, count) of the scope (a tournament's id names
    its scope) while the listener is subscribed, else None. Starts the listener when this
    process has none."""
    if not _state["live"] or _state["pid"] != os.getpid() or not getattr(
            settings, "STANDINGS_PUSH_INVALIDATIONS", True):
        _start()
        return None
    return _state["generation"], _counts.get(str(scope), 0)


def _start() -> None:
    if not _pushing() or _state["pid"] == os.getpid():
        return
    with _lock:
        if _state["pid"] == os.getpid():
            return
        _state.update(pid=os.getpid(), live=False)
    threading.Thread(target=_listen, args=(connection.client(), _channel()), daemon=True,
                     name="standings-invalidations").start()


def _listen(client: redis.Redis, channel: str) -> None:
    while True:
        try:
            _subscribed(client, channel)
        except Exception:
            log.warning("standings invalidations: subscription lost", exc_info=True)
        with _lock:
            _state["live"] = False
        time.sleep(RETRY_SECONDS)


def _subscribed(client: redis.Redis, channel: str) -> None:
    pubsub = client.pubsub()
    try:
        pubsub.subscribe(channel)
        quiet_since = time.monotonic()
        while True:
            message = pubsub.get_message(timeout=PING_SECONDS)
            if message is None:
                if time.monotonic() - quiet_since >= PING_SECONDS:
                    pubsub.ping()  # a dead connection raises here or on the next read
                    quiet_since = time.monotonic()
                continue
            quiet_since = time.monotonic()
            if message["type"] == "subscribe":
                with _lock:
                    _state["generation"] += 1
                    _state["live"] = True
            elif message["type"] == "message":
                data = message["data"]
                text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
                for scope in heard(str(text)):
                    bump(scope)
    finally:
        pubsub.close()
