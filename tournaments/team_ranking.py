"""Read models of the team ranking and the prize list (no writes here).

The team standings are derived from the stored individual standings (the rows the
standings workers write) and the teams, with ``tournaments.standings.teams``; they are
as fresh as the individual standings (``stale`` and ``computed_at`` are theirs) and
change with every team change (``version``). The payout list follows the overall
standings with ``tournaments.prizes.payout``. Each reader costs a fixed number of
queries, whatever the field size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Prefetch

from games.engines import get_engine
from tournaments.models import (
    FeeEvent,
    Participant,
    PrizeList,
    Seat,
    Team,
    TeamEvent,
    Tournament,
)
from tournaments.prizes.cash import fee_rows
from tournaments.prizes.payout import PrizeConfig, check_prize_config, payouts
from tournaments.selectors import named_standings
from tournaments.standings.teams import team_standings


def _members() -> Prefetch:
    return Prefetch("members", queryset=Participant.objects.select_related("player")
                    .order_by("start_number"))


def _team_json(team: Team) -> dict[str, Any]:
    return {"id": team.pk, "name": team.name,
            "members": [{"participant": p.pk, "name": p.player.name,
                         "start_number": p.start_number} for p in team.members.all()]}


def teams_of(tournament: Tournament) -> list[dict[str, Any]]:
    """The teams as the API shows them: ``{"id", "name", "members": [{"participant",
    "name", "start_number"}]}``, members by start number."""
    return [_team_json(team)
            for team in tournament.teams.prefetch_related(_members()).order_by("id")]


def team_of(team: Team) -> dict[str, Any]:
    return _team_json(Team.objects.prefetch_related(_members()).get(pk=team.pk))


def teammate_pairs(tournament: Tournament) -> list[tuple[int, int]]:
    """Pairs of participants in the same team (the balanced draw keeps them apart)."""
    by_team: dict[int, list[int]] = {}
    for pid, team_id in (Participant.objects.filter(tournament=tournament, team__isnull=False)
                         .order_by("pk").values_list("pk", "team_id")):
        by_team.setdefault(team_id, []).append(pid)
    return [(a, b) for members in by_team.values()
            for i, a in enumerate(members) for b in members[i + 1:]]


def teams_version(tournament: Tournament) -> int:
    """Grows with every team change (the last history line's id)."""
    return TeamEvent.objects.filter(tournament=tournament).aggregate(m=Max("pk"))["m"] or 0


def team_results(tournament: Tournament) -> list[dict[str, Any]]:
    engine = get_engine(tournament.game)
    return team_standings(teams_of(tournament), named_standings(tournament), game=tournament.game,
                          standing_order=engine.standing_order,
                          team_size=tournament.team_size, figures=engine.figures)


# --------------------------------------------------------------------------- prizes


def prize_config(tournament: Tournament) -> PrizeConfig | None:
    stored = PrizeList.objects.filter(tournament=tournament).first()
    return check_prize_config(stored.config) if stored is not None else None


@dataclass(frozen=True)
class FeeBasis:
    """What the fees are computed from (``tournaments.prizes.cash``): the fee's history,
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


def prize_answer(tournament: Tournament, basis: FeeBasis | None = None) -> dict[str, Any] | None:
    """The prize list and who gets what, or None when the tournament has none
    (``basis``: the fee basis when the caller has read it already)."""
    stored = PrizeList.objects.filter(tournament=tournament).first()
    if stored is None:
        return None
    config = check_prize_config(stored.config)
    fees = fees_cents(basis or fee_basis(tournament), config)
    result = payouts(config, named_standings(tournament), fees_cents=fees, lot=stored.lot)
    return {**config.as_dict(), "fees_cents": fees, **result,
            "lot_order": stored.lot or []}


def teammates_together(rnd) -> list[list[dict[str, Any]]]:
    """The pairs of teammates a round seats at one table (the balanced draw avoids them
    where the field allows): ``[[{"participant", "name"}, {…}], …]`` by table and seat."""
    seats = (Seat.objects.filter(table__round=rnd, participant__team__isnull=False)
             .select_related("participant__player").order_by("table__number", "seat"))
    by_table: dict[tuple[int, int], list[Participant]] = {}
    for seat in seats:
        key = (seat.table_id, seat.participant.team_id)
        by_table.setdefault(key, []).append(seat.participant)
    return [[{"participant": a.pk, "name": a.player.name},
             {"participant": b.pk, "name": b.player.name}]
            for members in by_table.values()
            for i, a in enumerate(members) for b in members[i + 1:]]
