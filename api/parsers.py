"""The one JSON parser of the API: every malformed body is a 400, never a 500.

It refuses, before any view, serializer or service sees the body:

- text that is not UTF-8, and JSON that is not JSON (``NaN``, ``Infinity``, numbers that
  overflow a float to infinity, integers longer than Python converts);
- strings (values and keys) holding a lone UTF-16 surrogate (``"\\ud800"``): JSON lets
  them be written as escapes, but they cannot be encoded as UTF-8, so nothing downstream
  (a request fingerprint, the database, an error message echoing a key) could handle them;
- nesting deeper than ``MAX_DEPTH`` (no request of the API nests more than a few levels);
- bodies longer than ``body_limit`` (413): the view's ``max_body_bytes``, declared on
  the view where its bodies need more than ``DEFAULT_MAX_BODY_BYTES`` (64 KB) or less,
  never more than ``settings.DATA_UPLOAD_MAX_MEMORY_SIZE``; without credentials at most
  ``ANONYMOUS_MAX_BODY_BYTES`` (unless the endpoint takes no credentials at all: the
  scorer). A body announced longer is refused before a byte of it is read, one that
  comes without ``Content-Length`` when it grows past the bound;
  ``api.middleware`` refuses the announced ones over the global limit earlier.

Two readers, one answer. orjson reads a body first (issue 52: ``json.loads`` of 625,000
floats alone took 117 ms of the 100 a maximal body may take), and what it read is taken
when ``json.loads`` and the checks would accept the same: the body writes no number of
19 digits or more outside its texts (orjson reads an integer beyond 64 bits as a float;
``json.loads`` keeps one of up to ``MAX_INT_DIGITS`` whole), orjson refused nothing (it
refuses NaN, infinities, lone surrogates and nesting beyond 1,024 itself) and no
container lies deeper than ``MAX_DEPTH``. Any other body is read again by ``json.loads``
with the checks, as before: what is accepted, and every refusal with its message (a
syntax error's line and column, the number too large, where a surrogate or the nesting
is), stay the standard reader's, which orjson words and places otherwise. A refused body
costs orjson's read up to the fault on top; only one with credentials can be large.

Both look at the bytes first (as UTF-8, whatever charset the body came in: a digit run
or exponent that could be too large, brackets that could nest too deep, a ``\\u`` escape
of a surrogate) and walk the parsed body only when those say so, level by level with
C's iterators; the cyclic garbage collector pauses meanwhile (``bench/bench_bodies.py``:
with it on, orjson takes as long as ``json.loads`` for 830,000 empty lists).
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import io
import json
import math
import re
from itertools import chain, compress, repeat
from operator import is_

import orjson
from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import FormParser, JSONParser

MAX_DEPTH = 32
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
DRAIN_BYTES = 8 * 2**20
# Every write's body unless its view declares ``max_body_bytes``: the largest valid body
# of an ordinary endpoint (a matchday's groups, ~30 KB with every id at its longest; a
# deal ~2 KB, a sheet summary ~5 KB) twice over.
DEFAULT_MAX_BODY_BYTES = 65_536


class FromSetting:
    """A view's ``max_body_bytes`` read from a setting whenever asked (``MAX_BODY_BYTES``
    for the few endpoints whose bodies are whole files or documents)."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, instance, owner=None) -> int:
        return getattr(settings, self.name)


LARGEST_BODY = FromSetting("DATA_UPLOAD_MAX_MEMORY_SIZE")


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self, limit: int):
        super().__init__(_("The body is larger than %(limit)s bytes.") % {"limit": limit})


class _Refused(ValueError):
    """A body that parses but is not acceptable; the message is already translated."""


MAX_INT_DIGITS = 40  # far beyond any id, count or score; a longer one is refused unread
LONG_DIGITS = re.compile(rf"\d{{{MAX_INT_DIGITS + 1}}}", re.ASCII)
TOO_LARGE = 10**MAX_INT_DIGITS
DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"0" * 9)
LONG_RUN = b"0" * (MAX_INT_DIGITS + 1)
# a float overflows to infinity only with a long mantissa (LONG_RUN) or an exponent of
# three digits or more (written with the digits turned into zeros)
BIG_EXPONENTS = tuple(e + sign + b"000" for e in (b"e", b"E") for sign in (b"", b"+", b"-"))
FLOAT_LITERAL = re.compile(r"-?\d+(?:\.\d+)?[eE][-+]?\d+|-?\d{309,}(?:\.\d+)?", re.ASCII)
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


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


