"""Rate limits of anonymous work: the stateless scorer, per client address; and of what
the tables and players say to the director (objections, calls), per token.

DRF's cache-backed throttle (Redis when ``REDIS_URL`` is set) with the rate
``SCORER_RATE`` (e.g. ``60/min``); an over-eager client gets 429 with ``Retry-After``.
When the cache fails the request is let through (logged), as with every other use of
the cache: scoring must not depend on Redis.
"""

import hashlib
import logging

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle

from signup.registration_rate import RegistrationRate

log = logging.getLogger(__name__)


class OpenWhenCacheFails:
    """A throttle that lets the request through (logged) when the cache fails."""

    scope = ""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("%s throttle unavailable (cache)", self.scope, exc_info=True)
            return True


class ScorerRateThrottle(OpenWhenCacheFails, AnonRateThrottle):
    scope = "scorer"

    def get_rate(self):
        return settings.SCORER_RATE

    @classmethod
    def forget(cls, ident: str) -> None:
        """Drop an address's history (tests; an operator unblocking a client)."""
        cls.cache.delete(cls.cache_format % {"scope": cls.scope, "ident": ident})


class VoiceRateThrottle(OpenWhenCacheFails, SimpleRateThrottle):
    """Objections and calls for the director, per token (the table's or a player's
    personal one): ``VOICE_RATE`` (default ``20/hour``) together, so a stuck finger or a
    script cannot flood the director's console. Beyond it 429 with ``Retry-After``. The
    cache key is a hash of the token, never the token itself. When the cache fails the
    request is let through (logged)."""

    scope = "voice"

    def get_rate(self):
        return settings.VOICE_RATE

    def get_cache_key(self, request, view):
        if request.method in SAFE_METHODS:
            return None  # reading a call's status (the phone polls it) is not limited
        token = getattr(request.auth, "entry_token", None) or getattr(
            request.auth, "personal_token", None)
        if not token:
            return None  # staff may not raise these (TableAccess answers 403)
        return self.cache_format % {"scope": self.scope, "ident": token_ident(token)}


def token_ident(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]



class RegistrationRateThrottle(RegistrationRate):
    """Self-registrations per client address (``REGISTRATION_RATE``): beyond it 429 with
    ``Retry-After``; one counter with the public form (``signup.registration_rate``)."""
