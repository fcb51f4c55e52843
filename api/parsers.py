"""The one JSON parser of the API: every malformed body is a 400, never a 500.

It refuses, before any view, serializer or service sees the body:

- text that is not UTF-8, and JSON that is not JSON (``NaN``, ``Infinity``, numbers that
  overflow a float to infinity, integers longer than Python converts);
- strings (values and keys) holding a lone UTF-16 surrogate (``"\\ud800"``): JSON lets
  them be written as escapes, but they cannot be encoded as UTF-8, so nothing downstream
  (a request fingerprint, the database, an error message echoing a key) could handle them;
- nesting deeper than ``MAX_DEPTH`` (no request of the API nests more than a few levels);
- bodies longer than ``body_limit`` (413): the view's ``max_body_bytes``, else
  ``ANONYMOUS_MAX_BODY_BYTES`` without credentials, else
  ``settings.DATA_UPLOAD_MAX_MEMORY_SIZE``; also when the client sent no
  ``Content-Length``;
  ``api.middleware`` refuses the announced ones over the global limit earlier.
"""

from __future__ import annotations

import json
import math
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
DRAIN_BYTES = 8 * 2**20


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self, limit: int):
        super().__init__(_("The body is larger than %(limit)s bytes.") % {"limit": limit})


class _Refused(ValueError):
    """A body that parses but is not acceptable; the message is already translated."""


MAX_INT_DIGITS = 40  # far beyond any id, count or score; a longer one is refused unread
LONG_DIGITS = re.compile(rf"\d{{{MAX_INT_DIGITS + 1}}}", re.ASCII)


def _too_large(text: str):
    return _Refused(_("The number %(number)s is too large.")
                    % {"number": text if len(text) <= 40 else f"{text[:40]}…"})


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _too_large(text)
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _too_large(text)
    return int(text)


def _constant(name: str):
    raise _Refused(_("%(name)s is not valid JSON.") % {"name": name})


def _check_text(value: str, where: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _Refused(
            _("The body holds text that is not valid Unicode (a lone surrogate) in %(where)s.")
            % {"where": where[:100]}) from None


def check_tree(data, *, texts: bool = True) -> None:
    """Walk a parsed body without recursion: at most MAX_DEPTH deep and, with ``texts``,
    encodable text only (the parser leaves that out when the text holds no ``\\u``
    escape of a surrogate, the only way JSON can write one)."""
    stack = [(data, "$", 0)]
    while stack:
        node, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _Refused(_("The body is nested more than %(depth)s levels deep, at "
                             "%(where)s.") % {"depth": MAX_DEPTH, "where": where[:100]})
        if isinstance(node, str):
            _check_text(node, where)
        elif isinstance(node, dict):
            for key, value in node.items():
                if texts:
                    _check_text(key, where)
                if texts or isinstance(value, (dict, list)):
                    stack.append((value, f"{where}.{key}", depth + 1))
        elif isinstance(node, list):
            stack.extend((value, f"{where}[{i}]", depth + 1) for i, value in enumerate(node)
                         if texts or isinstance(value, (dict, list)))


def read_limited(stream, limit: int) -> bytes:
    """At most ``limit`` bytes of the stream; BodyTooLarge when there are more (after
    reading and dropping the rest, up to ``DRAIN_BYTES``, so that the client reads the
    413 instead of a connection reset)."""
    if stream is None:
        return b""
    chunks, size = [], 0
    while True:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            left = DRAIN_BYTES
            while left > 0 and (chunk := stream.read(min(65536, left))):
                left -= len(chunk)
            raise BodyTooLarge(limit)


def anonymous(request) -> bool:
    """A caller without credentials: no ``Authorization`` header and no logged-in session.
    Read from the HTTP request itself: asking DRF's ``request.user`` here would
    authenticate, and the session's CSRF check reads the body again (endlessly)."""
    if request is None:
        return False
    raw = getattr(request, "_request", request)
    if raw.META.get("HTTP_AUTHORIZATION"):
        return False
    user = getattr(raw, "user", None)
    return user is None or not user.is_authenticated


def body_limit(view, request) -> int:
    """The most bytes a body may have: the view's own ``max_body_bytes`` (the scorer, the
    sign-up form), else ``ANONYMOUS_MAX_BODY_BYTES`` for a caller without credentials
    (a login), else ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    own = getattr(view, "max_body_bytes", None)
    if own:
        return own
    if anonymous(request):
        return min(settings.ANONYMOUS_MAX_BODY_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


class StrictJSONParser(JSONParser):
    """The limit is ``body_limit``'s: a view may lower it with ``max_body_bytes``, and
    callers without credentials have a lower one."""

    def parse(self, stream, media_type=None, parser_context=None):
        context = parser_context or {}
        encoding = context.get("encoding") or "utf-8"
        limit = body_limit(context.get("view"), context.get("request"))
        raw = read_limited(stream, limit)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(_("The body is not valid UTF-8 text.")) from None
        try:
            # the integer hook only where a long digit run may be one (it costs a call
            # for every integer of the body)
            data = json.loads(text, parse_constant=_constant, parse_float=_float,
                              parse_int=_int if LONG_DIGITS.search(text) else None)
            check_tree(data, texts=SURROGATE_ESCAPE.search(text) is not None)
        except _Refused as exc:
            raise ParseError(str(exc)) from None
        except json.JSONDecodeError as exc:
            raise ParseError(
                _("The body is not valid JSON (line %(line)s, column %(column)s).")
                % {"line": exc.lineno, "column": exc.colno}) from None
        except RecursionError:  # nesting deeper than the JSON reader goes
            raise ParseError(_("The body is nested more than %(depth)s levels deep, at "
                               "%(where)s.") % {"depth": MAX_DEPTH, "where": "$"}) from None
        except ValueError:  # integers too long to convert
            raise ParseError(_("The body is not valid JSON or holds a number too long.")) \
                from None
        return data
