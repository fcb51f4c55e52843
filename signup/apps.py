from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupConfig(AppConfig):
    name = "signup"
    verbose_name = _("Sign-up and check-in")

    def ready(self) -> None:
        from signup import receivers

        receivers.connect()
