"""The per-address limit of self-registrations (``REGISTRATION_RATE``, default ``30/min``),
one counter for the API (``api.throttling.RegistrationRateThrottle``) and the public
form (``tournaments.pages.registration``): DRF's cache-backed throttle keyed by the
client's address, as the scorer's. When the cache fails (Redis down) the limit still
holds: the address is counted in this process's memory until the cache answers again
(logged). With several web processes each counts on its own, so an address may sign up
up to that many times the rate while Redis is down."""

import logging

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)


class RegistrationRate(SimpleRateThrottle):
    scope = "registration"

    def get_rate(self):
        return settings.REGISTRATION_RATE

    def get_cache_key(self, request, view):
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    # this process's own counter, for while the shared cache fails
    fallback = LocMemCache("registration-rate-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("registration throttle: cache unavailable, counting in this "
                        "process", exc_info=True)
            self.cache = self.fallback
            return super().allow_request(request, view)

    @classmethod
    def forget(cls, ident: str) -> None:
        """Drop an address's history (tests; an operator unblocking a client)."""
        key = cls.cache_format % {"scope": cls.scope, "ident": ident}
        cls.fallback.delete(key)
        cls.cache.delete(key)


def registration_allowed(request) -> tuple[bool, int]:
    """For a page: whether this address may sign up now, and else the seconds to wait."""
    throttle = RegistrationRate()
    if throttle.allow_request(request, None):
        return True, 0
    return False, max(1, int(throttle.wait() or 1))
