"""How the image's gunicorn queues connections (``gunicorn.conf.py``), from outside, with
one synchronous worker:

- a worker takes up a connection only once its request has begun to arrive
  (``when_ready``): a client that connects and has not sent its request yet holds no
  worker, so a phone's poll behind it is answered while it stays silent, and it is
  answered too once it sends;
- the listen queue (``backlog``) holds a championship's burst of connections while the
  worker is busy: none overflows (the kernel's count of overflows stays), and every one
  is answered in turn.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.system.conftest import accept_queue, wait_for
from tests.system.servers import one_sync_worker
from tests.system.test_client_gone import REQUEST, answer

# serial: the kernel's count of dropped connections is the whole machine's
pytestmark = [pytest.mark.serial,
              pytest.mark.skipif(not hasattr(socket, "TCP_DEFER_ACCEPT"),
                                 reason="TCP_DEFER_ACCEPT is Linux's")]


# more connections at once than gunicorn's default queue (2,048) holds: the phones of a
# championship polling after a draw
BURST = 2_500


def listen_overflows() -> int:
    """The kernel's count of connections a full listen queue dropped (this network)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    for names, values in zip(lines[::2], lines[1::2], strict=True):
        if names.startswith("TcpExt:"):
            return int(dict(zip(names.split()[1:], values.split()[1:],
                                strict=True))["ListenOverflows"])
    raise AssertionError("no TcpExt counters")


def test_a_client_that_has_not_sent_its_request_holds_no_worker(tmp_path):
    server, port, log = one_sync_worker(tmp_path)
    silent = socket.create_connection(("127.0.0.1", port))
    try:
        phone = socket.create_connection(("127.0.0.1", port))
        phone.sendall(REQUEST.format(path="/api/v1/tournaments/").encode())
        # the one worker answers the poll (without the deferred accept it would wait on
        # the silent connection until gunicorn's 30-s timeout killed it)
        assert answer(phone, timeout=10).startswith(b"HTTP/1.1 200")
        phone.close()
        silent.setblocking(False)
        with pytest.raises(BlockingIOError):  # still open, nothing answered to it
            silent.recv(1)
        silent.setblocking(True)
        silent.sendall(REQUEST.format(path="/healthz").encode())
        assert answer(silent).startswith(b"HTTP/1.1 200")
    finally:
        silent.close()
        server.stop()
    assert "Traceback" not in log.read_text() and "WORKER TIMEOUT" not in log.read_text()


def test_a_burst_of_connections_waits_in_the_queue_and_none_is_dropped(tmp_path):
    server, port, log = one_sync_worker(tmp_path)
    clients: list[socket.socket] = []
    # the one worker reads a request that arrives slowly, so the burst must queue
    slow = socket.create_connection(("127.0.0.1", port))
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n")
        wait_for(lambda: accept_queue(port) == 0, 10, "the worker to take the slow request")
        before = listen_overflows()
        for _ in range(BURST):
            try:  # a full queue drops the connection: the client's TCP tries again later
                client = socket.create_connection(("127.0.0.1", port), timeout=5)
            except TimeoutError:
                break
            client.sendall(REQUEST.format(path="/healthz").encode())
            clients.append(client)
        wait_for(lambda: accept_queue(port) >= len(clients), 10, "the burst in the queue")
        overflowed = listen_overflows() - before
        slow.sendall(b"\r\n")
        assert answer(slow).startswith(b"HTTP/1.1 200")
        slow.close()  # gunicorn waits for the client's end of the connection
        answered = 0
        for client in clients:
            answered += answer(client).startswith(b"HTTP/1.1 200")
            client.close()
        assert (len(clients), overflowed, answered) == (BURST, 0, BURST)
    finally:
        for client in (slow, *clients):
            client.close()
        server.stop()
    assert "Traceback" not in log.read_text()
