"""The per-address limit of self-registrations (``REGISTRATION_RATE``, default ``30/min``),
one counter for the API (``api.throttling.RegistrationRateThrottle``) and the public
form (``signup.pages.registration``): DRF's cache-backed throttle keyed by the
client's address, as the scorer's; while a tournament takes walk-ins (api.md) keyed by
the tournament, as a hall's phones often share one address. When the cache fails (Redis
down) the limit still holds: the count is kept in this process's memory until the cache
answers again (logged). With several web processes each counts on its own, so an address
may sign up up to that many times the rate while Redis is down."""

import logging

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

from tournaments.models import Tournament

log = logging.getLogger(__name__)


class RegistrationRate(SimpleRateThrottle):
    scope = "registration"

    def get_rate(self):
        return settings.REGISTRATION_RATE

    def get_cache_key(self, request, view):
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.ident_of(request, view)}

    def ident_of(self, request, view) -> str:
        """The client's address; in walk-in mode the tournament (a hall's phones often
        share one address)."""
        tournament = getattr(view, "walk_in_tournament", None)
        if tournament is not None:
            walk_in, pk = tournament.registration_walk_in, tournament.pk
        else:  # the API, before its view loads the tournament
            pk = getattr(view, "kwargs", {}).get("tournament_id")
            walk_in = pk is not None and Tournament.objects.filter(
                pk=pk, registration_walk_in=True).exists()
        return f"tournament-{pk}" if walk_in else self.get_ident(request)

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


class _Page:
    """What the limit needs to know of a page's request: its tournament."""

    def __init__(self, tournament):
        self.walk_in_tournament = tournament


def registration_allowed(request, tournament=None) -> tuple[bool, int]:
    """For a page: whether this address (in walk-in mode: this tournament) may sign up
    now, and else the seconds to wait."""
    throttle = RegistrationRate()
    if throttle.allow_request(request, _Page(tournament)):
        return True, 0
    return False, max(1, int(throttle.wait() or 1))
