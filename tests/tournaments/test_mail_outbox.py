"""The mail outbox (issue 52): every mail a row written with the change that causes it,
sent after the commit by the Celery task (in process here), swept by beat for what is
left behind, sent once, tried again with backoff for a day, then failed with the reason,
and shown to the director. Mails land in Django's test outbox (``mail.outbox``)."""

import datetime
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from signup.mails import mails_sweep
from signup.models import Mail
from signup.services.registrations import registration_configure
from signup.tasks import sweep_mails
from tests.conftest import player_client
from tournaments.models import Participant

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _mails_in_process(in_process_tasks, settings):
    """The tasks run in process after the commit (also in CI's Redis pass); the site is
    reached as skat.example.org, without SITE_URL."""
    settings.ALLOWED_HOSTS = ["skat.example.org", "testserver"]
    settings.SITE_URL = None


@pytest.fixture
def open_event(tournament):
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=False, cap=1)
    return tournament


def sign_up(client, tournament, **body):
    return client.post(f"/api/v1/tournaments/{tournament.pk}/registrations/", body,
                       format="json", HTTP_HOST="skat.example.org")


def past(**delta) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(**delta)


def test_the_mail_is_a_row_sent_after_the_commit_with_an_absolute_link(
        open_event, anon_client, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resp = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    assert resp.status_code == 201, resp.content
    row = Mail.objects.get()
    assert (row.status, row.to, row.kind) == ("pending", "anna@example.org", "registered")
    assert mail.outbox == []  # not before the commit
    for callback in callbacks:
        callback()
    row.refresh_from_db()
    assert row.status == "sent" and row.sent_at is not None
    [sent] = mail.outbox
    assert sent.to == ["anna@example.org"]
    token = Participant.objects.get(tournament=open_event).personal_token
    assert f"http://skat.example.org/me/{token}/" in sent.body
    assert "Guten Tag Anna Berger" in sent.body or "Hallo Anna Berger" in sent.body


def test_site_url_wins_over_the_request_address(open_event, anon_client, settings,
                                                django_capture_on_commit_callbacks):
    settings.SITE_URL = "https://turnier.example.org"
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    assert "https://turnier.example.org/me/" in mail.outbox[0].body


def test_a_row_left_pending_is_sent_by_the_sweep_exactly_once(
        open_event, anon_client, django_capture_on_commit_callbacks):
    # the commit's hand-over never ran: the broker was down, or the worker was killed
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
        sign_up(anon_client, open_event, name="Bernd Ott", email="bernd@example.org")
    assert mail.outbox == []
    assert sweep_mails.delay().get() == 2  # beat's task
    assert mails_sweep() == 0
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "bernd@example.org"]
    assert "Warteliste" in next(m for m in mail.outbox if m.to == ["bernd@example.org"]).body
    assert set(Mail.objects.values_list("status", flat=True)) == {"sent"}


def test_a_mail_server_outage_is_retried_with_backoff_then_sent_once(
        open_event, anon_client, settings, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    with django_capture_on_commit_callbacks(execute=True):
        resp = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    assert resp.status_code == 201
    row = Mail.objects.get()
    assert (row.status, row.attempts) == ("pending", 1)
    assert "ConnectionRefusedError" in row.note
    first_wait = row.next_attempt_at - timezone.now()
    assert datetime.timedelta(seconds=20) < first_wait <= datetime.timedelta(seconds=30)
    assert mails_sweep() == 0  # not due yet
    Mail.objects.update(next_attempt_at=past(seconds=1))
    assert mails_sweep() == 0
    row.refresh_from_db()
    assert row.attempts == 2
    assert row.next_attempt_at - timezone.now() > datetime.timedelta(seconds=50)  # doubled
    # the server is back
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    Mail.objects.update(next_attempt_at=past(seconds=1))
    assert mails_sweep() == 1
    assert mails_sweep() == 0
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]
    assert Mail.objects.get().status == "sent"


