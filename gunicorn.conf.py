"""Gunicorn's settings for every way the app is served: ``config/serve.py`` names this file
for the image, docker compose, ``make venue`` and the system tests; options on the command
line (bind, workers) win over it.

Gunicorn answers a request it cannot parse itself, with an HTML page, before Django sees
it. Its limits are therefore set above the API's own (``api.middleware``: a request line
over 4,096 bytes is a JSON 414, a header line over 8,192 bytes a JSON 431), so that
under ``/api/`` those answers are JSON too. Only beyond these hard limits does gunicorn's
own answer appear (see docs/operations.md, "Errors, limits and logs"):

- a request line over 8,190 bytes (gunicorn's maximum): 414;
- a header line (name and value) over 16,384 bytes, or more than 200 header fields: 431.

A connection is handed to a worker only once its request's first bytes have arrived
(``when_ready``, Linux's ``TCP_DEFER_ACCEPT``, nginx's ``deferred``). A synchronous worker
reads one request at a time: without it, a worker that takes up a connection whose
request is still on its way waits for it, while the requests behind it wait too. On a
championship day the listen queue overflows; a connection it admits late often has its
request still to be sent again by the client's TCP, and the workers spent a quarter of
their time waiting so (bench/README, "The listen queue").
"""

import socket

# the listen queue: the connections the kernel holds until a worker takes them. Gunicorn's
# default (2,048) overflowed on a championship day of 2,850 clients; a connection that
# overflows is dropped, and its client's TCP tries again after 1, 2, 4 … s, with its
# request. The system caps it (net.core.somaxconn, 4,096 on Linux since 5.4).
backlog = 4096

limit_request_line = 8190
limit_request_field_size = 16384
limit_request_fields = 200

# how long the kernel holds a connection whose request has not begun before it hands it
# to a worker all the same (a client that connects and sends nothing is answered as before)
DEFER_ACCEPT_SECONDS = 10


def when_ready(server) -> None:
    """Once the listening sockets exist, before the workers take them: defer accepting a
    TCP connection until its request's first bytes arrive (where the system can)."""
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    if option is None:  # not Linux: connections are handed over as they come
        return
    for listener in server.LISTENERS:
        if listener.sock.family in (socket.AF_INET, socket.AF_INET6):
            listener.sock.setsockopt(socket.IPPROTO_TCP, option, DEFER_ACCEPT_SECONDS)


def post_worker_init(worker) -> None:
    """Load the URLconf (every view of the API, the games, the schemas) before the worker
    takes its first request: lazily, a fresh worker's first request cost some 0.8 s of CPU
    more, and three fresh workers under three big bodies kept ``/healthz`` waiting past
    the 1 s a health check allows (issue 52, tests/system/test_body_attack.py)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports the views)
