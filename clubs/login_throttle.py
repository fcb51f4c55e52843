"""Failed logins, counted per username and per client address in the cache.

Every way in that takes a password — the API's ``POST /api/v1/auth/token/``, the login
page and the admin's — asks ``retry_after`` before checking the password and answers 429 with
``Retry-After`` while either count has reached its limit: ``LOGIN_FAILURES_PER_USERNAME``
failures for one username (any address), ``LOGIN_FAILURES_PER_ADDRESS`` from one address
(any username), within a window of ``LOGIN_FAILURE_WINDOW_SECONDS``. A count lives in
the window it started in (keys named by window number, expiring with it), so a blocked
client waits at most one window. A successful login clears its username's count. The
cache is Redis when ``REDIS_URL`` is set (shared by every web process); when the cache
fails the login is not throttled rather than refused (logged).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.template.response import TemplateResponse
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)


def _window() -> tuple[int, int]:
    """(number of the current window, seconds until it ends)."""
    length = settings.LOGIN_FAILURE_WINDOW_SECONDS
    now = int(time.time())
    return now // length, length - now % length


def _keys(username: str, address: str) -> dict[str, str]:
    window, _left = _window()
    name = hashlib.sha256(username.strip().casefold().encode("utf-8", "replace")).hexdigest()
    return {"username": f"login-failures:{window}:user:{name}",
            "address": f"login-failures:{window}:addr:{address}"}


def _limits() -> dict[str, int]:
    return {"username": settings.LOGIN_FAILURES_PER_USERNAME,
            "address": settings.LOGIN_FAILURES_PER_ADDRESS}


def client_address(request) -> str:
    """The client's address as DRF's throttles take it: ``REMOTE_ADDR``, or behind
    ``NUM_PROXIES`` proxies the address they wrote into ``X-Forwarded-For``."""
    return (BaseThrottle().get_ident(request) or "-")[:64]


def retry_after(username: str, address: str) -> int | None:
    """Seconds the client must wait, or None when it may try a password now."""
    keys = _keys(username, address)
    try:
        counts = cache.get_many(list(keys.values()))
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)
        return None
    limits = _limits()
    if any(counts.get(key, 0) >= limits[kind] for kind, key in keys.items()):
        return _window()[1]
    return None


def record_failure(username: str, address: str) -> None:
    timeout = settings.LOGIN_FAILURE_WINDOW_SECONDS + 5
    try:
        for key in _keys(username, address).values():
            cache.add(key, 0, timeout)
            cache.incr(key)
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)
    log.info("failed login", extra={"client_address": address})


def record_success(username: str, address: str) -> None:
    try:
        cache.delete(_keys(username, address)["username"])
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)


def forget_address(address: str) -> None:
    """Drop the current window's failures of an address (an operator unlocking a venue)."""
    try:
        cache.delete(_keys("", address)["address"])
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)


def throttled_login(view):
    """A login page view (the site's, the admin's) that answers 429 — a page saying how
    long to wait, with ``Retry-After`` — while throttled, and counts its failed POSTs."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        address = client_address(request)
        wait = retry_after(username, address)
        if wait is not None:
            response = TemplateResponse(request, "registration/throttled.html",
                                        {"minutes": -(-wait // 60)}, status=429)
            response["Retry-After"] = str(wait)
            return response
        response = view(request, *args, **kwargs)
        if request.user.is_authenticated:
            record_success(username, address)
        else:
            record_failure(username, address)
        return response

    return wrapper
