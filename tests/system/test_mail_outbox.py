"""The mail outbox with a real Redis, a real Celery worker with beat, gunicorn and a mail
server (a small SMTP sink in this process), not mocked (issue 52): sign-ups while Redis
is down get their mails once Redis is back, sign-ups while the mail server is down get
theirs once it is back — each mail exactly once, its link on ``SITE_URL`` — and a
worker killed (``kill -9``) in the middle of a send leaves a mail that a new worker's
sweep sends, the possible double written on the row."""

import socketserver
import threading
from collections import Counter

import pytest

from signup.models import Mail
from signup.services.registrations import registration_configure
from tests.system.conftest import (
    Web,
    celery_worker,
    free_port,
    needs_services,
    service_env,
    wait_for,
)
from tests.system.test_standings_workers import start
from tournaments.services import tournament_create

pytestmark = [needs_services, pytest.mark.django_db(transaction=True)]

SITE = "https://skat.example.org"


class SmtpSink:
    """Just enough SMTP to take mails: ``received`` holds each message's recipients and
    text. ``stop`` closes the port (the server is down), ``start`` opens it again.

    ``hold`` holds the first conversation open until ``release`` is set, ``holding`` set
    meanwhile: ``"data"`` in the DATA phase, then drops it unread (its sender died before
    the message's end: nothing delivered), ``"reply"`` after the whole message, before
    the server's "250" (the mail is delivered, its sender cannot know)."""

    def __init__(self, hold: str | None = None):
        self.port = free_port()
        self.received: list[tuple[list[str], str]] = []
        self.server = None
        self.hold = hold
        self.holding, self.release = threading.Event(), threading.Event()

    def held(self) -> bool:
        """Whether this is the conversation to hold: the first to get there."""
        if self.hold is None or self.holding.is_set():
            return False
        self.holding.set()
        return self.release.wait(60)

    def start(self):
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line: str):
                self.wfile.write(line.encode() + b"\r\n")

            def handle(self):
                try:
                    self.converse()
                except OSError:  # the sender is gone (killed): an unfinished mail is lost
                    pass

            def converse(self):
                self.reply("220 sink")
                to, data = [], None
                for raw in self.rfile:
                    line = raw.decode(errors="replace").rstrip("\r\n")
                    if data is not None:
                        if line == ".":
                            sink.received.append((to, "\n".join(data)))
                            to, data = [], None
                            if sink.hold == "reply":
                                sink.held()
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
                        if sink.hold == "data" and sink.held():
                            return  # its sender died before the message's end: dropped
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
        self.release.set()
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


def mail_env(redis_server, sink, **extra):
    return service_env(redis_server, **{
        "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(sink.port), "EMAIL_TIMEOUT": "2",
        "SITE_URL": SITE, "MAIL_SWEEP_SECONDS": "2", "REGISTRATION_RATE": "1000/min",
        **extra})


def services(redis_server, processes, tmp_path, sink, **extra):
    env = mail_env(redis_server, sink, **extra)
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


# The outbox's backoff shrunk thirtyfold (30 s doubling to ten minutes: 1 s doubling to
# 20 s). An outage is as long as the failed tries of the first mail in it: four tries
# (at 0, 30, 90 and 210 s) is a mail server down four minutes, five (the fifth at 450 s,
# the next 480 s later) fifteen minutes.
SHRUNK = {"MAIL_FIRST_RETRY_SECONDS": "1", "MAIL_LONGEST_RETRY_SECONDS": "20"}


@pytest.mark.parametrize("failed_tries", [4, 5], ids=["4 minutes", "15 minutes"])
def test_a_long_mail_server_outage_delivers_every_mail_once_after_it(
        redis_server, processes, tmp_path, sink, failed_tries):
    tournament = open_event()
    web = services(redis_server, processes, tmp_path, sink, **SHRUNK)
    sink.stop()
    for n in range(2):
        sign_up(web, tournament, n)
    first = Mail.objects.get(to="p0@example.org")

    def failed(times):
        return lambda: Mail.objects.filter(pk=first.pk, status="pending",
                                           attempts__gte=times).exists()

    wait_for(failed(2), 30, "two failed tries")
    sign_up(web, tournament, 2)  # in the middle of the outage
    wait_for(failed(failed_tries), 60, f"{failed_tries} failed tries")
    assert sink.received == []
    sink.start()
    # the next try comes at most the longest pause (20 s) after the server is back
    wait_for(lambda: all_sent(3), 20 + 30, "the mails after the outage")
    assert sink.recipients() == {f"p{n}@example.org": 1 for n in range(3)}
    first.refresh_from_db()
    # tried again after growing pauses: the server back, the very next try went out
    assert first.attempts == failed_tries + 1
    assert not Mail.objects.filter(doubtful__gt=0).exists()


@pytest.mark.parametrize("hold", ["data", "reply"])
def test_a_worker_killed_during_a_send_leaves_a_mail_that_is_sent_with_a_note(
        redis_server, processes, tmp_path, hold):
    """``data``: the worker dies while the message goes over (nothing delivered);
    ``reply``: after the server took it, before its answer (delivered, unknown to the
    sender). Either way the row waits "sending" until it is stale, then a new worker's
    sweep sends it and writes the possible double on it; only the second arrives twice."""
    sink = SmtpSink(hold)
    sink.start()
    try:
        tournament = open_event()
        # stale after max(1 s, 3 x EMAIL_TIMEOUT): 12 s, instead of ten minutes
        env = mail_env(redis_server, sink, EMAIL_TIMEOUT="4", MAIL_SENDING_STALE_SECONDS="1")
        web = start(processes, Web(env, tmp_path / "web.log"))
        worker = start(processes, celery_worker(env, tmp_path / "worker.log"))
        sign_up(web, tournament, 0)
        assert sink.holding.wait(60), "the mail never reached the mail server"
        worker.kill()  # kill -9, the worker and its pool
        mail = Mail.objects.get()
        assert mail.status == "sending" and mail.doubtful == 0
        sink.release.set()
        start(processes, celery_worker(env, tmp_path / "worker2.log"))
        wait_for(lambda: all_sent(1), 60, "the sweep to send the mail again")
        mail.refresh_from_db()
        assert mail.doubtful == 1 and mail.attempts == 2
        assert "may arrive twice" in mail.note
        assert sink.recipients() == {"p0@example.org": 1 if hold == "data" else 2}
        assert all(f"{SITE}/me/" in text for _to, text in sink.received)
    finally:
        sink.stop()
