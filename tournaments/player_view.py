"""The player's own phone, read side: whose page a personal token opens and what it shows.

- *personal token*: a participant's secret (``Participant.personal_token``); it opens
  the player's page while ``policies.personal_token_valid`` says so.
- *seat now*: the table where the player sits in the tournament's latest round while
  that round is open to the table's own token (``policies.sheet_refusal``) and the player
  has not withdrawn — the one table their phone may act at. None before any draw, after
  a withdrawal, while the latest round is closed, or when the player was not drawn in it.
- *overview*: what ``GET /api/v1/me/`` answers and ``/me/<token>/`` shows (api.md,
  "The player's own phone"): the seat now with who deals first and the table's players,
  the player's score and rank in the stored standings, every round played (with the
  rank in that round's stored list), and the open sheets the player still has to
  confirm.

Pure reads with a fixed number of queries, whatever the number of rounds and tables.
The names of the others at the table are the tablet's (``selectors.table_states``): the
player sits with them, so they see them as the table does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
from django.db.models import Max
from django.utils import timezone

from games.engines import DealContext, get_engine
from tournaments.models import Participant, Seat, SheetConfirmation, Table
from tournaments.policies import personal_token_valid, sheet_refusal
from tournaments.recompute import snapshots
from tournaments.selectors import standings_computed_at, standings_lists, table_states


def participant_by_token(token: str) -> Participant | None:
    """The participant whose personal token this is and still opens their page (one
    query), with tournament, club and player loaded."""
    participant = (Participant.objects.select_related("tournament__club", "player")
                   .filter(personal_token=token).first())
    if participant is None or not personal_token_valid(participant, timezone.localdate()):
        return None
    return participant


def _seats(participant: Participant) -> list[Seat]:
    """The participant's seats, by round, each with its table and round (one query)."""
    seats = list(Seat.objects.filter(participant=participant).select_related("table__round")
                 .order_by("table__round__number"))
    for seat in seats:
        seat.table.round.tournament = participant.tournament
    return seats


def _open(table: Table) -> bool:
    """Whether the table's round is open to the table's own token (and so to the
    phones of its players)."""
    return sheet_refusal(table, by_table=True, write=False) is None


def _seat_now(participant: Participant, seats: list[Seat]) -> Seat | None:
    if participant.withdrawn or not seats:
        return None
    latest = participant.tournament.rounds.aggregate(m=Max("number"))["m"]
    last = seats[-1]
    if last.table.round.number != latest or not _open(last.table):
        return None
    return last


def seated_table(participant: Participant) -> Table | None:
    """The table of the player's seat now (round and tournament loaded), or None."""
    seat = _seat_now(participant, _seats(participant))
    return seat.table if seat is not None else None


def first_dealer(game: str, rules: dict[str, Any], players: int) -> int:
    """The seat that deals the first deal at a table of ``players`` (the engine's hint)."""
    engine = get_engine(game)
    hints = engine.deal_hints(DealContext(1, players, engine.options(rules), previous=()))
    return hints["dealer"]


@dataclass(frozen=True)
class PlayerOverview:
    """``body``: the JSON of ``GET /me/``; ``etag``: its strong validator, which also
    changes with what the body does not show (a new sheet version of the player's table,
    a confirmation there) — not with a recompute that leaves the player's score and
    ranks alone; ``table``: the table of the seat now, or None."""

    body: dict[str, Any]
    etag: str
    table: Table | None


def _rank_of(rows: list[dict[str, Any]], participant_id: int) -> tuple[Any, Any]:
    row = next((r for r in rows if r["participant"] == participant_id), None)
    return (row["rank"], row["score"]) if row else (None, None)


def player_overview(participant: Participant) -> PlayerOverview:
    """The player's overview (api.md ``GET /me/``): at most nine queries."""
    tournament = participant.tournament
    seats = _seats(participant)
    now = _seat_now(participant, seats)
    # the sheets the player may still confirm: their open tables not yet submitted
    live = [s for s in seats if not s.table.submitted and _open(s.table)]
    shown = {s.table_id: s for s in live}
    if now is not None:
        shown[now.table_id] = now
    states = {state["id"]: state
              for state in table_states([s.table for s in shown.values()], deals=False)}
    confirmed = set(SheetConfirmation.objects.filter(table_id__in=[s.table_id for s in live])
                    .values_list("table_id", "seat", "version")) if live else set()
    computed_at = standings_computed_at(tournament)
    lists = snapshots.ranked_lists(tournament.pk, computed_at,
                                   lambda: standings_lists([tournament]))
    rank, score = _rank_of(lists.get((tournament.pk, 0), []), participant.pk)

    body: dict[str, Any] = {
        "participant": participant.pk,
        "name": participant.player.name,
        "tournament": {"id": tournament.pk, "name": tournament.name, "slug": tournament.slug},
        "now": None,
        "score": score,
        "rank": rank,
        "rounds": [{"round": s.table.round.number, "table": s.table.number, "score": s.score,
                    "rank": _rank_of(lists.get((tournament.pk, s.table.round.number), []),
                                     participant.pk)[0]}
                   for s in seats],
        "confirmations_due": [s.table_id for s in live
                              if states[s.table_id]["complete"]
                              and (s.table_id, s.seat, s.table.version) not in confirmed],
    }
    if now is not None:
        state = states[now.table_id]
        body["now"] = {
            "round": now.table.round.number, "table": now.table.number, "seat": now.seat,
            "first_dealer": first_dealer(tournament.game, tournament.rules,
                                         len(state["seats"])),
            "players": [{"seat": s["seat"], "name": s["name"]} for s in state["seats"]],
            "table_id": now.table_id,
        }
    # the ETag covers what the answer shows, not the computation: a phone whose score
    # and ranks a recompute left alone gets its 304 (a championship's computation every
    # few seconds reaches all 3,000 players' pages)
    stamp = {"body": body, "tables": sorted((s.table_id, s.table.version) for s in
                                            shown.values()),
             "confirmations": sorted(confirmed)}
    digest = hashlib.sha256(orjson.dumps(stamp, option=orjson.OPT_NON_STR_KEYS)).hexdigest()
    return PlayerOverview(body, f'"me-{digest[:24]}"', now.table if now else None)
