"""The e-mails a registrant gets (issue 29), in the language they signed up in.

Kinds: ``registered`` (confirmation), ``waiting`` (position on the waiting list),
``moved_up`` (a place freed), ``cancelled``, ``released`` (not checked in by the release
time) and ``drawn`` ("round N is drawn: table T"). The link is the registrant's own page,
on ``SITE_URL`` when set.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.links import personal_path
from tournaments.models import Participant


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


def registration_mail_send(*, participant_id: int, kind: str, extra: dict) -> bool:
    """Send one mail; an SMTP failure raises (the task retries it)."""
    participant = (Participant.objects.select_related("player", "tournament")
                   .filter(pk=participant_id).first())
    if participant is None or not participant.email:
        return False
    with translation.override(participant.language or settings.LANGUAGE_CODE):
        subject, text = _body(kind, participant, extra)
        link = (settings.SITE_URL or "") + personal_path(participant.personal_token)
        text += "\n\n" + _("Your own page (status, seat, cancel):") + "\n" + link + "\n"
    send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [participant.email])
    return True
