"""Celery tasks of the tournaments app outside the standings pipeline (whose tasks live in
``tournaments.recompute.tasks``): thin, idempotent, safe to run twice."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from tournaments.mails import mail_send, mails_sweep
from tournaments.services.idempotency import idempotency_keys_prune
from tournaments.services.registrations import registrations_release, releases_due


@shared_task(ignore_result=True)
def prune_idempotency_keys() -> int:
    """Delete the stored answers of Idempotency-Keys older than the configured age."""
    max_age = timedelta(hours=settings.IDEMPOTENCY_KEY_MAX_AGE_HOURS)
    return idempotency_keys_prune(older_than=max_age)


@shared_task(ignore_result=True)
def send_mail(mail_id: int) -> bool:
    """Send one queued e-mail of the outbox (``tournaments.mails``) after the commit that
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
