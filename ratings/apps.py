from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Ratings sit above ``tournaments`` and ``clublife``: they learn of a finished sheet
    through signals connected here, never by being imported."""

    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Django's way to connect receivers once the models are loaded (not a circle).
        from ratings import hooks, receivers  # noqa: F401
