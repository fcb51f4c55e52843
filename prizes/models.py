"""A tournament's prize list and the entry fee's history.

- *prize list* (``PrizeList``): the entry fee and who gets what (``prizes.payout``'s
  ``PrizeConfig.as_dict()``), and the recorded lot among players tied at prize places.
- *fee event* (``FeeEvent``): one setting of the entry fee, for the cash report.

Both tables were ``tournaments``' until the app was split off; they keep their names
(``db_table``), so the move copied no data (migrations ``prizes.0001`` and
``tournaments.0023``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class PrizeList(models.Model):
    """The entry fee and the prize list of a tournament (``prizes.payout``'s
    ``PrizeConfig.as_dict()``), and the recorded lot among players tied at prize
    places (participant ids, best first), if any."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE,
                                      related_name="prize_list")
    config = models.JSONField(_("prize list"))
    lot = models.JSONField(_("lot"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        db_table = "tournaments_prizelist"

    def __str__(self) -> str:
        return f"prizes of {self.tournament_id}"


class FeeEvent(models.Model):
    """One setting of the entry fee: the fee's history, so that a change after the first
    round stays visible in the cash report."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="fee_events")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    entry_fee_cents = models.PositiveIntegerField(_("entry fee (cents)"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")

    class Meta:
        db_table = "tournaments_feeevent"
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.entry_fee_cents} @ {self.at}"
