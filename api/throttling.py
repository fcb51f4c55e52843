"""Rate limits of anonymous work: the stateless scorer, per client address.

DRF's cache-backed throttle (Redis when ``REDIS_URL`` is set) with the rate
``SCORER_RATE`` (e.g. ``60/min``); an over-eager client gets 429 with ``Retry-After``.
When the cache fails the request is let through (logged), as with every other use of
the cache: scoring must not depend on Redis.
"""

import logging

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle

log = logging.getLogger(__name__)


class ScorerRateThrottle(AnonRateThrottle):
    scope = "scorer"

    def get_rate(self):
        return settings.SCORER_RATE

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("scorer throttle unavailable (cache)", exc_info=True)
            return True

    @classmethod
    def forget(cls, ident: str) -> None:
        """Drop an address's history (tests; an operator unblocking a client)."""
        cls.cache.delete(cls.cache_format % {"scope": cls.scope, "ident": ident})
