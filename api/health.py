"""``/healthz``: is the database reachable, and the broker (when one is configured)?

200 when everything configured answers, 503 otherwise; the body says which part failed.
"""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception as exc:  # any driver error means "down"; the body says why
        return f"down: {exc.__class__.__name__}"


def _broker() -> str:
    if not settings.REDIS_URL:
        return "in-process"
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                      socket_timeout=1)
        client.ping()
        return "ok"
    except redis.RedisError as exc:
        return f"down: {exc.__class__.__name__}"


@never_cache
def healthz(request):
    state = {"database": _database(), "broker": _broker()}
    healthy = all(value in {"ok", "in-process"} for value in state.values())
    state["status"] = "ok" if healthy else "degraded"
    return JsonResponse(state, status=200 if healthy else 503)
