"""Strict parsing of the environment (12-factor settings).

A value that is present but malformed is an error at start-up, never a silent default:
``DEBUG=ture`` must not quietly run production code in debug mode.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no, on/off)"
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_str(name: str, default: str | None = None) -> str | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip()


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(sorted(choices))}")
    return value


_RATE = re.compile(r"[1-9][0-9]{0,8}/(s|sec|second|m|min|minute|h|hour|d|day)")


def env_rate(name: str, default: str) -> str:
    """A request rate as DRF's throttles read it: ``120/min``, ``5/s``, ``1000/day``."""
    value = env_str(name, default)
    if not _RATE.fullmatch(value):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate like 120/min")
    return value


def env_site_url(name: str) -> str | None:
    """The public address the app's printed links and QR codes start with, e.g.
    ``http://192.168.1.20:8000`` or ``https://skat.example.org``: http(s), a host, an
    optional port, no path, query or fragment. Returned without a trailing slash."""
    value = env_str(name)
    if value is None:
        return None
    parsed = urlparse(value)
    try:
        parsed.port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} has an invalid port") from None
    if (parsed.scheme not in ("http", "https") or not parsed.hostname
            or parsed.path not in ("", "/") or parsed.query or parsed.fragment
            or parsed.username or parsed.password):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a site address like https://skat.example.org or "
            "http://192.168.1.20:8000 (scheme and host, no path)")
    return f"{parsed.scheme}://{parsed.netloc}"


# SQLite for a club evening's concurrent writers (``make run``, ``make venue``): the
# write-ahead log lets readers go on while one connection writes; every transaction takes
# the write lock when it begins (IMMEDIATE), so two transactions that read and then write
# never deadlock into an instant "database is locked": the second waits for the first, up
# to ``SQLITE_BUSY_SECONDS`` (sqlite3's busy timeout). NORMAL synchronisation is safe
# with WAL (a power cut may lose the last commits, never corrupt the file).
SQLITE_BUSY_SECONDS = 30
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": SQLITE_BUSY_SECONDS,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def parse_database_url(url: str, base_dir: Path) -> dict:
    """``sqlite:///relative/or//absolute/path`` or ``postgres://user:pass@host:port/name``."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        if parsed.netloc or not path.startswith("/") or path == "/":
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: use sqlite:///relative.db or sqlite:////absolute/path.db"
            )
        name = path[1:]
        if name != ":memory:" and not name.startswith("/"):
            name = str(base_dir / name)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name,
                "OPTIONS": dict(SQLITE_OPTIONS)}
    if parsed.scheme in {"postgres", "postgresql"}:
        name = unquote(parsed.path.lstrip("/"))
        if not name or not parsed.hostname:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: a PostgreSQL URL needs a host and a database name"
            )
        try:
            port = parsed.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the port is not a number") from None
        options = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname,
            "PORT": str(port or 5432),
            "OPTIONS": options,
            "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 60),
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {parsed.scheme!r} (use sqlite or postgres)"
    )


def parse_redis_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ImproperlyConfigured(f"REDIS_URL={url!r}: use redis://host:port/db")
    try:
        _port = parsed.port  # urllib raises on a port that is not a number
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL={url!r}: the port is not a number") from None
    return url


def redis_cache(location: str, seconds: float = 1) -> dict:
    """The shared cache on Redis at ``location`` (django-redis: one client per process,
    not one per command as Django's own backend builds it), failing within ``seconds``
    when Redis is down: its callers fall back, they must not hang."""
    return {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": location,
            "TIMEOUT": 300, "KEY_PREFIX": "stichliste",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": seconds, "SOCKET_TIMEOUT": seconds}}
