"""The director's view of the mail outbox (issue 52) in a real Chromium: on the sign-up
and check-in page, at 390 and 800 px, the counts and each mail — sent, waiting for its
next attempt, failed with the reason in words (the mail server's own message a tap
away) — with long names and addresses that wrap, never scrolling sideways. Screenshots
``mails``."""

import datetime

import pytest
from django.utils import timezone

from signup.models import Mail
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_sign_up_and_check_in import PHONE, TABLET, director_event, staff_page
from tests.factories import ParticipantFactory, PlayerFactory

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_director_reads_what_happened_to_each_mail(browser, live_server):
    from django.test import Client

    director, tournament = director_event()
    people = [("Anna Berger", "anna@example.org"),
              ("Dieter Hahnenkamm-Oberländer", "dieter.hahnenkamm-oberlaender@"
               "skatfreunde-oberhausen-sterkrade.example.org"),
              ("Carla Ruf", "carla@example.org")]
    rows = []
    for n, (name, email) in enumerate(people, start=1):
        participant = ParticipantFactory(tournament=tournament, start_number=n, email=email,
                                         player=PlayerFactory(name=name, club=None),
                                         self_registered=True)
        rows.append(Mail.objects.create(tournament=tournament, participant=participant,
                                        kind="registered", to=email))
    now = timezone.now()
    Mail.objects.filter(pk=rows[0].pk).update(status="sent", sent_at=now)
    Mail.objects.filter(pk=rows[1].pk).update(
        attempts=3, next_attempt_at=now + datetime.timedelta(minutes=2),
        note="ConnectionRefusedError: [Errno 111] Connection refused")
    Mail.objects.filter(pk=rows[2].pk).update(
        status="failed", attempts=40,
        note="SMTPRecipientsRefused: {'carla@example.org': (550, b'5.1.1 Mailbox unknown')}")

    client = Client()
    client.force_login(director)
    for viewport in (TABLET, PHONE):
        context, desk, errors = staff_page(browser, viewport, client, live_server)
        desk.goto(f"{live_server.url}/console/t/{tournament.pk}/check-in/")
        section = desk.inner_text("#mails")
        assert "Gesendet: 1" in section and "Fehlgeschlagen: 1" in section
        assert "3 Versuche fehlgeschlagen" in section
        assert "Der Mailserver hat diese Adresse abgelehnt" in section
        assert "Der Mailserver war nicht erreichbar." in section
        assert "Mailbox unknown" not in section  # the server's own words: one tap away
        desk.locator("#mails details summary").first.click()
        assert "Mailbox unknown" in desk.inner_text("#mails")
        desk.locator("#mails").scroll_into_view_if_needed()
        no_sideways_scroll(desk)
        shot(desk, "mails")
        context.close()
        assert errors == []
