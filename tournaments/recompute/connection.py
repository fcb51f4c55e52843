"""The standings cache's own Redis connection: redis-py from ``REDIS_URL``.

The snapshot owner (``snapshots``) and its push channel (``invalidations``) talk to Redis
through this one client, on keys named as Django's cache names them (``make_key``, its
public API), so a token written through ``django.core.cache`` is the one read here.
None without Redis (``REDIS_URL`` unset, or another cache configured): callers then use
``django.core.cache`` alone. One client per process; redis-py's pool is thread-safe and
opens new connections after a fork.
"""

from __future__ import annotations

import threading

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

_lock = threading.Lock()
_held: dict = {"url": None, "client": None}


def client() -> redis.Redis | None:
    """The client, or None when the default cache is not Redis at ``REDIS_URL``."""
    url = getattr(settings, "REDIS_URL", None)
    if not url or not isinstance(caches["default"], RedisCache):
        return None
    if _held["url"] != url:
        with _lock:
            if _held["url"] != url:
                # fail fast when Redis is down, as the cache does: callers fall back
                _held["client"] = redis.Redis.from_url(
                    url, socket_connect_timeout=1, socket_timeout=1)
                _held["url"] = url
    return _held["client"]


def key(name: str) -> str:
    """``name`` as the cache stores it (prefix and version)."""
    return caches["default"].make_key(name)
