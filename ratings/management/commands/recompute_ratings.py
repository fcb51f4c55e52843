"""``manage.py recompute_ratings [--game G]``: re-rate every result from the first on,
e.g. after restoring a backup or a change of the rating code; without ``--game`` every
game's ratings."""

from django.core.management.base import BaseCommand

from games.choices import game_keys
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute the players' ratings in full."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=game_keys(),
                            help="one game; default: all")

    def handle(self, *args, game=None, **options):
        games = [game] if game else game_keys()
        for key in games:
            state = ratings_recompute(game=key, full=True)
            self.stdout.write(f"{key}: {state.last_rerated} result(s) rated")
