from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _

from games import choices
from games.engines import all_engines


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        checks.register(check_registry_matches_choices, checks.Tags.models)


def check_registry_matches_choices(app_configs=None, **kwargs):
    """The model's game choices and the engine registry must name the same games."""
    registered = {engine.key for engine in all_engines()}
    chosen = {key for key, _label in choices.GAME_CHOICES}  # read late: tests patch it
    if registered == chosen:
        return []
    return [
        checks.Error(
            "Game choices and engine registry disagree",
            hint=f"only registered: {sorted(registered - chosen)}; "
            f"only in choices: {sorted(chosen - registered)}",
            id="games.E001",
        )
    ]
