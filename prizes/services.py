"""The entry fee, the prize list and the lot of a tournament (games.md §6).

- ``prizes_set`` stores the prize list (validated by ``prizes.payout``) and,
  when the fee differs from the one in force, a ``FeeEvent``: the fee's history, so a
  change after the first round shows in the cash report. A new prize list drops a lot
  recorded for the old one.
- ``lot_set`` records the result of a lot among the players tied at prize places; it
  must name exactly them (``UserError`` on ``order``). A lot that a later
  correction made stale is reported by the payout list, never applied.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from games.errors import user_error
from prizes.models import FeeEvent, PrizeList
from prizes.payout import PrizeConfig, check_lot, check_prize_config
from tournaments.errors import StateConflict
from tournaments.selectors import named_standings
from tournaments.services.actors import Actor
from tournaments.services.lifecycle import lock_open_tournament


@transaction.atomic
def prizes_set(*, tournament_id: int, data: Any, actor: Actor | None = None) -> PrizeConfig:
    tournament = lock_open_tournament(tournament_id)
    config = check_prize_config(data)
    unknown = [label for label, _c in config.category_prizes
               if label not in (tournament.categories or [])]
    if unknown:
        raise user_error("categories", _("Unknown category “%(label)s”; the tournament "
                                         "has: %(known)s."), label=unknown[0][:40],
                         known=", ".join(tournament.categories or []) or "–")
    stored = PrizeList.objects.filter(tournament=tournament).first()
    if stored is None:
        PrizeList.objects.create(tournament=tournament, config=config.as_dict())
    elif stored.config != config.as_dict():
        stored.config = config.as_dict()
        stored.lot = None
        stored.save(update_fields=["config", "lot", "updated_at"])
    last = FeeEvent.objects.filter(tournament=tournament).order_by("-at", "-pk").first()
    if last is None or last.entry_fee_cents != config.entry_fee_cents:
        FeeEvent.objects.create(tournament=tournament, entry_fee_cents=config.entry_fee_cents,
                                user=actor.user if actor is not None and actor.is_staff
                                else None)
    return config


@transaction.atomic
def lot_set(*, tournament_id: int, order: Any) -> list[int]:
    tournament = lock_open_tournament(tournament_id)
    stored = PrizeList.objects.filter(tournament=tournament).first()
    if stored is None:
        raise StateConflict(_("Set the prize list before recording a lot."))
    config = check_prize_config(stored.config)
    lot = check_lot(order, named_standings(tournament, full=True), config)
    stored.lot = lot
    stored.save(update_fields=["lot", "updated_at"])
    return lot
