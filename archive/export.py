"""Writing a tournament as an open event document (see the package's docstring and
``event.schema.json``)."""

from __future__ import annotations

import datetime
from typing import Any

from clubs.publication import shown_player
from prizes.models import FeeEvent, PrizeList
from tournaments.models import (
    Table,
    Tournament,
)
from tournaments.recompute.standings_rows import compute_standings

FORMAT = "stichliste-event"
VERSION = 1


def _when(value: datetime.datetime | None) -> str | None:
    return value.astimezone(datetime.UTC).isoformat() if value else None


def _username(user) -> str | None:
    return user.username if user else None


def _table_export(table: Table, numbers: dict[int, int], *, full: bool) -> dict[str, Any]:
    """The table, every deal as its game's record with its number; with ``full`` (the
    directors' copy) also its history, confirmations, objections and calls — a
    participant by start number, as everywhere in the document, a user by username."""
    def number(participant_id: int | None) -> int | None:
        return numbers.get(participant_id) if participant_id is not None else None

    out = {
        "number": table.number, "submitted": table.submitted,
        "submitted_at": _when(table.submitted_at), "shortened": table.shortened,
        "end_reason": table.end_reason,
        "seats": [{"seat": s.seat, "participant": s.participant.start_number, "score": s.score,
                   "figures": s.figures} for s in table.seats.all()],
        "deals": [{"number": d.number, **d.record} for d in table.deals.all()],
        "history_head": table.history_head,
    }
    if table.summary is not None:
        out["summary"] = table.summary
    if not full:
        return out
    return {
        **out, "version": table.version,
        "history": [{"at": _when(e.at), "user": _username(e.user),
                    "by_table": e.by_table, "participant": number(e.participant_id), "ip": e.ip,
                    "action": e.action, "deal_number": e.deal_number, "before": e.before,
                    "after": e.after}
                   for e in table.events.all()],
        "confirmations": [{"seat": c.seat, "version": c.version, "at": _when(c.at),
                           "participant": number(c.participant_id)}
                          for c in table.confirmations.all()],
        "objections": [{"deal_number": o.deal_number, "note": o.note,
                        "participant": number(o.participant_id), "at": _when(o.at),
                        "status": o.status, "resolution": o.resolution,
                        "resolved_at": _when(o.resolved_at),
                        "resolved_by": _username(o.resolved_by)}
                       for o in table.objections.all()],
        "calls": [{"participant": number(c.participant_id), "reason": c.reason,
                   "at": _when(c.at), "status": c.status, "seen_at": _when(c.seen_at),
                   "closed_at": _when(c.closed_at), "handled_by": _username(c.handled_by)}
                  for c in table.calls.all()],
    }


def _player(p, *, full: bool) -> dict[str, Any]:
    """The participant's player: with ``full`` as stored, else named as the player chose
    to be published (``clubs.publication``), without the member number."""
    return {"name": p.player.name if full else shown_player(p.player, p.start_number),
            "member_number": p.player.member_number if full else "",
            "club": p.player.club.slug if p.player.club else None,
            # the player's choice travels with the name: a copy of the document on
            # another server must not show a name its player withheld
            "publication": p.player.publication}


def tournament_export(*, tournament: Tournament, full: bool = True) -> dict[str, Any]:
    """The tournament as an open event document (a JSON-ready dict). ``full``: the
    directors' copy (the archive) with full names, member numbers and each table's
    history, confirmations, objections and calls; else what anyone may read."""
    participants = list(tournament.participants.select_related("player__club")
                        .order_by("start_number"))
    clubs = {p.player.club for p in participants if p.player.club} | (
        {tournament.club} if tournament.club else set())
    numbers = {p.pk: p.start_number for p in participants}
    rounds = (tournament.rounds.order_by("number")
              .prefetch_related("tables__seats__participant", "tables__deals",
                                "tables__events__user", "tables__confirmations",
                                "tables__objections__resolved_by", "tables__calls__handled_by"))
    standings = [{**{k: v for k, v in row.items() if k != "participant"},
                  "participant": numbers[row["participant"]]}
                 for row in compute_standings(tournament)]
    return {
        "format": FORMAT, "version": VERSION,
        "tournament": {
            "name": tournament.name, "slug": tournament.slug, "game": tournament.game,
            "rules": tournament.rules,
            "date": tournament.date.isoformat() if tournament.date else None,
            "status": tournament.status, "published": tournament.published,
            "avoid_same_club": tournament.avoid_same_club,
            "club_evening": tournament.club_evening,
            "loss_fee_cents": tournament.loss_fee_cents,
            "loss_fee_from": tournament.loss_fee_from,
            "loss_fee_high_cents": tournament.loss_fee_high_cents,
            "club": tournament.club.slug if tournament.club else None,
            "created_at": _when(tournament.created_at),
            "rounds_planned": tournament.rounds_planned,
            "team_size": tournament.team_size,
            "categories": list(tournament.categories or []),
            "club_ranking_k": tournament.club_ranking_k,
            "one_prize_per_player": tournament.one_prize_per_player,
        },
        "clubs": [{"slug": c.slug, "name": c.name, "city": c.city}
                  for c in sorted(clubs, key=lambda c: c.slug)],
        "participants": [
            {"start_number": p.start_number, "checked_in": p.checked_in,
             "withdrawn": p.withdrawn, "registered_at": _when(p.registered_at),
             "categories": list(p.categories or []), "club_name": p.club_name,
             "player": _player(p, full=full)}
            for p in participants],
        "rounds": [{"number": r.number, "method": r.method, "seed": r.seed, "closed": r.closed,
                    "reopened": r.reopened, "created_at": _when(r.created_at),
                    "tables": [_table_export(t, numbers, full=full) for t in r.tables.all()]}
                   for r in rounds],
        "standings": standings,
        "teams": [{"name": team.name,
                   "members": sorted(numbers[m.pk] for m in team.members.all())}
                  for team in tournament.teams.prefetch_related("members").order_by("id")],
        "prizes": _prizes_export(tournament, numbers),
    }


def _prizes_export(tournament: Tournament, numbers: dict[int, int]) -> dict[str, Any] | None:
    """The prize list, the lot (by start numbers) and the fee's history, or None."""
    stored = PrizeList.objects.filter(tournament=tournament).first()
    if stored is None:
        return None
    return {"config": stored.config,
            "lot": [numbers[pid] for pid in stored.lot] if stored.lot else None,
            "fee_events": [{"at": _when(e.at), "entry_fee_cents": e.entry_fee_cents}
                           for e in FeeEvent.objects.filter(tournament=tournament)
                           .order_by("at", "pk")]}
