from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments import (
            checks,  # noqa: F401  (registers the system checks)
            freshness,
        )

        freshness.connect()
