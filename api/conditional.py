"""RFC 9110 conditional reads (``If-None-Match``) of the API answers that carry an ETag of
their own content (a deal, the player's overview, a league table): ``tournaments.freshness``
compares and sets the caching headers."""

from __future__ import annotations

from tournaments.freshness import precondition_answer, tagged


class ConditionalReads:
    """For API views whose GET answers carry an ``ETag``: apply the preconditions."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        etag = response.get("ETag") if response.status_code == 200 else None
        if etag:
            return precondition_answer(request, etag) or tagged(response, etag)
        return response
