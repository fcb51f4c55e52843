"""The e-mails a registrant gets (issue 29) and their outbox (issue 52).

Kinds: ``registered`` (confirmation), ``waiting`` (position on the waiting list),
``moved_up`` (a place freed), ``cancelled``, ``released`` (not checked in by the release
time) and ``drawn`` ("round N is drawn: table T"), each in the language the person signed
up in. The link is the registrant's own page, absolute: on ``SITE_URL``, else on the
address the request that queued the mail came in on (``Mail.base_url``).

The outbox (``Mail`` rows) loses nothing and sends nothing twice:

- ``mail_queue`` writes the row in the transaction of the change that causes it, and
  after the commit sends ``mail_queued`` with its id, on which ``signup.tasks`` hands it
  to the ``send_mail`` task (a broker outage is logged, never fails the request: the row
  waits for the sweep). The tasks import this module; it imports no task.
- ``mail_send`` / ``mails_sweep`` (the task, and beat every minute) send due rows: a
  sender claims a row under a row lock (``select_for_update(skip_locked=True)``) by
  setting it ``sending``, commits, talks to the mail server, then marks it ``sent``. Two
  senders never claim one row.
- A failed send is tried again with exponential backoff (``MAIL_FIRST_RETRY_SECONDS``,
  30 s, doubling, at most ``MAIL_LONGEST_RETRY_SECONDS``, ten minutes, apart) for
  ``MAIL_RETRY_HOURS`` (24) after queuing, then the row is ``failed`` with the reason.
- A row left ``sending`` (the worker was killed between the claim and the mark) may have
  gone out; SMTP cannot tell. After ``MAIL_SENDING_STALE_SECONDS`` (ten minutes, and at
  least three ``EMAIL_TIMEOUT``) the sweep decides: it sends the row again, writes the
  decision in ``note`` and counts the possible double in ``doubtful``.
- ``mails_cancel`` (erasure): the person's pending mails are cancelled and the address is
  removed from every row.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Count, F
from django.dispatch import Signal
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from signup.models import Mail
from tournaments.links import personal_path, site_base
from tournaments.models import Participant
from tournaments.publishing import publish_off_thread

log = logging.getLogger(__name__)

PENDING, SENDING, SENT = Mail.Status.PENDING, Mail.Status.SENDING, Mail.Status.SENT
FAILED, CANCELLED = Mail.Status.FAILED, Mail.Status.CANCELLED
SWEEP_BATCH = 200
SHOWN = 50  # the director's console lists the latest mails
KINDS = {"registered": gettext_lazy("confirmation"), "waiting": gettext_lazy("waiting list"),
         "moved_up": gettext_lazy("place freed"), "cancelled": gettext_lazy("cancellation"),
         "released": gettext_lazy("place released"), "drawn": gettext_lazy("table drawn")}


# -- the text ------------------------------------------------------------------------

def _body(kind: str, participant: Participant, extra: dict) -> tuple[str, str]:
    t = participant.tournament
    params = {"tournament": t.name, "name": participant.player.name,
              "position": extra.get("position") or "", "round": extra.get("round") or "",
              "table": extra.get("table") or ""}
    subjects = {
        "registered": _("Registration confirmed: %(tournament)s"),
        "waiting": _("Waiting list: %(tournament)s"),
        "moved_up": _("You have a place: %(tournament)s"),
        "cancelled": _("Registration cancelled: %(tournament)s"),
        "released": _("Your place was released: %(tournament)s"),
        "drawn": _("Round %(round)s is drawn: table %(table)s"),
    }
    texts = {
        "registered": _("Hello %(name)s,\n\nyou are registered for %(tournament)s."),
        "waiting": _("Hello %(name)s,\n\nthe tournament %(tournament)s is full. You are "
                     "number %(position)s on the waiting list; we will write when a place "
                     "frees."),
        "moved_up": _("Hello %(name)s,\n\na place has freed: you are now registered for "
                      "%(tournament)s."),
        "cancelled": _("Hello %(name)s,\n\nyour registration for %(tournament)s is "
                       "cancelled."),
        "released": _("Hello %(name)s,\n\nyou had not checked in for %(tournament)s by the "
                      "set time, so your place went to the waiting list."),
        "drawn": _("Hello %(name)s,\n\nround %(round)s of %(tournament)s is drawn: you sit "
                   "at table %(table)s."),
    }
    return subjects[kind] % params, texts[kind] % params


def _message(mail: Mail) -> EmailMessage:
    participant = mail.participant
    with translation.override(participant.language or settings.LANGUAGE_CODE):
        subject, text = _body(mail.kind, participant, mail.extra)
        link = mail.base_url + personal_path(participant.personal_token)
        text += ("\n\n" + _("Your own page (status, seat, cancel):") + "\n" + link + "\n\n"
                 + _("Kind regards\nYour tournament directors") + "\n")
    return EmailMessage(subject, text, settings.DEFAULT_FROM_EMAIL, [mail.to])


# -- queuing ---------------------------------------------------------------------------

# Sent after the commit that queued a mail, argument ``mail_id``; ``signup.tasks``
# publishes the mail's send task on it (connected in ``SignupConfig.ready``).
mail_queued = Signal()


def _publish(mail_id: int) -> None:
    mail_queued.send(sender=Mail, mail_id=mail_id)


def mail_queue(participant: Participant, kind: str, **extra) -> Mail | None:
    """Queue ``kind`` to the participant, if they gave an address: the row is written
    now, in the caller's transaction; it is sent after the commit."""
    if not participant.email:
        return None
    base = site_base() or (Mail.objects.filter(tournament_id=participant.tournament_id)
                           .exclude(base_url="").values_list("base_url", flat=True).first()
                           or "")
    mail = Mail.objects.create(tournament_id=participant.tournament_id,
                               participant=participant, kind=kind, extra=extra,
                               to=participant.email, base_url=base)

    def publish():
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _publish(mail.pk)
        else:  # off the request's thread: a broker that hangs holds up nobody
            publish_off_thread(_publish, mail.pk)

    transaction.on_commit(publish, robust=True)
    return mail


