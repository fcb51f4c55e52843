"""``manage.py demo`` builds a club evening ready to draw, and running it twice adds nothing."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Player
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db


def test_demo_creates_a_club_with_16_players_and_a_skat_tournament():
    out = StringIO()
    call_command("demo", stdout=out)
    club = Club.objects.get()
    assert club.players.count() == 16
    tournament = Tournament.objects.get()
    assert tournament.game == "skat"
    assert tournament.participants.count() == 16
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert "password" in out.getvalue()
    password = out.getvalue().split("password “")[1].split("”")[0]
    assert admin.check_password(password)


def test_demo_is_idempotent():
    call_command("demo", stdout=StringIO())
    call_command("demo", stdout=StringIO())
    assert Club.objects.count() == 1
    assert Player.objects.count() == 16
    assert Tournament.objects.count() == 1
    assert Participant.objects.count() == 16
