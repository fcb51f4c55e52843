"""Celery tasks of the tournaments app outside the standings pipeline (whose tasks live in
``tournaments.recompute.tasks``): thin, idempotent, safe to run twice. Sign-up's mails
and releases are ``signup.tasks``'."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from tournaments.services.idempotency import idempotency_keys_prune


@shared_task(ignore_result=True)
def prune_idempotency_keys() -> int:
    """Delete the stored answers of Idempotency-Keys older than the configured age."""
    max_age = timedelta(hours=settings.IDEMPOTENCY_KEY_MAX_AGE_HOURS)
    return idempotency_keys_prune(older_than=max_age)
