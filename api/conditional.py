"""RFC 9110 conditional reads (``If-None-Match``, ``If-Match``) of every ETag'd API answer.

The comparison itself is ``tournaments.conditional`` (shared with the pages and the
standings snapshots); this mixin applies it to DRF answers that carry an ``ETag``.
"""

from __future__ import annotations

from tournaments.conditional import precondition_answer


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
