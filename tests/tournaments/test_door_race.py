"""A double tap at the door (issue 56): the same phone sends the door form twice at
once. Both requests land on the player's own page; one participant is stored. The
director's session holds the tournament's lock until both requests wait for it (seen in
PostgreSQL's ``pg_stat_activity``), so the second request can never see the first one's
session: the race is taken every time, not by chance.

SQLite serialises whole-database writes, so this runs in the PostgreSQL pass of CI.
"""

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import Client

from api.throttling import RegistrationRateThrottle
from signup.services.registrations import registration_configure
from tournaments.models import Participant, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="a double tap needs concurrent writers (PostgreSQL)"),
]


@pytest.fixture(autouse=True)
def _mails_in_process(in_process_tasks):
    """Registration mails run in process after the commit."""


def waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # a fresh look each time
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                       "current_database() AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def test_a_double_tap_at_the_door_lands_both_taps_on_the_own_page(tournament, settings):
    settings.REGISTRATION_RATE = "1000/min"
    tournament.published = True
    tournament.save()
    registration_configure(tournament_id=tournament.pk, open=True, check_in=True,
                           walk_in=True)
    RegistrationRateThrottle.forget(f"tournament-{tournament.pk}")
    url = f"/p/{tournament.slug}/door/"
    phone = Client(HTTP_ACCEPT_LANGUAGE="de")
    form = phone.get(url).content.decode()
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    fields.update({"name": "Greta Sommer", "publication": "full", "club_name": "SC Ost"})
    taps = [Client(HTTP_ACCEPT_LANGUAGE="de") for _ in range(2)]
    for tap in taps:  # one phone: the same cookies
        tap.cookies = phone.cookies
    started = threading.Barrier(3)

    def tap(client):
        try:
            started.wait(timeout=30)
            return client.post(url, fields)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=tournament.pk)
            answers = [pool.submit(tap, client) for client in taps]
            started.wait(timeout=30)
            deadline = time.monotonic() + 30
            while waiting_for_a_lock() < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert waiting_for_a_lock() == 2
        answers = [answer.result(timeout=60) for answer in answers]
    participant = Participant.objects.get(tournament=tournament)
    own = f"/me/{participant.personal_token}/"
    assert [(a.status_code, a.get("Location")) for a in answers] == [(302, own)] * 2, [
        a.content.decode()[:2000] for a in answers]
    assert participant.checked_in and participant.club_name == "SC Ost"
    RegistrationRateThrottle.forget(f"tournament-{tournament.pk}")
