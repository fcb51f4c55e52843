"""Strict parsing of the environment (12-factor settings).

A value that is present but malformed is an error at start-up, never a silent default:
``DEBUG=ture`` must not quietly run production code in debug mode.
"""

from __future__ import annotations

import os
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
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
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
