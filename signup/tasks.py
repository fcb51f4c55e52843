"""Celery tasks of sign-up: the mail outbox's sends and sweep, and the release of
unchecked registrants. Thin, idempotent, safe to run twice."""

import logging

from celery import shared_task

from signup.mails import mail_send, mails_sweep
from signup.services.registrations import registrations_release, releases_due

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def send_mail(mail_id: int) -> bool:
    """Send one queued e-mail of the outbox (``signup.mails``) after the commit that
    queued it; a failed send is tried again by the sweep, with backoff."""
    return mail_send(mail_id)


@shared_task(ignore_result=True)
def sweep_mails() -> int:
    """Beat: send the outbox's due mails (left behind, or waiting for another try)."""
    return mails_sweep()


@shared_task(ignore_result=True)
def registrations_release_due() -> int:
    """Beat: release unchecked registrants of tournaments whose release time passed."""
    return sum(registrations_release(tournament_id=pk) for pk in releases_due())


def publish_queued(sender, mail_id: int, **kwargs) -> None:
    """``signup.mails.mail_queued``'s receiver: the mail's send task. A broker outage
    never fails the request that queued the mail: the sweep sends it."""
    try:
        send_mail.delay(mail_id)
    except Exception:
        log.warning("mail %s not queued; the sweep sends it", mail_id, exc_info=True)
