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
import json
import re
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


def _plain(value: Any) -> bool:
    """Whether ``value`` is written alike by JCS and by Python's ``json`` with sorted
    keys, no whitespace and UTF-8 (``_canonical``): objects with ASCII keys (JCS sorts
    keys by UTF-16 units, Python by code points: alike for ASCII), lists, texts without
    surrogates, integers JCS holds exactly, booleans and null. Both escape the same
    characters alike (``"``, ``\\`` and those below U+0020, as ``\\n`` or ``\\u001f``). A
    float (JCS writes ``1.0`` as ``1``) is not plain."""
    if isinstance(value, str):
        return value.isascii() or not _SURROGATE.search(value)
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return abs(value) <= SAFE
    if isinstance(value, dict):
        return all(isinstance(k, str) and k.isascii() and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def _canonical(value: Any) -> bytes:
    """RFC 8785's canonical JSON of ``value``: Python's own writer where it writes the same
    bytes (``_plain``: a history entry of deals of whole numbers, written about five times
    faster), the JCS writer else."""
    if _plain(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode()
    return rfc8785.dumps(_as_jcs(value))


def digest(content: dict[str, Any]) -> str:
    """SHA-256 (hex) of the entry's ``previous`` and its canonical JSON."""
    shown = {k: v for k, v in content.items() if k not in NOT_HASHED}
    previous = (shown.get("previous") or "").encode("ascii")
    return hashlib.sha256(previous + _canonical(shown)).hexdigest()


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
