"""``/healthz`` (liveness) and ``/readyz`` (readiness with the parts around the web process).

- ``/healthz``: the process answers and the database takes a query — 200, else 503. The
  container's health check probes it: only then is restarting the web process any help.
  Redis and the workers are not part of it, since score entry works without them.
- ``/readyz``: the database (503 when down) and, reported but never failing the probe,
  Redis (the cache and broker) and the Celery workers (a ``ping`` answered within a
  second): either down makes the answer ``"status": "degraded"`` with 200 — entry still
  works, standings wait (see the failure table in docs/operations.md).
"""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app

WORKER_PING_SECONDS = 1.0


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception as exc:  # any driver error means "down"; the body says why
        return f"down: {exc.__class__.__name__}"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                      socket_timeout=1)
        client.ping()
        return "ok"
    except redis.RedisError as exc:
        return f"down: {exc.__class__.__name__}"


def _workers(redis_state: str) -> str:
    if not settings.REDIS_URL:
        return "in-process"
    if redis_state != "ok":
        return "unknown: no broker"
    try:
        replies = app.control.ping(timeout=WORKER_PING_SECONDS)
    except Exception as exc:  # the broker went away between the two checks
        return f"unknown: {exc.__class__.__name__}"
    return f"ok: {len(replies)}" if replies else "down: no worker answered"


@never_cache
def healthz(request):
    database = _database()
    healthy = database == "ok"
    return JsonResponse({"status": "ok" if healthy else "down", "database": database},
                        status=200 if healthy else 503)


@never_cache
def readyz(request):
    database = _database()
    redis_state = _redis()
    state = {"database": database, "redis": redis_state, "workers": _workers(redis_state)}
    if database != "ok":
        state["status"] = "down"
        return JsonResponse(state, status=503)
    degraded = not (redis_state in {"ok", "not configured"}
                    and (state["workers"] == "in-process" or state["workers"].startswith("ok")))
    state["status"] = "degraded" if degraded else "ok"
    return JsonResponse(state, status=200)
