"""Django's gzip for the answers a shared cache keeps (``Cache-Control: public``: the
board and its polled parts, the ranks parts, the API's standings; ``tournaments.freshness``).

Such an answer is compressed once, where it is rendered, at gzip's level 6. The proxy keeps
it compressed and sends the same bytes to every phone that asks within its lifetime, instead
of compressing it again for each of the some 100,000 polls of a championship hour.
``deploy/nginx`` asks the app for gzip in the locations that keep answers and decompresses
(``gunzip``) for a client that does not accept it. Without the proxy (``make
run``, ``make venue``) a browser gets the same compressed answer from the app.

A public answer holds nothing secret, so the random bytes Django adds against BREACH are
left out (they would make each render a different size). Every other answer is left as it
is here; the proxy compresses it per client.
"""

from django.middleware.gzip import GZipMiddleware
from django.utils.cache import cc_delim_re

# what is worth compressing: text and JSON, not a PDF list (already compressed)
TYPES = ("text/", "application/json")


def _public(response) -> bool:
    return "public" in cc_delim_re.split(response.get("Cache-Control", "").lower())


class SharedGZipMiddleware(GZipMiddleware):
    max_random_bytes = 0  # a public answer is the same for everyone: nothing to guard

    def process_response(self, request, response):
        if (response.status_code != 200 or not _public(response)
                or not response.get("Content-Type", "").startswith(TYPES)):
            return response
        return super().process_response(request, response)
