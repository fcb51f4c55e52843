"""Sign-up's own data: the mail outbox.

Registration itself (status, waiting-list place, check-in) is stored on
``tournaments.Participant`` and the settings on ``tournaments.Tournament``: they are
what a draw reads. The ``Mail`` table was ``tournaments``' until the app was split off;
it keeps its name (``db_table``) and its indexes, so the move copied no data
(migrations ``tournaments.0024`` and ``signup.0001``).
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Participant, Tournament


class Mail(models.Model):
    """The mail outbox: one e-mail to a registrant, written in the transaction of the
    change that causes it and sent after the commit (``signup.mails``).

    ``pending`` rows are sent when due (``next_attempt_at``); a sender claims a row by
    setting ``sending`` before it talks to the mail server and ``sent`` after, so a mail
    whose send may have happened (the worker stopped in between) is never sent again
    without a decision written in ``note``. ``failed`` after a day of failed attempts,
    ``cancelled`` when the person was erased or left before it went out.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="mails")
    participant = models.ForeignKey(Participant, verbose_name=_("participant"), null=True,
                                    blank=True, on_delete=models.SET_NULL,
                                    related_name="mails")
    kind = models.CharField(_("kind"), max_length=20)
    extra = models.JSONField(_("details"), default=dict, blank=True)
    to = models.EmailField(_("to"), blank=True)
    # where the links in the mail lead: SITE_URL, else the address the request came in on
    base_url = models.CharField(_("site address"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("queued at"), auto_now_add=True)
    next_attempt_at = models.DateTimeField(_("next attempt at"), default=timezone.now)
    claimed_at = models.DateTimeField(_("sending since"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # the last failure's reason, and any decision taken about the row
    note = models.TextField(_("note"), blank=True)
    # how often it was sent again after a send that may have happened (a possible double)
    doubtful = models.PositiveSmallIntegerField(_("possibly sent twice"), default=0)

    class Meta:
        db_table = "tournaments_mail"
        ordering = ["-created_at", "-id"]
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-mails")
        indexes = [models.Index(fields=["status", "next_attempt_at"]),
                   models.Index(fields=["tournament", "-id"])]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to or '-'} ({self.status})"
