"""``manage.py demo``: a club with 16 players and a Skat tournament ready to draw.

Idempotent: running it again finds what is there and adds nothing twice. It also
(re)sets the demo admin account and prints its credentials, so the quick start can
always log in.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Player
from clubs.services import club_create, player_create
from tournaments.models import Tournament
from tournaments.services import participant_add, tournament_create

CLUB_NAME = "Skatclub Grand Hand Musterstadt"
TOURNAMENT_NAME = "Vereinsabend Demo"
PLAYERS = [
    "Anna Becker", "Bernd Schulz", "Clara Wagner", "Dieter Hoffmann", "Eva Schäfer",
    "Frank Koch", "Gabi Richter", "Hans Klein", "Ines Wolf", "Jürgen Neumann",
    "Karin Schwarz", "Lukas Zimmermann", "Monika Braun", "Norbert Krüger", "Olga Hartmann",
    "Peter Lange",
]


class Command(BaseCommand):
    help = "Create the demo club, its 16 players and a Skat tournament ready to draw."

    def add_arguments(self, parser):
        parser.add_argument("--admin", default="admin", help="username of the demo admin")
        parser.add_argument("--no-admin", action="store_true",
                            help="do not create or reset the admin account")

    @transaction.atomic
    def handle(self, *args, **options):
        admin = None if options["no_admin"] else self._admin(options["admin"])
        club = Club.objects.filter(name=CLUB_NAME).first() or club_create(
            name=CLUB_NAME, city="Musterstadt", admin=admin)
        if admin is not None:
            club.admins.add(admin)
        for number, name in enumerate(PLAYERS, start=1):
            if not Player.objects.filter(club=club, name=name).exists():
                player_create(name=name, club=club, member_number=f"{number:03d}",
                              created_by=admin)
        tournament = Tournament.objects.filter(name=TOURNAMENT_NAME, club=club).first()
        if tournament is None:
            tournament = tournament_create(name=TOURNAMENT_NAME, game="skat", club=club,
                                           director=admin, published=True)
        registered = set(tournament.participants.values_list("player_id", flat=True))
        for player in club.players.order_by("member_number"):
            if player.pk not in registered:
                participant_add(tournament=tournament, player=player, checked_in=True)
        self.stdout.write(self.style.SUCCESS(
            f"Demo: club “{club.name}” with {club.players.count()} players, "
            f"tournament “{tournament.name}” (id {tournament.pk}) ready to draw."))

    def _admin(self, username: str):
        user_model = get_user_model()
        user, _created = user_model.objects.get_or_create(username=username)
        password = secrets.token_urlsafe(12)
        user.is_staff = user.is_superuser = True
        user.set_password(password)
        user.save()
        self.stdout.write(self.style.WARNING(
            f"Admin login: username “{username}”, password “{password}” "
            "(new on every run of demo)"))
        return user
