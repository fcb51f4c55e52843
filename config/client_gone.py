"""A read whose client has gone is not answered: no view runs for it.

On a busy day a request can wait in the listening socket's queue longer than its client
waits for it (a phone's poll gives up after its timeout, a browser tab is closed, the
Wi-Fi drops). Gunicorn then hands the worker a request whose answer nobody will read,
and the worker renders it all the same: on the championship day (bench/README, runs
18–19) a fifth of the polls timed out at the client while the server still answered
each of them later, in the time of the polls still waiting.

``ClientGoneMiddleware`` looks, before any view, whether the client has closed its side
of the connection: the request was read, and the socket holds nothing but the client's
end of stream (a non-blocking peek returns ``b""``) or was reset. Then a safe request
(GET, HEAD) is answered at once with 499, the status proxies such as nginx log for a
client that closed its request (under ``/api/`` the JSON error of ``api.middleware``).
Nothing is read or written in the database, and nothing is rendered.

Only safe methods: a client may legitimately close its sending side after a body and
still read the answer (a half-close looks the same from here), and a write must then
still happen once. A 499 to such a client costs it one poll; a write is never dropped.

The socket is gunicorn's (``environ["gunicorn.socket"]``, sync and threaded workers);
without one (Django's test server, another WSGI server) or on a TLS socket (which
cannot peek) every request is answered.
"""

from __future__ import annotations

import logging
import socket

from django.http import HttpResponse

log = logging.getLogger(__name__)

STATUS = 499
REASON = "Client Closed Request"
SAFE = frozenset({"GET", "HEAD"})


def gone(sock) -> bool:
    """Whether the peer of ``sock`` has closed or reset the connection and sent nothing
    more (a pipelined request or unread body counts as present)."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False  # the client is there and waits for its answer
    except (ValueError, NotImplementedError, AttributeError, TypeError):
        return False  # not a plain socket (TLS cannot peek): answer
    except OSError:
        return True  # reset by the client


class ClientGoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        sock = request.META.get("gunicorn.socket")
        if sock is not None and request.method in SAFE and gone(sock):
            log.info("client gone before %s %s was answered", request.method, request.path)
            return HttpResponse(b"", status=STATUS, reason=REASON, content_type="text/plain")
        return self.get_response(request)
