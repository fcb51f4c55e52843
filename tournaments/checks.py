"""System checks of the tournaments app (``manage.py check``, every start)."""

from django.conf import settings
from django.core import checks

SMTP = "django.core.mail.backends.smtp.EmailBackend"


@checks.register(checks.Tags.compatibility, deploy=False)
def site_url_for_mails(app_configs, **kwargs):
    """A production server that sends mails through a mail server needs ``SITE_URL``:
    a mail queued without a request (the release at the set time, the sweep) would
    otherwise carry a link without the site's address, which no mail client opens."""
    if settings.DEBUG or settings.SITE_URL or settings.EMAIL_BACKEND != SMTP:
        return []
    if not settings.EMAIL_HOST_CONFIGURED:
        return []
    return [checks.Error(
        "EMAIL_HOST is set but SITE_URL is not: the links in the mails would have no "
        "address.", hint="Set SITE_URL to the address players reach the site on, e.g. "
        "https://turniere.example.org.", id="stichliste.E001")]
