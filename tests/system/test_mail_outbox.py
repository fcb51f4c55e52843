"""The mail outbox with a real Redis, a real Celery worker with beat, gunicorn and a mail
server (a small SMTP sink in this process), not mocked (issue 52): sign-ups while Redis
is down get their mails once Redis is back, sign-ups while the mail server is down get
theirs once it is back — each mail exactly once, its link on ``SITE_URL``."""

import socketserver
import threading
from collections import Counter

import pytest

from tests.system.conftest import (
    Web,
    celery_worker,
    free_port,
    needs_services,
    service_env,
    wait_for,
)
from tests.system.test_standings_workers import start
from tournaments.models import Mail
from tournaments.services import tournament_create
from tournaments.services.registrations import registration_configure

pytestmark = [needs_services, pytest.mark.django_db(transaction=True)]

SITE = "https://skat.example.org"


class SmtpSink:
    """Just enough SMTP to take mails: ``received`` holds each message's recipients and
    text. ``stop`` closes the port (the server is down), ``start`` opens it again."""

    def __init__(self):
        self.port = free_port()
        self.received: list[tuple[list[str], str]] = []
        self.server = None

    def start(self):
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line: str):
                self.wfile.write(line.encode() + b"\r\n")

            def handle(self):
                self.reply("220 sink")
                to, data = [], None
                for raw in self.rfile:
                    line = raw.decode(errors="replace").rstrip("\r\n")
                    if data is not None:
                        if line == ".":
                            sink.received.append((to, "\n".join(data)))
                            to, data = [], None
                            self.reply("250 queued")
                        else:
                            data.append(line[1:] if line.startswith("..") else line)
                        continue
                    verb = line[:4].upper()
                    if verb == "RCPT":
                        to.append(line.split(":", 1)[1].strip(" <>"))
                    if verb == "DATA":
                        data = []
                        self.reply("354 go on")
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:
                        self.reply("250 ok")

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def recipients(self) -> Counter:
        return Counter(address for to, _text in self.received for address in to)


@pytest.fixture
def sink():
    server = SmtpSink()
    server.start()
    yield server
    server.stop()


def open_event():
    tournament = tournament_create(name="Preisskat", game="skat", published=True)
    registration_configure(tournament_id=tournament.pk, open=True, check_in=False)
    return tournament


def services(redis_server, processes, tmp_path, sink):
    env = service_env(redis_server, EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(sink.port),
                      EMAIL_TIMEOUT="2", SITE_URL=SITE, MAIL_SWEEP_SECONDS="2",
                      REGISTRATION_RATE="1000/min")
    web = start(processes, Web(env, tmp_path / "web.log"))
    start(processes, celery_worker(env, tmp_path / "worker.log"))
    return web


def sign_up(web, tournament, n):
    status, body = web.request("POST", f"/api/v1/tournaments/{tournament.pk}/registrations/",
                               {"name": f"Spieler {n}", "email": f"p{n}@example.org"})
    assert status == 201, body


def all_sent(count: int) -> bool:
    return Mail.objects.filter(status="sent").count() == count


def test_sign_ups_while_redis_is_down_get_their_mail_once_it_is_back(
        redis_server, processes, tmp_path, sink):
    tournament = open_event()
    web = services(redis_server, processes, tmp_path, sink)
    sign_up(web, tournament, 0)
    wait_for(lambda: all_sent(1), 30, "the first mail")
    redis_server.stop()
    for n in range(1, 6):
        sign_up(web, tournament, n)
    redis_server.start()
    wait_for(lambda: all_sent(6), 60, "the mails left behind")
    assert sink.recipients() == {f"p{n}@example.org": 1 for n in range(6)}
    assert all(f"{SITE}/me/" in text for _to, text in sink.received)


def test_sign_ups_while_the_mail_server_is_down_get_their_mail_once_it_is_back(
        redis_server, processes, tmp_path, sink):
    tournament = open_event()
    web = services(redis_server, processes, tmp_path, sink)
    sink.stop()
    for n in range(3):
        sign_up(web, tournament, n)
    wait_for(lambda: Mail.objects.filter(attempts__gte=1).count() >= 1, 30, "a failed send")
    assert sink.received == []
    sink.start()
    wait_for(lambda: all_sent(3), 120, "the mails after the outage")
    assert sink.recipients() == {f"p{n}@example.org": 1 for n in range(3)}
