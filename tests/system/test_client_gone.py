"""A read whose client gave up while it waited is not answered (``config/client_gone.py``).

From outside: the image's gunicorn with one synchronous worker, held by a client that
sends its request slowly; meanwhile a phone's poll is queued and the phone gives up (it
closes the connection). When the worker takes the poll up, no view runs for it: the
app's log line shows 499. Then, in process with real TCP sockets: which requests are shed
and which are answered, and the API's JSON for it.
"""

from __future__ import annotations

import socket
import struct

import pytest

from config.client_gone import STATUS, gone
from tests.system.conftest import accept_queue, wait_for
from tests.system.servers import one_sync_worker

# as the proxy in front hands it on (production redirects plain HTTP)
REQUEST = ("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n"
           "X-Forwarded-Proto: https\r\n\r\n")


def connected_pair() -> tuple[socket.socket, socket.socket]:
    """A real TCP connection on the loopback: (client, server) sides."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        server, _address = listener.accept()
    return client, server


def answer(sock: socket.socket, timeout: float = 30) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.serial  # the one worker must be reading the slow request within its pause
def test_a_poll_whose_phone_gave_up_in_the_queue_runs_no_view(tmp_path):
    server, port, log = one_sync_worker(tmp_path)
    try:
        # the one worker reads a request that arrives slowly …
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n")
        wait_for(lambda: accept_queue(port) == 0, 10, "the worker to take the slow request")
        # … while a phone's poll waits in the queue, and the phone gives up
        phone = socket.create_connection(("127.0.0.1", port))
        phone.sendall(REQUEST.format(path="/api/v1/tournaments/").encode())
        phone.close()
        # and another phone's poll waits, still there
        patient = socket.create_connection(("127.0.0.1", port))
        patient.sendall(REQUEST.format(path="/api/v1/tournaments/?limit=1").encode())
        wait_for(lambda: accept_queue(port) == 2, 10, "both polls in the queue")
        slow.sendall(b"\r\n")
        assert answer(slow).startswith(b"HTTP/1.1 200")
        assert answer(patient).startswith(b"HTTP/1.1 200")
        slow.close()
        patient.close()
        # the app's line per request (config.request_log): method, path, status
        wait_for(lambda: "GET /api/v1/tournaments/ 200 " in log.read_text(),
                 30, "the patient poll's log line")
        text = log.read_text()
        assert "GET /api/v1/tournaments/ 499 " in text, text
        assert "client gone before GET /api/v1/tournaments/" in text
    finally:
        server.stop()
    assert "Traceback" not in log.read_text()


@pytest.mark.django_db
def test_a_read_of_a_closed_connection_is_shed_as_json_under_the_api(client):
    phone, server = connected_pair()
    try:
        phone.close()
        wait_for(lambda: gone(server), 5, "the end of stream")
        resp = client.get("/api/v1/tournaments/", HTTP_ACCEPT_LANGUAGE="de",
                          **{"gunicorn.socket": server})
        assert resp.status_code == STATUS
        assert resp.json() == {
            "detail": "Die Verbindung wurde geschlossen, bevor die Anfrage beantwortet wurde.",
            "code": "client_closed"}
        # a page: the bare status, nothing rendered
        resp = client.get("/", **{"gunicorn.socket": server})
        assert resp.status_code == STATUS and resp.content == b""
    finally:
        server.close()


@pytest.mark.django_db
def test_a_client_still_there_is_answered_and_a_write_is_never_shed(client):
    phone, server = connected_pair()
    try:
        assert not gone(server)
        resp = client.get("/api/v1/tournaments/", **{"gunicorn.socket": server})
        assert resp.status_code == 200
        # a pipelined request behind it: the client is there
        phone.sendall(REQUEST.format(path="/healthz").encode())
        wait_for(lambda: server.recv(1, socket.MSG_PEEK), 5, "the pipelined request")
        assert not gone(server)
        # a write whose client closed its side (a half-close looks the same) is carried
        # out: here it reaches the view, which refuses an anonymous caller
        phone.shutdown(socket.SHUT_WR)
        server.recv(65536)
        wait_for(lambda: gone(server), 5, "the end of stream")
        resp = client.post("/api/v1/clubs/", {}, content_type="application/json",
                           **{"gunicorn.socket": server})
        assert resp.status_code in (401, 403)
    finally:
        phone.close()
        server.close()


def test_a_reset_connection_counts_as_gone():
    phone, server = connected_pair()
    try:
        # SO_LINGER on with 0 s: closing sends a reset instead of an end of stream
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        phone.close()
        wait_for(lambda: gone(server), 5, "the reset")
    finally:
        server.close()
