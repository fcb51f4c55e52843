from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    """Leagues sit above ``tournaments``: a matchday group is a tournament, whose
    recomputed standings the league learns of through a signal connected here."""

    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        # Django's way to connect receivers once the models are loaded (not a circle).
        from leagues import receivers  # noqa: F401
