"""Reads that many requests share, kept in Django's cache (Redis in production, the
local-memory cache on the embedded default) under the versions of what they show
(``tournaments.freshness``): either in keys that name those versions (``kept``: a change
makes new versions, so new keys, and the old entries expire unread) or in an entry that
carries the version it was read under (``get``/``keep``: the reader compares it).

The caller reads the versions *before* the rows it keeps: a change committed meanwhile
bumps them after its commit, so what is kept under a version is never older than that
version. The cache down reads as a miss (the rows are read from the database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)

SECONDS = 900  # a superseded entry's keys are asked for no more; it expires


def kept(keys: dict[Hashable, str], build: Callable[[list], dict[Hashable, Any]],
         seconds: int = SECONDS, found: dict[str, Any] | None = None) -> dict[Hashable, Any]:
    """The values of ``keys`` (an item → its cache key), those missing built by
    ``build`` (given the missing items, answering item → value) and kept. ``found``: what
    the caller's one read of these keys among others (``read``) answered, so they are
    not read again."""
    if found is None:
        found = read(keys.values())
    values = {item: found[key] for item, key in keys.items() if key in found}
    missing = [item for item in keys if item not in values]
    if missing:
        built = build(missing)
        keep({keys[item]: value for item, value in built.items() if item in keys}, seconds)
        values.update(built)
    return values


def read(keys: Iterable[str]) -> dict[str, Any]:
    """The entries of ``keys`` that are kept, in one round trip (none: the cache down)."""
    keys = list(keys)
    if not keys:
        return {}
    try:
        return cache.get_many(keys)
    except Exception:  # noqa: BLE001 - the cache down is a miss
        log.warning("kept reads unavailable", exc_info=True)
        return {}


def keep(entries: dict[str, Any], seconds: int = SECONDS) -> None:
    if not entries:
        return
    try:
        cache.set_many(entries, seconds)
    except Exception:  # noqa: BLE001 - the next reader reads the rows again
        log.warning("kept reads not stored", exc_info=True)


def get(key: str) -> Any:
    """One entry, None when missing (or the cache is down)."""
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - as a miss
        log.warning("kept read unavailable", exc_info=True)
        return None


def forget(keys: Iterable[str]) -> None:
    try:
        cache.delete_many(list(keys))
    except Exception:  # noqa: BLE001 - the entry expires
        log.warning("kept reads not forgotten", exc_info=True)