# -- sending ---------------------------------------------------------------------------

def _claim(rows) -> Mail | None:
    """The first of ``rows`` nobody else holds, now ``sending`` (committed)."""
    now = timezone.now()
    with transaction.atomic():
        mail = (rows.select_for_update(skip_locked=True)
                .filter(status=PENDING, next_attempt_at__lte=now)
                .order_by("next_attempt_at", "id").first())
        if mail is None:
            return None
        # conditional too: where the database has no row locks (SQLite) it is the claim
        claimed = Mail.objects.filter(pk=mail.pk, status=PENDING).update(
            status=SENDING, claimed_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return None
    mail.status, mail.claimed_at, mail.attempts = SENDING, now, mail.attempts + 1
    return mail


def _after_failure(mail: Mail, reason: str) -> None:
    now = timezone.now()
    mine = Mail.objects.filter(pk=mail.pk, status=SENDING, attempts=mail.attempts)
    if now - mail.created_at >= timedelta(hours=settings.MAIL_RETRY_HOURS):
        mine.update(status=FAILED, note=reason, claimed_at=None)
        log.error("mail %s failed for good: %s", mail.pk, reason)
        return
    wait = min(settings.MAIL_FIRST_RETRY_SECONDS * 2 ** (mail.attempts - 1),
               settings.MAIL_LONGEST_RETRY_SECONDS)
    mine.update(status=PENDING, note=reason, claimed_at=None,
                next_attempt_at=now + timedelta(seconds=wait))


# what became of a claimed mail
SENT_NOW, NOT_SENT, SERVER_DOWN = "sent", "not sent", "server down"


def _send_claimed(mail: Mail) -> str:
    mail = Mail.objects.select_related("participant__player", "participant__tournament"
                                       ).get(pk=mail.pk)
    if mail.participant is None or not mail.to or mail.participant.player.erased:
        Mail.objects.filter(pk=mail.pk, status=SENDING).update(
            status=CANCELLED, to="", note=gettext_noop("The registration is gone."))
        return NOT_SENT
    try:
        _message(mail).send()
    except Exception as exc:  # SMTP down, refused, timed out: tried again later
        _after_failure(mail, f"{type(exc).__name__}: {exc}"[:500])
        # the server answered about this mail (a refused address), or was not reached
        answered = isinstance(exc, smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused)
        return NOT_SENT if answered else SERVER_DOWN
    Mail.objects.filter(pk=mail.pk, status=SENDING).update(status=SENT,
                                                           sent_at=timezone.now())
    return SENT_NOW


def mail_send(mail_id: int) -> bool:
    """Send one queued mail if it is due and nobody else is sending it."""
    mail = _claim(Mail.objects.filter(pk=mail_id))
    return mail is not None and _send_claimed(mail) == SENT_NOW


def _decide_stale(now) -> int:
    """Rows left ``sending`` by a sender that stopped: sent again, the decision noted."""
    # a send lasts at most a few of the server's timeouts: the sender is gone
    stale = timedelta(seconds=max(settings.MAIL_SENDING_STALE_SECONDS,
                                  3 * (settings.EMAIL_TIMEOUT or 60)))
    return Mail.objects.filter(status=SENDING, claimed_at__lt=now - stale).update(
        status=PENDING, next_attempt_at=now, claimed_at=None, doubtful=F("doubtful") + 1,
        note=gettext_noop("The sender stopped during a send; sent again, it may arrive twice."))


def mails_sweep(limit: int = SWEEP_BATCH) -> int:
    """Beat: send what is due (left behind by a broker outage, a killed worker, or
    waiting for its next attempt). The number sent. A mail server that cannot be reached
    ends the sweep: the other mails wait for their next attempt rather than for the
    server's timeout one after another."""
    _decide_stale(timezone.now())
    sent = 0
    for _n in range(limit):
        mail = _claim(Mail.objects.all())
        if mail is None:
            break
        outcome = _send_claimed(mail)
        if outcome == SERVER_DOWN:
            break
        sent += outcome == SENT_NOW
    return sent


# -- the director's view ----------------------------------------------------------

def mails_overview(tournament_id: int) -> dict:
    """The tournament's mails for its director: how many in each state, and the latest
    ``SHOWN`` with the person, the kind and, for a failed or retried one, the reason."""
    counts = dict(Mail.objects.filter(tournament_id=tournament_id).values_list("status")
                  .annotate(n=Count("id")).order_by())
    latest = list(Mail.objects.filter(tournament_id=tournament_id)
                  .select_related("participant__player")[:SHOWN])
    for mail in latest:
        mail.kind_label = KINDS.get(mail.kind, mail.kind)
        mail.reason = failure_words(mail.note)
    return {"counts": [(Mail.Status(status).label, counts.get(status, 0))
                       for status in Mail.Status.values if counts.get(status)],
            "latest": latest, "total": sum(counts.values())}


# a failed send's note is the exception as the mail server's library raised it
# ("SMTPRecipientsRefused: {…: (550, b'5.1.1 …')}"): the director reads it in words
UNREACHABLE = {"ConnectionRefusedError", "ConnectionResetError", "ConnectionAbortedError",
               "TimeoutError", "timeout", "gaierror", "OSError", "SMTPConnectError",
               "SMTPServerDisconnected", "SSLError", "SSLCertVerificationError"}
SETTINGS = {"SMTPAuthenticationError", "SMTPSenderRefused", "SMTPNotSupportedError",
            "SMTPHeloError"}


def failure_words(note: str) -> str | None:
    """What a failed send's ``note`` means, in words (translated), or None for a note
    that is already one of the outbox's own sentences."""
    name, colon, _detail = note.partition(":")
    if not colon or not name.isidentifier():
        return None
    if name == "SMTPRecipientsRefused":
        return _("The mail server refused this address: it may be mistyped, or the "
                 "mailbox does not exist.")
    if name in UNREACHABLE:
        return _("The mail server could not be reached.")
    if name in SETTINGS:
        return _("The mail server refused to send for this site: the site's mail "
                 "settings need checking.")
    return _("The mail server answered with an error.")


# -- erasure -------------------------------------------------------------------------

def mails_cancel(participant_ids: list[int]) -> None:
    """The person is erased: their pending mails are cancelled and their address is
    removed from every row (a mail being sent right now still goes out)."""
    rows = Mail.objects.filter(participant_id__in=participant_ids)
    rows.filter(status=PENDING).update(status=CANCELLED,
                                       note=gettext_noop("The person was erased."))
    rows.update(to="")
