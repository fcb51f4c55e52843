"""Twenty sign-ups at once for the last place, against the real PostgreSQL (issue 29):
exactly one gets it, the other nineteen wait, in a stable order (positions 1..19, each
once, in the order their sign-ups took the tournament's lock). A ``threading.Barrier``
releases the requests together; each thread has its own client and connection.

SQLite serialises whole-database writes, so this runs in the PostgreSQL pass of CI.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from signup.services.registrations import registration_configure
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Participant

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="races for the last place need concurrent writers (PostgreSQL)"),
]

N = 20


def test_twenty_racing_sign_ups_for_the_last_place(tournament, club, settings):
    settings.REGISTRATION_RATE = "1000/min"
    tournament.published = True
    tournament.save()
    ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club), start_number=1)
    registration_configure(tournament_id=tournament.pk, open=True, cap=2, check_in=False)
    clients = [APIClient() for _ in range(N)]
    barrier = threading.Barrier(N)

    def call(i):
        try:
            barrier.wait(timeout=30)
            return clients[i].post(f"/api/v1/tournaments/{tournament.pk}/registrations/",
                                   {"name": f"Spieler {i:02d}"}, format="json",
                                   REMOTE_ADDR=f"10.1.0.{i + 1}")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=N) as pool:
        answers = list(pool.map(call, range(N)))
    assert sorted(r.status_code for r in answers) == [201] * N, [r.content for r in answers]
    bodies = [r.json() for r in answers]
    assert [b["status"] for b in bodies].count("registered") == 1
    positions = sorted(b["position"] for b in bodies if b["status"] == "waiting")
    assert positions == list(range(1, N)), positions
    # the stored order is the answered one, and a cancel moves the first waiting up
    waiting = list(Participant.objects.filter(tournament=tournament, status="waiting")
                   .order_by("queue_number").values_list("player__name", flat=True))
    answered = [f"Spieler {i:02d}" for i, b in sorted(
        enumerate(bodies), key=lambda ib: ib[1].get("position", 0)) if b["status"] == "waiting"]
    assert waiting == answered
    assert Participant.objects.filter(tournament=tournament, status="registered").count() == 2