def numbers_written(raw: bytes) -> bool:
    """Whether the body's text writes a digit run longer than MAX_INT_DIGITS or an
    exponent of three digits: only then may a number be too large."""
    zeros = raw.translate(DIGITS_AS_ZERO)
    return LONG_RUN in zeros or any(e in zeros for e in BIG_EXPONENTS)


BRACKETS = bytes.maketrans(b"{}", b"[]")
NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def maybe_deep(raw: bytes) -> bool:
    """Whether the body may nest more than MAX_DEPTH containers: its brackets alone, the
    innermost pairs taken away MAX_DEPTH + 1 times, leave some (brackets in texts
    count too, so a yes is checked on the parsed body). Bytes in C: a few ms."""
    brackets = raw.translate(BRACKETS, NOT_BRACKETS)
    for _level in range(MAX_DEPTH + 1):
        inner = brackets.replace(b"[]", b"")
        if inner == brackets:
            break
        brackets = inner
    return bool(brackets)


def _of_kind(values: list, types: list, kinds: set, kind: type) -> list:
    """The values of type ``kind`` (``types`` are theirs, ``kinds`` the set of them)."""
    if kind not in kinds:
        return []
    if len(kinds) == 1:
        return values
    return list(compress(values, map(is_, types, repeat(kind))))


def _check_numbers(values: list, types: list, kinds: set, text: str) -> None:
    ints = _of_kind(values, types, kinds, int)
    if ints and (max(ints) >= TOO_LARGE or min(ints) <= -TOO_LARGE):
        raise _too_large(str(next(i for i in ints if abs(i) >= TOO_LARGE)))
    floats = _of_kind(values, types, kinds, float)  # never NaN: the parser refuses it
    if floats and (max(floats) == math.inf or min(floats) == -math.inf):
        numbers = STRINGS.sub('""', text)  # only a refused body gets here
        raise _too_large(next((m for m in FLOAT_LITERAL.findall(numbers)
                               if not math.isfinite(float(m))), "∞"))


