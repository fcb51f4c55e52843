"""Failed logins, counted in the cache so that guessing is slowed down and stopped without
letting anyone lock the account's owner out.

Every way in that takes a password — the API's ``POST /api/v1/auth/token/``, the login
page and the admin's — calls ``before_password`` before checking the password. Terms:

- a *pair* is one username (case-folded) tried from one client address;
- a *known address* of a username is one it logged in from successfully within
  ``LOGIN_KNOWN_ADDRESS_DAYS`` (remembered in the cache, like django-axes' "username and
  address" combination and OWASP's advice to trust a device that logged in before);
- a *window* is ``LOGIN_FAILURE_WINDOW_SECONDS`` long; counts are kept per window (keys
  named by its number, expiring with it), so whoever is stopped waits at most one window.

The rule, the one place it is decided (``judge``):

1. A pair with ``LOGIN_FAILURES_PER_USERNAME`` failures in the window is stopped: 429 with
   ``Retry-After`` until the window ends, whatever the password (one address hammering
   one username). This holds for known addresses too, or a known address could guess
   without end.
2. An address with ``LOGIN_FAILURES_PER_ADDRESS`` failures in the window (any usernames)
   is stopped likewise (one address spraying many usernames) — except for usernames it is
   a known address of: a venue's shared address sprayed by someone else does not lock out
   the director who logged in there before.
3. A username with ``LOGIN_FAILURES_PER_USERNAME`` failures in the window from all
   addresses together is never stopped, only *slowed*: each attempt from an address that
   is not known for it is held ``LOGIN_SLOWDOWN_SECONDS`` (bounded, at most 10) before the
   password is checked. So guesses spread over many addresses cost time, and nobody can
   turn them into a lock: the right password gets in from any address, at once from a
   known one. (The only lock a stranger can cause is rule 1 from the owner's own address,
   which needs that address.)

A successful login clears its pair's count and remembers the address as known; it does
not clear the username's count, since the owner getting in says nothing about the
guesses from elsewhere. The cache is Redis when ``REDIS_URL`` is set (shared by every web
process); when the cache fails the login is neither throttled nor slowed (logged).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.template.response import TemplateResponse
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    wait: int | None  # seconds to answer 429 with, or None: the password may be tried
    delay: float = 0  # seconds to hold the attempt first (rule 3)


def _window() -> tuple[int, int]:
    """(number of the current window, seconds until it ends)."""
    length = settings.LOGIN_FAILURE_WINDOW_SECONDS
    now = int(time.time())
    return now // length, length - now % length


def _name(username: str) -> str:
    return hashlib.sha256(username.strip().casefold().encode("utf-8", "replace")).hexdigest()


def _keys(username: str, address: str) -> dict[str, str]:
    window, _left = _window()
    name = _name(username)
    return {"pair": f"login-failures:{window}:pair:{name}:{address}",
            "address": f"login-failures:{window}:addr:{address}",
            "username": f"login-failures:{window}:user:{name}",
            "known": f"login-known:{name}:{address}"}


def client_address(request) -> str:
    """The client's address as DRF's throttles take it: ``REMOTE_ADDR``, or behind
    ``NUM_PROXIES`` proxies the address they wrote into ``X-Forwarded-For``."""
    return (BaseThrottle().get_ident(request) or "-")[:64]


def judge(username: str, address: str) -> Verdict:
    """The rule of the module docstring, from one read of the cache."""
    keys = _keys(username, address)
    try:
        found = cache.get_many(list(keys.values()))
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)
        return Verdict(None)
    count = {kind: found.get(key, 0) for kind, key in keys.items()}
    known = bool(count["known"])
    if (count["pair"] >= settings.LOGIN_FAILURES_PER_USERNAME
            or (count["address"] >= settings.LOGIN_FAILURES_PER_ADDRESS and not known)):
        return Verdict(_window()[1])
    if count["username"] >= settings.LOGIN_FAILURES_PER_USERNAME and not known:
        return Verdict(None, settings.LOGIN_SLOWDOWN_SECONDS)
    return Verdict(None)


def retry_after(username: str, address: str) -> int | None:
    """Seconds the client must wait, or None when it may try a password now."""
    return judge(username, address).wait


def before_password(username: str, address: str) -> int | None:
    """The one call before a password is checked: the seconds to answer 429 with, or
    None once the attempt has been held as long as rule 3 says."""
    verdict = judge(username, address)
    if verdict.wait is None and verdict.delay > 0:
        time.sleep(verdict.delay)
    return verdict.wait


def record_failure(username: str, address: str) -> None:
    timeout = settings.LOGIN_FAILURE_WINDOW_SECONDS + 5
    keys = _keys(username, address)
    try:
        for kind in ("pair", "address", "username"):
            cache.add(keys[kind], 0, timeout)
            cache.incr(keys[kind])
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)
    log.info("failed login", extra={"client_address": address})


def record_success(username: str, address: str) -> None:
    keys = _keys(username, address)
    try:
        cache.delete(keys["pair"])
        cache.set(keys["known"], 1, settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400)
    except Exception:
        log.warning("login throttle unavailable (cache)", exc_info=True)


def forget_address(address: str) -> None:
    """Drop the current window's failures of an address (an operator unlocking a venue;
    its pairs' counts stay)."""
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
        wait = before_password(username, address)
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
