"""Read models shared by the API and the pages (no writes here)."""

from __future__ import annotations

import json
from typing import Any

from games.engines import DealContext, get_engine
from tournaments.models import Deal, Table


def deal_plan(table: Table, first: int | None) -> list[dict[str, Any]]:
    """The engine's hints for every deal still to be entered, from ``first`` on, so an
    entry form can go on offline (dealer, seats in play, cards, bidding order)."""
    if first is None:
        return []
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    players = table.seats.count()
    return [engine.deal_hints(DealContext(n, players, rules))
            for n in range(first, engine.sheet_length(players, rules) + 1)]


def deal_state(deal: Deal) -> dict[str, Any]:
    return {"number": deal.number, "record": deal.record, "scores": deal.scores,
            "extra": deal.extra, "version": deal.version, "etag": deal.etag}


def _with_json(deal: dict[str, Any]) -> dict[str, Any]:
    return {**deal, "record_json": json.dumps(deal["record"])}


def table_state(table: Table) -> dict[str, Any]:
    """A table's sheet as plain data: seats, deals with running totals, totals, what
    comes next. ``entry_token`` is never included; callers add it for staff."""
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    seats = list(table.seats.select_related("participant__player").order_by("seat"))
    deals = [_with_json(deal_state(d)) for d in table.deals.order_by("number")]
    players = len(seats)
    length = engine.sheet_length(players, rules)
    running = [0] * players
    for deal in deals:
        running = [r + s for r, s in zip(running, deal["scores"], strict=True)]
        deal["cells"] = [{"score": s, "running": r}
                         for s, r in zip(deal["scores"], running, strict=True)]
    complete = table.summary is not None or len(deals) >= length
    next_number = None if complete else len(deals) + 1
    hints = (engine.deal_hints(DealContext(next_number, players, rules))
             if next_number else None)
    return {
        "id": table.pk,
        "number": table.number,
        "round": table.round.number,
        "round_closed": table.round.closed,
        "tournament": tournament.pk,
        "tournament_name": tournament.name,
        "game": tournament.game,
        "rules": rules,
        "status": "submitted" if table.submitted else "open",
        "submitted": table.submitted,
        "version": table.version,
        "sheet_length": length,
        "complete": complete,
        "next_deal": next_number,
        "dealer": hints["dealer"] if hints else None,
        "next": hints,
        "seats": [{"seat": s.seat, "participant": s.participant_id,
                   "name": s.participant.player.name} for s in seats],
        "deals": deals,
        "summary": table.summary,
        "totals": [{"seat": s.seat, "participant": s.participant_id, "score": s.score,
                    **s.figures} for s in seats],
    }
