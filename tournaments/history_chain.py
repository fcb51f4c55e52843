"""The hash chain of a table's history (api.md "Open results"), pure Python.

Each entry of ``GET /tables/{id}/history/`` carries ``hash`` (SHA-256, 64 hex digits)
and ``previous`` (the hash before it; ``null`` for the first): ``hash = SHA-256(previous
‖ the entry's canonical JSON)``, canonical JSON being RFC 8785 (JCS: sorted keys, no
whitespace, UTF-8) of the entry as this endpoint shows it without ``hash``. ``previous``
goes in as its 64 hex digits (nothing for the first entry). The endpoint shows exactly
what is hashed: ``id`` (the database's key, which verify's ``first_bad`` names), ``at``,
``action``, ``deal``, ``by``, ``participant``, ``before``, ``after`` and ``previous`` —
nothing that changes with the request's language or today's names. So anyone holding the
endpoint's answer can recompute every hash, and a row changed in the database outside
the app breaks the chain at that entry.

The entries of a table are chained in the order they were written (their ids).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import rfc8785

NOT_HASHED = ("hash",)


def timestamp(at: datetime) -> str:
    """``at`` as the history shows it: ISO 8601 in UTC with ``Z`` (as DRF renders it)."""
    text = at.astimezone(UTC).isoformat()
    return text.removesuffix("+00:00") + "Z"


def entry(*, id: int, at: datetime, action: str, deal: int | None, by: str | None,
          participant: int | None, before: Any, after: Any,
          previous: str | None) -> dict[str, Any]:
    """The hashed part of a history entry, in the endpoint's field names: the entry as
    the endpoint shows it, without ``hash``."""
    return {"id": id, "at": timestamp(at), "action": action, "deal": deal, "by": by,
            "participant": participant, "before": before, "after": after,
            "previous": previous}


SAFE = 2**53 - 1  # JCS numbers are IEEE doubles: integers beyond this are not exact


def _as_jcs(value: Any) -> Any:
    """``value`` as JCS can hold it (only an imported archive may bring anything else):
    an integer beyond the exact doubles as the double an ECMAScript reader makes of it,
    or beyond the doubles as its digits (text); a lone surrogate as U+FFFD."""
    if isinstance(value, dict):
        return {k: _as_jcs(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_jcs(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE:
        return float(value) if abs(value) < 2**1023 else str(value)
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def digest(content: dict[str, Any]) -> str:
    """SHA-256 (hex) of the entry's ``previous`` and its canonical JSON."""
    shown = {k: v for k, v in content.items() if k not in NOT_HASHED}
    previous = (shown.get("previous") or "").encode("ascii")
    return hashlib.sha256(previous + rfc8785.dumps(_as_jcs(shown))).hexdigest()


def links(contents: Iterable[dict[str, Any]]) -> Iterator[tuple[str | None, str]]:
    """``(previous, hash)`` of each of a table's entries chained anew in the given
    (written) order (an entry's own ``previous`` is replaced by the one made here)."""
    previous = None
    for content in contents:
        made = digest({**content, "previous": previous})
        yield previous, made
        previous = made


@dataclass(frozen=True)
class Verdict:
    """A table's chain recomputed: its stored ``head`` (None: no history), whether every
    entry matches and, when not, the id of the first that does not."""

    head: str | None
    ok: bool
    first_bad: int | None = None


def verify(entries: Iterable[tuple[int, str | None, str, dict[str, Any]]]) -> Verdict:
    """Recompute a chain from ``(id, stored previous, stored hash, entry)`` in written
    order (``entry`` without ``previous``: the recomputed one goes in)."""
    expected: str | None = None
    head = None
    first_bad = None
    for event_id, previous, stored, content in entries:
        head = stored
        if first_bad is not None:
            continue
        if previous != expected or digest({**content, "previous": expected}) != stored:
            first_bad = event_id
        expected = stored
    return Verdict(head, first_bad is None, first_bad)
