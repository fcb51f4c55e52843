"""RFC 9110 conditional reads (``If-None-Match``, ``If-Match``) of every ETag'd answer.

The comparison is Django's (``django.utils.cache.get_conditional_response``): weak tags
(``W/"…"``) compare weakly for ``If-None-Match``, a list matches when any tag does, and
``*`` matches any current representation, so a GET gets 304; a failed ``If-Match`` on a
read is 412. Writes check ``If-Match`` in the service, under the row lock, instead.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import get_conditional_response

READS = ("GET", "HEAD")


def precondition_answer(request, etag: str, headers: dict[str, str]) -> HttpResponse | None:
    """The 304 or 412 that the request's preconditions call for, else None."""
    if request.method not in READS:
        return None
    answer = get_conditional_response(request, etag=etag)
    if answer is not None:
        for name, value in headers.items():
            answer[name] = value
    return answer


class ConditionalReads:
    """For API views whose GET answers carry an ``ETag``: apply the preconditions."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        etag = response.get("ETag") if response.status_code == 200 else None
        if etag:
            headers = {name: response[name] for name in ("ETag", "Cache-Control", "Vary")
                       if response.has_header(name)}
            answer = precondition_answer(request, etag, headers)
            if answer is not None:
                return answer
        return response
