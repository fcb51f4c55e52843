from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClublifeConfig(AppConfig):
    """Club life sits above ``tournaments``: it learns of a recomputed evening through the
    ``standings_recomputed`` signal, connected here, never by being imported."""

    name = "clublife"
    verbose_name = _("Club life")

    def ready(self) -> None:
        # Django's way to connect receivers once the models are loaded (not a circle).
        from clublife import receivers  # noqa: F401
