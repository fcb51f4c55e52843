"""The prize list as the console, the API and the cash report read it (no writes here).

The *prize answer* follows the overall standings with ``prizes.payout``; the *fee basis*
is what the fees taken in are computed from (``prizes.cash``). Each reader costs a fixed
number of queries, whatever the field size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines import get_engine
from prizes.cash import fee_rows
from prizes.models import FeeEvent, PrizeList
from prizes.payout import PrizeConfig, category_payouts, check_prize_config, payouts
from tournaments.models import Participant, Tournament
from tournaments.selectors import named_standings
from tournaments.standings import rank


@dataclass(frozen=True)
class FeeBasis:
    """What the fees are computed from (``prizes.cash``): the fee's history,
    the paying participants (everyone registered; a withdrawn player has paid and
    stays) and when the first round started."""

    events: list[dict[str, Any]]
    participants: list[dict[str, Any]]
    first_round_at: Any


def fee_basis(tournament: Tournament) -> FeeBasis:
    events = [{"at": e.at, "entry_fee_cents": e.entry_fee_cents}
              for e in FeeEvent.objects.filter(tournament=tournament).order_by("at", "pk")]
    participants = [
        {"participant": p.pk, "player": p.player_id, "name": p.player.name,
         "start_number": p.start_number, "joined_at": p.registered_at}
        for p in tournament.participants.select_related("player").order_by("start_number")]
    first = tournament.rounds.order_by("number").values_list("created_at", flat=True).first()
    return FeeBasis(events, participants, first)


def fees_cents(basis: FeeBasis, config: PrizeConfig) -> int:
    """The fees taken in: the fee each paying participant owes now (the cash report's
    fee rows summed; before any fee event, the configured fee times the field)."""
    if not basis.events:
        return config.entry_fee_cents * len(basis.participants)
    return sum(r["amount_cents"] for r in fee_rows(basis.participants, basis.events,
                                                    first_round_at=basis.first_round_at))


def prize_answer(tournament: Tournament, basis: FeeBasis | None = None, *,
                 full: bool = False) -> dict[str, Any] | None:
    """The prize list and who gets what, or None when the tournament has none
    (``basis``: the fee basis when the caller has read it already); names as their
    players chose unless ``full``."""
    stored = PrizeList.objects.filter(tournament=tournament).first()
    if stored is None:
        return None
    config = check_prize_config(stored.config)
    fees = fees_cents(basis or fee_basis(tournament), config)
    rows = named_standings(tournament, full=full)
    result = payouts(config, rows, fees_cents=fees, lot=stored.lot)
    categories = []
    if config.category_prizes:
        engine = get_engine(tournament.game)
        labels = {label for label, _c in config.category_prizes}
        members: dict[str, set[int]] = {label: set() for label in labels}
        for pid, mine in Participant.objects.filter(tournament=tournament).values_list(
                "pk", "categories"):
            for label in set(mine or []) & labels:
                members[label].add(pid)
        lists = {label: rank([r for r in rows if r["participant"] in found], engine.rank_key)
                 for label, found in members.items()}
        categories = category_payouts(config, lists, overall=result["payouts"],
                                      one_prize_per_player=tournament.one_prize_per_player)
    return {**config.as_dict(), "fees_cents": fees, **result,
            "lot_order": stored.lot or [], "one_prize_per_player":
            tournament.one_prize_per_player, "category_payouts": categories}