def _walk(data):
    """Every value of a parsed body with its JSON path (``$.a[0]…``) and depth, without
    recursion: for the messages of a refused body, never on the accepted path."""
    stack = [(data, "$", 0)]
    while stack:
        node, where, depth = stack.pop()
        yield node, where, depth
        if isinstance(node, dict):
            stack.extend((value, f"{where}.{key}", depth + 1) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend((value, f"{where}[{index}]", depth + 1)
                         for index, value in enumerate(node))


def _too_deep(data) -> str:
    """Where a body first nests more than MAX_DEPTH containers."""
    return next((where[:100] for node, where, depth in _walk(data)
                 if isinstance(node, dict | list) and depth > MAX_DEPTH), "$")


def _levels(data):
    """The parsed body level by level: (depth, the values at it, their types, the set of
    those), the next level gathered with C's iterators, never a Python step per value."""
    level, depth = [data], 0
    while level:
        types = list(map(type, level))
        kinds = set(types)
        yield depth, level, types, kinds
        dicts = _of_kind(level, types, kinds, dict)
        lists = _of_kind(level, types, kinds, list)
        level = list(chain(chain.from_iterable(map(dict.values, dicts)),
                           chain.from_iterable(lists)))
        depth += 1


def _nests(kinds: set) -> bool:
    return dict in kinds or list in kinds


def check_numbers_and_depth(data, text: str, *, numbers: bool) -> None:
    """A parsed body at most MAX_DEPTH containers deep and, with ``numbers``, without an
    integer of more than MAX_INT_DIGITS digits or a float that overflowed to infinity
    (the parser leaves that out when its text writes no long digit run and no exponent
    of three digits). Level by level (``_levels``): a maximal body costs a fraction of
    its parsing."""
    for depth, level, types, kinds in _levels(data):
        if numbers:
            _check_numbers(level, types, kinds, text)
        if _nests(kinds) and depth > MAX_DEPTH:
            raise _Refused(_("The body is nested more than %(depth)s levels deep, at "
                             "%(where)s.") % {"depth": MAX_DEPTH, "where": _too_deep(data)})


# orjson keeps an integer whole within 64 bits (-2**63 to 2**64 - 1) and reads one beyond
# as a float, where json.loads keeps it whole: one beyond is written with 19 digits or more
ORJSON_LONG_RUN = b"0" * 19
ZERO_RUN = re.compile(b"0*")
MOST_TEXT_RUNS = 100
NOT_PLAIN = object()


def writes_long_number(raw: bytes) -> bool:
    """Whether the body may write a number of 19 digits or more: a digit run that long
    outside its texts. For JSON, where every quote not escaped opens or closes a text,
    the quotes before a run tell (a body that is not JSON is refused by orjson anyway);
    with an escaped quote anywhere, or more than MOST_TEXT_RUNS runs, any run counts.
    In C but for a step per run: a few ms for 2.5 MB."""
    zeros = raw.translate(DIGITS_AS_ZERO)
    at = zeros.find(ORJSON_LONG_RUN)
    if at < 0:
        return False
    if b'\\"' in raw:
        return True
    quotes, seen = 0, 0
    for _run in range(MOST_TEXT_RUNS):
        quotes += raw.count(b'"', seen, at)
        if quotes % 2 == 0:
            return True
        seen = ZERO_RUN.match(zeros, at).end()
        at = zeros.find(ORJSON_LONG_RUN, seen)
        if at < 0:
            return False
    return True


def read_plain(text: str, raw: bytes, *, deep: bool):
    """The body as orjson reads it, when that is what ``json.loads`` and the checks
    accept: no number of 19 digits or more (``writes_long_number``), orjson refused
    nothing (NaN, infinity, a lone surrogate, bad syntax) and, when the brackets may
    nest too deep (``deep``), the parsed body nests at most MAX_DEPTH containers. Else
    NOT_PLAIN: the body is read again, by ``json.loads``, and checked."""
    if writes_long_number(raw):
        return NOT_PLAIN
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return NOT_PLAIN
    if deep and any(_nests(kinds) and depth > MAX_DEPTH
                    for depth, _level, _types, kinds in _levels(data)):
        return NOT_PLAIN
    return data


def check_texts(data) -> None:
    """Encodable text only, keys included: in C (the encoder refuses a lone surrogate);
    the walk that names where runs only for a body that holds one."""
    try:
        json.dumps(data, ensure_ascii=False, check_circular=False).encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return
    for node, where, _depth in _walk(data):
        if isinstance(node, str):
            _check_text(node, where)
        elif isinstance(node, dict):
            for key in node:
                _check_text(key, where)


@contextlib.contextmanager
def collection_paused():
    """The cyclic garbage collector off while a body is parsed and checked: the parsed
    body's lists are new objects the collector would walk again and again as they grow
    (a body of 800,000 empty lists parses seven times slower with it). Nothing parsed is
    garbage yet; the collector runs as usual afterwards. Another thread's pause may
    overlap: whoever paused a running collector turns it on again."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _drain(stream, most: int) -> None:
    """Read and drop up to ``most`` bytes, so that the client reads the 413 instead of a
    connection reset."""
    with contextlib.suppress(OSError):
        while most > 0 and (chunk := stream.read(min(65536, most))):
            most -= len(chunk)


def announced_length(request) -> int | None:
    """The request's ``Content-Length``, None when it has none (or no request)."""
    if request is None:
        return None
    raw = getattr(request, "_request", request).META.get("CONTENT_LENGTH") or ""
    return int(raw) if raw.isascii() and raw.isdigit() else None


def read_limited(stream, limit: int, announced: int | None = None) -> bytes:
    """At most ``limit`` bytes of the stream; BodyTooLarge when there are more, without
    reading any when ``announced`` (the ``Content-Length``) is more (the rest is read
    and dropped, up to ``DRAIN_BYTES``)."""
    if stream is None:
        return b""
    if announced is not None and announced > limit:
        _drain(stream, min(announced, DRAIN_BYTES))
        raise BodyTooLarge(limit)
    chunks, size = [], 0
    while True:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            _drain(stream, DRAIN_BYTES)
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


def view_body_bytes(view) -> int:
    """The bound a view declares (``max_body_bytes``), else DEFAULT_MAX_BODY_BYTES; never
    more than ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    own = getattr(view, "max_body_bytes", None) or DEFAULT_MAX_BODY_BYTES
    return min(own, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def anonymous_capped(view) -> bool:
    """Whether a caller without credentials gets less than the view's bound: on every
    endpoint that knows credentials; one that takes none (the scorer) is bounded for
    all alike."""
    return bool(getattr(view, "authentication_classes", True))


def body_limit(view, request) -> int:
    """The most bytes a body may have: ``view_body_bytes``, for a caller without
    credentials at most ``ANONYMOUS_MAX_BODY_BYTES`` (a login; the sign-up form declares
    less)."""
    if view is None:
        return settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    limit = view_body_bytes(view)
    if anonymous(request) and anonymous_capped(view):
        return min(limit, settings.ANONYMOUS_MAX_BODY_BYTES)
    return limit


class StrictJSONParser(JSONParser):
    """The limit is ``body_limit``'s: a view declares it with ``max_body_bytes`` (else
    DEFAULT_MAX_BODY_BYTES), and callers without credentials have a lower one."""

    def parse(self, stream, media_type=None, parser_context=None):
        context = parser_context or {}
        encoding = context.get("encoding") or "utf-8"
        limit = body_limit(context.get("view"), context.get("request"))
        raw = read_limited(stream, limit, announced_length(context.get("request")))
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(_("The body is not valid UTF-8 text.")) from None
        if codecs.lookup(encoding).name != "utf-8":  # the checks read bytes as UTF-8
            try:
                raw = text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate, written unescaped
                raise ParseError(_("The body is not valid UTF-8 text.")) from None
        deep = maybe_deep(raw)
        with collection_paused():
            data = read_plain(text, raw, deep=deep)
            if data is NOT_PLAIN:
                data = self._read_checked(text, raw, deep=deep)
        return data

    def _read_checked(self, text: str, raw: bytes, *, deep: bool):
        """The body read by ``json.loads`` and checked: the one reading of a body
        ``read_plain`` does not take, and the one that words every refusal."""
        # what a body may hold that JSON allows (a number too long, an infinite float,
        # a lone surrogate) is looked for only where its text could write it
        numbers = numbers_written(raw)
        if numbers and raw.count(b'"') < raw.count(b","):  # few texts: are they all?
            numbers = numbers_written(STRINGS.sub('""', text).encode())
        try:
            data = json.loads(text, parse_constant=_constant)
            if numbers or deep:
                check_numbers_and_depth(data, text, numbers=numbers)
            if "\\u" in text and SURROGATE_ESCAPE.search(text):
                check_texts(data)
        except _Refused as exc:
            raise ParseError(str(exc)) from None
        except json.JSONDecodeError as exc:
            raise ParseError(
                _("The body is not valid JSON (line %(line)s, column %(column)s).")
                % {"line": exc.lineno, "column": exc.colno}) from None
        except ValueError:  # an integer too long to convert: named, when it is one
            self._name_long_number(text)
            raise ParseError(_("The body is not valid JSON or holds a number too long.")) \
                from None
        except RecursionError:  # nesting deeper than the parser follows
            raise ParseError(_("The body is nested more than %(depth)s levels deep, at "
                               "%(where)s.") % {"depth": MAX_DEPTH, "where": "$"}) from None
        return data

    @staticmethod
    def _name_long_number(text: str) -> None:
        """A ParseError naming the first integer beyond MAX_INT_DIGITS, if there is one."""
        if LONG_DIGITS.search(text):
            try:
                json.loads(text, parse_int=_int, parse_constant=_constant)
            except _Refused as exc:
                raise ParseError(str(exc)) from None
            except (ValueError, RecursionError):
                pass


class BoundedFormParser(FormParser):
    """A form-encoded body (the login takes one) under the same ``body_limit``."""

    def parse(self, stream, media_type=None, parser_context=None):
        context = parser_context or {}
        limit = body_limit(context.get("view"), context.get("request"))
        raw = read_limited(stream, limit, announced_length(context.get("request")))
        return super().parse(io.BytesIO(raw), media_type, parser_context)
