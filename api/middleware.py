"""Every answer under ``/api/`` is JSON, errors included, in the request's language.

DRF's views answer JSON themselves; what reaches a client without passing through them is
Django's: a path that matches no route (404, also ``/api/v1/tables/abc/``), a disallowed
``Host`` (400), a failed CSRF check outside DRF, a conditional request's 412, and the 500
of an unhandled exception. ``ApiErrorsMiddleware`` sits first in ``MIDDLEWARE`` and turns
each error answer under ``/api/`` that is not JSON into ``{"detail", "code"}``, and so
each redirect (a path without its trailing slash, plain HTTP where HTTPS is required),
keeping its ``Location``.

It also answers 413 for a body announced larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``
before any view runs, after reading (and dropping) the body up to ``DRAIN_FACTOR`` times
the limit: a server that answers without reading the body makes the client see a
connection reset instead of the answer. The parsers (``api.parsers``) refuse a body over
its endpoint's bound, announced or not.

And it answers 414 for a request line (method, target, protocol) over
``MAX_REQUEST_LINE`` bytes and 431 for a header line (name and value) over
``MAX_HEADER_LINE`` bytes. Gunicorn's own limits (``gunicorn.conf.py``) lie above these,
so that its HTML answers appear only beyond them.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from django.utils.encoding import iri_to_uri
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

PREFIX = "/api/"
DRAIN_FACTOR = 8
MAX_REQUEST_LINE = 4096
MAX_HEADER_LINE = 8192
_CHUNK = 65536


def _messages() -> dict[int, tuple[str, str]]:
    return {
        400: (_("Bad request."), "bad_request"),
        401: (_("Authentication credentials were not provided."), "not_authenticated"),
        403: (_("You do not have permission to perform this action."), "permission_denied"),
        404: (_("Not found."), "not_found"),
        405: (_("This method is not allowed here."), "method_not_allowed"),
        412: (_("The resource has changed since you read it; reload and try again."),
              "precondition_failed"),
        413: (_("The body is larger than %(limit)s bytes.")
              % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}, "too_large"),
        414: (_("The request line (method, address and query) is longer than %(limit)s "
                "bytes.") % {"limit": MAX_REQUEST_LINE}, "uri_too_long"),
        415: (_("Send the body as application/json."), "unsupported_media_type"),
        301: (_("This resource is at the address in Location."), "moved"),
        302: (_("This resource is at the address in Location."), "moved"),
        307: (_("This resource is at the address in Location."), "moved"),
        308: (_("This resource is at the address in Location."), "moved"),
        429: (_("Too many requests; try again later."), "throttled"),
        431: (_("A request header is longer than %(limit)s bytes.")
              % {"limit": MAX_HEADER_LINE}, "header_too_large"),
        499: (_("The connection was closed before the request was answered."),
              "client_closed"),
        500: (_("A server error occurred; it has been logged."), "server_error"),
    }


def json_error(request, status: int, headers: dict | None = None) -> HttpResponse:
    """``{"detail", "code"}`` for ``status`` in the language the request asks for."""
    with translation.override(translation.get_language_from_request(request)):
        detail, code = _messages().get(status, (_("The request failed."), "error"))
        language = translation.get_language()
    response = HttpResponse(json.dumps({"detail": detail, "code": code}), status=status,
                            content_type="application/json")
    response["Content-Language"] = language
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _is_json(response) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip().endswith("json")


def _announced_length(request) -> int | None:
    raw = request.META.get("CONTENT_LENGTH") or "0"
    return int(raw) if raw.isascii() and raw.isdigit() else None


def request_line_bytes(request) -> int:
    """The length of ``METHOD target PROTOCOL`` as the client sent it (gunicorn keeps the
    raw target in ``RAW_URI``; otherwise it is rebuilt from path and query)."""
    meta = request.META
    target = meta.get("RAW_URI") or meta.get("REQUEST_URI") or iri_to_uri(
        request.get_full_path())
    return (len(meta.get("REQUEST_METHOD", "")) + len(target)
            + len(meta.get("SERVER_PROTOCOL", "HTTP/1.1")) + 2)


def longest_header_line(request) -> int:
    """The longest ``Name: value`` of the request's headers (WSGI keeps them as
    ``HTTP_*``, plus ``CONTENT_TYPE`` and ``CONTENT_LENGTH``)."""
    longest = 0
    for key, value in request.META.items():
        if key.startswith("HTTP_"):
            name = len(key) - len("HTTP_")
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            name = len(key)
        else:
            continue
        if isinstance(value, str):
            longest = max(longest, name + 2 + len(value))
    return longest


def _drain(request, length: int) -> None:
    """Read the announced body up to DRAIN_FACTOR times the limit, dropping it."""
    left = min(length, DRAIN_FACTOR * settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    stream = request.META.get("wsgi.input")
    try:
        while left > 0 and stream is not None:
            chunk = stream.read(min(_CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
    except OSError:  # the client went away; nothing to answer then
        pass


def _release_body(response) -> None:
    """Cut DRF's request, view and response apart once the answer is rendered. They refer
    to each other (the parser's context names the request and the view, the renderer's
    the view and the request, the view the response), so the parsed body waited for the
    cyclic collector, which then walked all of it during some later request: 100 to 400
    ms for a body of 830,000 empty lists (issue 52). Cut, it goes with this request."""
    context = getattr(response, "renderer_context", None)
    if not context:
        return
    response.renderer_context = {}  # read while rendering, which is done
    drf_request = context.get("request")
    if drf_request is not None and isinstance(drf_request.parser_context, dict):
        drf_request.parser_context = {}  # read while parsing, which is done


class ApiErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        if request_line_bytes(request) > MAX_REQUEST_LINE:
            return json_error(request, 414)
        if longest_header_line(request) > MAX_HEADER_LINE:
            return json_error(request, 431)
        length = _announced_length(request)
        if length is None:
            return json_error(request, 400)
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            _drain(request, length)
            return json_error(request, 413)
        response = self.get_response(request)
        _release_body(response)
        status = response.status_code
        if _is_json(response) or response.streaming or status < 300 or status == 304:
            return response
        # Django's own answers: errors, and the redirects of a missing trailing slash
        # (CommonMiddleware) or of plain HTTP (SecurityMiddleware), which keep Location
        headers = {name: response[name] for name in ("Allow", "Retry-After", "X-Request-ID",
                                                     "Location")
                   if response.has_header(name)}
        return json_error(request, status, headers)
