"""Conditional GET (RFC 9110 §13.1): the one place that compares a request's
preconditions with an answer's ETag — for the API, the tablet's sheet list, the board and
the standings snapshots alike.

The comparison is Django's (``django.utils.cache.get_conditional_response``):
``If-None-Match`` compares weakly (``W/"x"`` matches ``"x"``), a list matches when any of
its tags does and ``*`` matches any current representation, so a read gets 304 carrying
the ETag (and the answer's caching headers); a failed ``If-Match`` on a read is 412.
Writes check ``If-Match`` in the service, under the row lock, with ``if_match_holds``
(a strong comparison).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import get_conditional_response, parse_etags

READS = ("GET", "HEAD")


def precondition_answer(request, etag: str, headers: dict[str, str] | None = None
                        ) -> HttpResponse | None:
    """The 304 (or 412) that a read's preconditions call for, with ``headers`` (the
    ETag is always among them), else None. ``etag`` is quoted: ``"…"`` or ``W/"…"``."""
    if request.method not in READS:
        return None
    answer = get_conditional_response(request, etag=etag)
    if answer is not None:
        answer["ETag"] = etag
        for name, value in (headers or {}).items():
            answer[name] = value
    return answer


def tagged(response: HttpResponse, etag: str, headers: dict[str, str] | None = None
           ) -> HttpResponse:
    """``response`` with its ETag and ``headers`` set (the full answer of a read)."""
    response["ETag"] = etag
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def if_match_holds(header: str, etag: str) -> bool:
    """RFC 9110 §13.1.1: a strong comparison (a weak tag never matches), a list matches
    when one of its tags does, ``*`` matches any current representation."""
    tags = parse_etags(header)
    return tags == ["*"] or etag in tags
