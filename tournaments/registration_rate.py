"""The per-address limit of self-registrations (``REGISTRATION_RATE``, default ``30/min``),
one counter for the API (``api.throttling.RegistrationRateThrottle``) and the public
form (``tournaments.pages.registration``): DRF's cache-backed throttle keyed by the
client's address, as the scorer's. When the cache fails the sign-up is let through
(logged), as with every other use of the cache."""

import logging

from django.conf import settings
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

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("registration throttle unavailable (cache)", exc_info=True)
            return True

    @classmethod
    def forget(cls, ident: str) -> None:
        """Drop an address's history (tests; an operator unblocking a client)."""
        cls.cache.delete(cls.cache_format % {"scope": cls.scope, "ident": ident})


def registration_allowed(request) -> tuple[bool, int]:
    """For a page: whether this address may sign up now, and else the seconds to wait."""
    throttle = RegistrationRate()
    if throttle.allow_request(request, None):
        return True, 0
    return False, max(1, int(throttle.wait() or 1))
