"""Celery tasks of the tournaments app outside the standings pipeline (whose tasks live in
``tournaments.recompute.tasks``): thin, idempotent, safe to run twice."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from tournaments.mails import registration_mail_send
from tournaments.services.idempotency import idempotency_keys_prune
from tournaments.services.registrations import registrations_release, releases_due


@shared_task(ignore_result=True)
def prune_idempotency_keys() -> int:
    """Delete the stored answers of Idempotency-Keys older than the configured age."""
    max_age = timedelta(hours=settings.IDEMPOTENCY_KEY_MAX_AGE_HOURS)
    return idempotency_keys_prune(older_than=max_age)


@shared_task(ignore_result=True, autoretry_for=(OSError,), retry_backoff=30,
             retry_kwargs={"max_retries": 8})
def registration_mail(participant_id: int, kind: str, extra: dict | None = None) -> bool:
    """Send one registration e-mail (``tournaments.mails``); a failed send (SMTP down) is
    retried with backoff. False when the participant or address is gone."""
    return registration_mail_send(participant_id=participant_id, kind=kind, extra=extra or {})


@shared_task(ignore_result=True)
def registrations_release_due() -> int:
    """Beat: release unchecked registrants of tournaments whose release time passed."""
    return sum(registrations_release(tournament_id=pk) for pk in releases_due())
