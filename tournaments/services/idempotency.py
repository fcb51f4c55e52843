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
from tournaments.statements import Writes, select

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
    if len(key) > 255:
        raise user_error("Idempotency-Key",
                         _("The Idempotency-Key is longer than 255 characters."))
    if any(c != "\t" and (c < " " or c == "\x7f") for c in key):
        # HTTP allows none in a header's value, nor PostgreSQL a NUL in a text
        raise user_error("Idempotency-Key",
                         _("The Idempotency-Key contains a control character."))
    # one row at most (unique per table); statements written once (``statements``)
    for request_hash, *answer in select(IdempotencyKey, ("request_hash", "status", "body",
                                                         "headers"),
                                        {"table": table.pk, "key": key}):
        if request_hash != fingerprint:
            raise StateConflict(
                _("This Idempotency-Key was already used for a different request."))
        return tuple(answer), True
    status, body, headers = produce()
    writes = Writes()
    writes.insert(IdempotencyKey(table=table, key=key, request_hash=fingerprint,
                                 status=status, body=body, headers=headers))
    writes.send()
    return (status, body, headers), False


def idempotency_keys_prune(*, older_than: timedelta) -> int:
    """Delete the keys stored longer ago than ``older_than``; returns how many."""
    cutoff = timezone.now() - older_than
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
