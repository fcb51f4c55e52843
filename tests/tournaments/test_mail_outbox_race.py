"""Two beat sweeps at once over the same pending mails, against the real PostgreSQL
(issue 52): each mail is claimed under a row lock by one of them and sent once. A
``threading.Barrier`` starts them together; each thread has its own connection.

SQLite serialises whole-database writes, so this runs in the PostgreSQL pass of CI.
"""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection

from signup.mails import mails_sweep
from signup.models import Mail
from tests.factories import ParticipantFactory, PlayerFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="racing sweeps need concurrent writers (PostgreSQL)"),
]

N = 40


def test_two_racing_sweeps_send_each_mail_once(tournament):
    for i in range(N):
        p = ParticipantFactory(tournament=tournament, player=PlayerFactory(),
                               start_number=i + 1, email=f"p{i}@example.org")
        Mail.objects.create(tournament=tournament, participant=p, kind="registered",
                            to=p.email, base_url="https://skat.example.org")
    barrier = threading.Barrier(2)

    def sweep(_n):
        try:
            barrier.wait(timeout=30)
            return mails_sweep()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = list(pool.map(sweep, range(2)))
    assert sum(counts) == N
    assert Counter(m.to[0] for m in mail.outbox) == {f"p{i}@example.org": 1 for i in range(N)}
    assert set(Mail.objects.values_list("status", flat=True)) == {"sent"}
