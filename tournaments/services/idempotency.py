"""``Idempotency-Key``: a retried POST gets the first answer and stores nothing new.

The first request with a key produces and stores its answer; every later one finds and
replays it. A key reused with a different body is refused. Stored answers are kept for
``IDEMPOTENCY_KEY_MAX_AGE_HOURS`` (beat prunes the older ones hourly): a client retries
within minutes, never days.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.errors import user_error
from tournaments.errors import StateConflict
from tournaments.models import IdempotencyKey, Table
from tournaments.services.sheets import SheetWrite, sheet_write
from tournaments.statements import Reads, Writes

Answer = tuple[int, Any, dict[str, str]]  # status, JSON body, headers


def request_fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent(*, table_id: int | None = None, key: str | None, fingerprint: str,
               produce: Callable[[], Answer],
               sheet: SheetWrite | None = None) -> tuple[Answer, bool]:
    """Run ``produce`` once per (table, key); returns the answer and whether it is a replay.

    The table's row lock is held from the look-up of the key to the storing of the
    answer, so concurrent retries of one key run one after another.

    ``produce`` raises on a refused request; nothing is stored then, since a refused
    request changed nothing and its retry may succeed later. ``sheet``: the caller's
    write context, whose table is locked already (it is not loaded again) in the caller's
    transaction, which the caller rolls back on a refusal: no savepoint is made then
    (``sheet_transaction``).
    """
    if not key:
        return produce(), False
    with transaction.atomic(savepoint=sheet is None):
        return _once(sheet_write(table_id, sheet).table, key, fingerprint, produce)


def _once(table: Table, key: str, fingerprint: str,
          produce: Callable[[], Answer]) -> tuple[Answer, bool]:
    once = Once(table, key, fingerprint)
    reads = Reads()
    once.look_up(reads)
    if once.replayed_from(reads.send()):
        return once.answer, True
    answer = produce()
    writes = Writes()
    once.store(writes, answer)
    writes.send()
    return answer, False


def _check_key(key: str) -> None:
    if len(key) > 255:
        raise user_error("Idempotency-Key",
                         _("The Idempotency-Key is longer than 255 characters."))
    if any(c != "\t" and (c < " " or c == "\x7f") for c in key):
        # HTTP allows none in a header's value, nor PostgreSQL a NUL in a text
        raise user_error("Idempotency-Key",
                         _("The Idempotency-Key contains a control character."))


class Once:
    """A request's ``Idempotency-Key`` at its (locked) table, inside the write that
    answers it: its stored answer looked up among the write's reads (``look_up``, then
    ``replayed_from`` their results) and, for a first request, the answer stored among
    the write's rows (``store``) — no round trip of its own either way (a deal POST:
    ``sheets.deal_record``). Without a key (None or empty) nothing is looked up or
    stored. A key too long or with a control character is refused at once (400).
    ``made``: the answer of what the write made (``store``), when that is not the answer
    itself (a deal POST: its deal). ``answer`` is the request's answer once known;
    ``replayed`` whether it is the stored one."""

    def __init__(self, table: Table, key: str | None, fingerprint: str | Callable[[], str],
                 made: Callable[[Any], Answer] | None = None):
        if key:
            _check_key(key)
        self.table, self.key, self.made = table, key or None, made
        self._fingerprint = fingerprint
        self._found: int | None = None
        self.answer: Answer | None = None
        self.replayed = False

    @property
    def fingerprint(self) -> str:
        """The request's fingerprint (given as a function: made only for a key)."""
        if callable(self._fingerprint):
            self._fingerprint = self._fingerprint()
        return self._fingerprint

    def look_up(self, reads: Reads) -> None:
        if self.key:  # one row at most (unique per table)
            self._found = reads.select(IdempotencyKey, ("request_hash", "status", "body",
                                                        "headers"),
                                       {"table": self.table.pk, "key": self.key})

    def replayed_from(self, found: list) -> bool:
        """Whether the key's answer was stored (it is ``answer`` now), given the results
        of the reads; ``StateConflict`` for a key used with a different request."""
        if self._found is None:
            return False
        for request_hash, *answer in found[self._found]:
            if request_hash != self.fingerprint:
                raise StateConflict(
                    _("This Idempotency-Key was already used for a different request."))
            self.answer, self.replayed = tuple(answer), True
            return True
        return False

    def store(self, writes: Writes, result: Any) -> None:
        """The answer of ``result`` (``made``) is the request's; stored with the write's
        rows under the key."""
        self.answer = answer = self.made(result) if self.made is not None else result
        if self.key:
            status, body, headers = answer
            writes.insert(IdempotencyKey(table=self.table, key=self.key,
                                         request_hash=self.fingerprint, status=status,
                                         body=body, headers=headers))


def idempotency_keys_prune(*, older_than: timedelta) -> int:
    """Delete the keys stored longer ago than ``older_than``; returns how many."""
    cutoff = timezone.now() - older_than
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