def test_without_beat_the_command_sends_what_was_left(
        open_event, anon_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    out = io.StringIO()
    call_command("send_mails", stdout=out)
    assert "sent 1 mail" in out.getvalue() and len(mail.outbox) == 1
    call_command("send_mails", stdout=out)
    assert len(mail.outbox) == 1


def test_an_unreachable_mail_server_ends_the_sweep_the_rest_wait(
        open_event, anon_client, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
        sign_up(anon_client, open_event, name="Bernd Ott", email="bernd@example.org")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    assert mails_sweep() == 0
    assert sorted(Mail.objects.values_list("attempts", flat=True)) == [0, 1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    Mail.objects.update(next_attempt_at=past(seconds=1))
    assert mails_sweep() == 2 and len(mail.outbox) == 2


def test_failed_sends_are_retried_for_a_day_then_failed_with_the_reason(
        open_event, anon_client, settings, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    Mail.objects.update(created_at=past(hours=23, minutes=50))
    mails_sweep()
    assert Mail.objects.get().status == "pending"  # still within the day
    Mail.objects.update(created_at=past(hours=24, minutes=1), next_attempt_at=past(seconds=1))
    mails_sweep()
    row = Mail.objects.get()
    assert row.status == "failed" and "ConnectionRefusedError" in row.note
    Mail.objects.update(next_attempt_at=past(seconds=1))
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert mails_sweep() == 0 and mail.outbox == []


def test_a_send_that_may_have_happened_is_sent_again_only_with_the_decision_noted(
        open_event, anon_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    # a worker claimed it and was killed during the send
    Mail.objects.update(status="sending", claimed_at=past(minutes=1), attempts=1)
    assert mails_sweep() == 0 and mail.outbox == []  # maybe still sending
    Mail.objects.update(claimed_at=past(minutes=11))
    assert mails_sweep() == 1
    row = Mail.objects.get()
    assert row.status == "sent" and row.doubtful == 1 and "twice" in row.note
    assert len(mail.outbox) == 1


def test_a_cancel_then_leaves_no_unsent_mail(open_event, anon_client,
                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        resp = sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    participant = Participant.objects.get(tournament=open_event)
    with django_capture_on_commit_callbacks(execute=True):
        assert player_client(participant).delete("/api/v1/me/registration/").status_code == 204
    assert resp.status_code == 201
    assert sorted(Mail.objects.values_list("kind", "status")) == [
        ("cancelled", "sent"), ("registered", "sent")]
    assert len(mail.outbox) == 2


def test_the_director_sees_pending_sent_and_failed_mails_with_the_reason(
        open_event, anon_client, client, director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Bernd Ott", email="bernd@example.org")
        sign_up(anon_client, open_event, name="Carla Ruf", email="carla@example.org")
    Mail.objects.filter(to="carla@example.org").update(
        status="failed", note="SMTPRecipientsRefused: carla@example.org refused")
    client.force_login(director)
    page = client.get(f"/console/t/{open_event.pk}/check-in/",
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    mails = page[page.index('id="mails"'):]
    assert "Gesendet: 1" in mails and "Wartet auf Versand: 1" in mails
    assert "Fehlgeschlagen: 1" in mails
    assert "carla@example.org refused" in mails
    assert "Anna Berger" in mails and "bernd@example.org" in mails


def manage_check(**env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("SITE_URL", "EMAIL_HOST", "DJANGO_SETTINGS_MODULE")}
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, text=True,
                          capture_output=True, timeout=120,
                          env={**environ, "DEBUG": "false", **env})


def test_a_production_start_with_a_mail_server_and_no_site_url_is_refused():
    refused = manage_check(EMAIL_HOST="smtp.example.org")
    assert refused.returncode != 0 and "stichliste.E001" in refused.stderr
    assert "SITE_URL" in refused.stderr
    assert manage_check(EMAIL_HOST="smtp.example.org",
                        SITE_URL="https://skat.example.org").returncode == 0
    assert manage_check().returncode == 0  # no mail server named: nothing to link


def test_the_director_reads_why_a_mail_failed_in_words(
        open_event, anon_client, client, director, settings,
        django_capture_on_commit_callbacks):
    """The reason is said in German words; the mail server's own message (English, with
    status codes) stays one tap away, not in the director's line."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    with django_capture_on_commit_callbacks(execute=False):
        sign_up(anon_client, open_event, name="Anna Berger", email="anna@example.org")
        sign_up(anon_client, open_event, name="Carla Ruf", email="carla@example.org")
    Mail.objects.filter(to="carla@example.org").update(
        status="failed", note="SMTPRecipientsRefused: {'carla@example.org': "
                              "(550, b'5.1.1 Mailbox unknown')}")
    mails_sweep()  # Anna's: the mail server is not reached, tried again later
    assert "ConnectionRefusedError" in Mail.objects.get(to="anna@example.org").note
    client.force_login(director)
    page = client.get(f"/console/t/{open_event.pk}/check-in/",
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    mails = page[page.index('id="mails"'):]
    assert "Der Mailserver war nicht erreichbar." in mails
    assert "Der Mailserver hat diese Adresse abgelehnt" in mails
    said = [line for line in mails.split("<br>") if "Mailbox unknown" in line
            or "ConnectionRefusedError" in line]
    assert said and all("<details" in line for line in said)
