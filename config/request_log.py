"""Which request a log line belongs to: the request id, and the user or table behind it.

``RequestIdMiddleware`` (first in ``MIDDLEWARE``) takes the client's or proxy's
``X-Request-ID`` when it is a plain token (letters, digits, ``.-_:``, at most 64), else
draws one, and sends it back in ``X-Request-ID``. ``RequestContextFilter`` adds
``request_id``, ``user`` and ``table`` to every log record written while the request
runs (``-`` outside a request, e.g. in a Celery task); the JSON formatter in
``settings.LOGGING`` writes them beside time, level and logger. One line per request
(method, path, status, milliseconds) goes to the ``stichliste.request`` logger.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid

from django.core.signals import request_finished
from django.utils.functional import LazyObject, empty

_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_current: contextvars.ContextVar = contextvars.ContextVar("stichliste_request", default=None)
access_log = logging.getLogger("stichliste.request")


def _principal(request) -> tuple[str, str]:
    """(user id, table id) without a database read: only what authentication has already
    put on the request (DRF copies its user onto the Django request; a table token's
    user is a principal holding the table)."""
    user = request.__dict__.get("user")
    if isinstance(user, LazyObject):
        user = user._wrapped
    if user is None or user is empty:
        return "-", "-"
    table = getattr(user, "table", None)
    if table is not None:
        return "-", str(table.pk)
    if getattr(user, "is_authenticated", False) and getattr(user, "pk", None) is not None:
        return str(user.pk), "-"
    return "-", "-"


class RequestContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        request = _current.get()
        if request is None:
            record.request_id, record.user, record.table = "-", "-", "-"
        else:
            record.request_id = request.request_id
            record.user, record.table = _principal(request)
        return True


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        request.request_id = given if _ID.fullmatch(given) else uuid.uuid4().hex
        # kept until the response is closed (``request_finished``), so that Django's own
        # log line of a 4xx/5xx, written after the middleware, carries the id too
        _current.set(request)
        started = time.monotonic()
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        access_log.info("%s %s %s %.0fms", request.method, request.path,
                        response.status_code, (time.monotonic() - started) * 1000,
                        extra={"method": request.method, "path": request.path,
                               "status": response.status_code})
        return response


def _forget_request(**kwargs) -> None:
    _current.set(None)


request_finished.connect(_forget_request, dispatch_uid="request_log.forget_request")
