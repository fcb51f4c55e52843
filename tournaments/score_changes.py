"""Every change to a player's own score after it was first shown, in words (api.md, "Open
results": ``GET /me/`` ``changes``; the player's page and the public player page).

- *shown*: a deal is shown once it is stored — the player's page and the table's card
  show it from then on, so its first entry is no change.
- *change*: a later entry of the table's history (``tournaments.services.history``) that
  moves the player's score in one deal of a table where they sat: a correction
  (``deal_update`` whose record changed), a re-scoring that follows from the correction
  of an earlier deal (its record unchanged), a deletion, and a penalty (a deal entered or
  corrected with penalty points, games.md §8.7) — each only when the player's score in
  that deal differs before and after. A correction that leaves the player's score alone
  is no change to them.
- *why*: the reason given with the correction, the decision of the objection about that
  deal (or the whole sheet) that was open when the change was made (or "open" while it
  is still open), the penalty in words, or the earlier deal whose correction re-scored
  this one.
- *by*: the tournament director (a staff user is never named), the table's tablet, or a
  player's phone (named on the player's own page only; the public page says "a player's
  phone": other players' names follow their own publication choice).

Two queries for any number of rounds, tables and deals: the seats (with table and round)
and the tables' history entries that can be a change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from clubs.models import Player
from games.engines import all_engines
from games.words import deal_in_words
from tournaments.models import Participant, Seat, SheetEvent
from tournaments.statements import columns, select_in

# the newest changes an answer lists (the API's bound)
MAX_CHANGES = 200

_ACTIONS = (SheetEvent.Action.DEAL_UPDATE, SheetEvent.Action.DEAL_DELETE,
            SheetEvent.Action.OBJECTION, SheetEvent.Action.OBJECTION_RESOLVE)
# the games whose deals may carry penalty points: only there is a deal entered a change
_PENALTY_GAMES = tuple(e.key for e in all_engines()
                       if any(f.name == "penalties" for f in e.RECORD))
KINDS = ("correction", "rescored", "deletion", "penalty")


@dataclass
class _Objection:
    deal: int | None
    note: str
    raised: datetime
    resolved: datetime | None = None
    resolution: str = ""


@dataclass(frozen=True)
class _Place:
    """Where the player sat: the tournament, round and table numbers, the seat."""

    tournament: Any
    round: int
    table: int
    seat: int
    participant: int


def _record(state: Any) -> dict | None:
    return state.get("record") if isinstance(state, dict) else None


def _score(state: Any, seat: int) -> int | None:
    """The seat's score in a stored deal state, None when there is no deal."""
    if not isinstance(state, dict) or not isinstance(state.get("scores"), list):
        return None
    scores = state["scores"]
    return scores[seat - 1] if 0 < seat <= len(scores) else None


def _penalties(state: Any) -> list:
    record = _record(state)
    penalties = record.get("penalties") if isinstance(record, dict) else None
    return penalties if isinstance(penalties, list) else []


def _kind(event: SheetEvent) -> str | None:
    action = event.action
    if action == SheetEvent.Action.DEAL_DELETE:
        return "deletion"
    if action == SheetEvent.Action.DEAL_CREATE:
        return "penalty" if _penalties(event.after) else None
    if _penalties(event.after) and _penalties(event.after) != _penalties(event.before):
        return "penalty"
    return "rescored" if _record(event.before) == _record(event.after) else "correction"


def _by(event: SheetEvent, place: _Place, *, own: bool) -> str:
    if event.participant_id is not None:
        if event.participant_id == place.participant:
            return _("own phone")
        if own and event.participant is not None:
            return _("phone of %(name)s") % {"name": event.participant.player.name}
        return _("a player's phone")
    if event.by_table:
        return _("tablet of table %(table)s") % {"table": place.table}
    return _("Tournament director")


def _objection_why(objections: list[_Objection], number: int | None, at: datetime) -> str:
    """The decision of the objection open at ``at`` about deal ``number`` (one about the
    deal before one about the whole sheet), or that it is still open; "" for none."""
    open_then = [o for o in objections if o.deal in (number, None) and o.raised <= at
                 and (o.resolved is None or o.resolved >= at)]
    if not open_then:
        return ""
    objection = min(open_then, key=lambda o: (o.deal is None, o.raised))
    if objection.resolved is None:
        return _("Objection still open: %(note)s") % {"note": objection.note}
    return _("Objection decided: %(resolution)s") % {"resolution": objection.resolution}


def _why(kind: str, event: SheetEvent, game: str, objection: str,
         corrected: int | None) -> str:
    reason = (event.after or {}).get("reason") if isinstance(event.after, dict) else None
    parts = [str(reason)] if reason else []
    if objection:
        parts.append(objection)
    if kind == "penalty":
        parts.append(deal_in_words(game, _record(event.after)))
    elif kind == "rescored" and corrected is not None:
        parts.append(_("follows from the correction of deal %(number)s")
                     % {"number": corrected})
    if not parts:
        parts.append(_("no reason given"))
    return "; ".join(p for p in parts if p)


def _changes(places: dict[int, _Place], events: Iterable[SheetEvent], *, own: bool
             ) -> list[dict[str, Any]]:
    """The changes among ``events`` (in written order per table) to the player seated as
    ``places`` says (by table id), newest first."""
    by_table: dict[int, list[SheetEvent]] = {}
    for event in events:
        by_table.setdefault(event.table_id, []).append(event)
    changes = []
    for table_id, chain in by_table.items():
        place = places[table_id]
        game = place.tournament.game
        objections: dict[Any, _Objection] = {}
        for event in chain:
            after = event.after or {}
            if event.action == SheetEvent.Action.OBJECTION:
                objections[after.get("objection")] = _Objection(
                    event.deal_number, str(after.get("note", "")), event.at)
            elif event.action == SheetEvent.Action.OBJECTION_RESOLVE:
                found = objections.get(after.get("objection"))
                if found is not None:
                    found.resolved, found.resolution = event.at, str(after.get("resolution", ""))
        corrected = None
        for event in chain:
            if event.action not in (SheetEvent.Action.DEAL_CREATE, SheetEvent.Action.DEAL_UPDATE,
                                    SheetEvent.Action.DEAL_DELETE):
                continue
            kind = _kind(event)
            if kind in ("correction", "penalty") and event.action == SheetEvent.Action.DEAL_UPDATE:
                corrected = event.deal_number
            before = _score(event.before, place.seat)
            after = _score(event.after, place.seat)
            if kind is None or before == after or (kind == "penalty" and not (before or after)):
                continue
            objection = _objection_why(list(objections.values()), event.deal_number, event.at)
            changes.append({
                "at": event.at, "id": event.pk,
                "tournament": {"id": place.tournament.pk, "name": place.tournament.name,
                               "slug": place.tournament.slug},
                "deal": {"round": place.round, "table": place.table,
                         "number": event.deal_number},
                "before": before, "after": after, "kind": kind,
                "by": _by(event, place, own=own),
                "why": _why(kind, event, game, objection, corrected)})
    changes.sort(key=lambda c: (c["at"], c["id"]), reverse=True)
    for change in changes:
        del change["id"]
    return changes[:MAX_CHANGES]


def table_events(table_ids: Iterable[int], game: str) -> dict[int, list[SheetEvent]]:
    """The events the changes are read from, by table, in written order (one statement,
    written once per process: ``tournaments.statements``), of tables of a tournament of
    ``game``: the same for everyone at a table, so a caller may keep them per version of
    the table. The tables' other events are read too and left out here (a sheet's
    entries, confirmations: a few dozen a table)."""
    found: dict[int, list[SheetEvent]] = {i: [] for i in table_ids}
    if not found:
        return found
    db = connection.alias
    names = columns(SheetEvent)
    with_created = game in _PENALTY_GAMES
    for *values, player_id, name in select_in(
            SheetEvent, (*names, "participant__player_id", "participant__player__name"),
            "table", list(found), order_by=("table", "id")):
        event = SheetEvent.from_db(db, names, values)
        if event.action not in _ACTIONS and not (
                with_created and event.action == SheetEvent.Action.DEAL_CREATE):
            continue
        if event.participant_id is not None:  # who acted
            event.participant = Participant.from_db(db, ("id", "player_id"),
                                                    (event.participant_id, player_id))
            event.participant.player = Player.from_db(db, ("id", "name"), (player_id, name))
        found[event.table_id].append(event)
    return found


def changes_of_seats(seats: Iterable[Seat], *, own: bool,
                     events: dict[int, list[SheetEvent]] | None = None
                     ) -> list[dict[str, Any]]:
    """The changes (module docstring) at the tables of ``seats`` (each with its table,
    round and the round's tournament loaded), newest first; one statement a game, none
    when the tables' ``events`` (``table_events``) are given."""
    places = {s.table_id: _Place(s.table.round.tournament, s.table.round.number,
                                 s.table.number, s.seat, s.participant_id) for s in seats}
    if not places:
        return []
    if events is None:
        events = {}
        by_game: dict[str, list[int]] = {}
        for table_id, place in places.items():
            by_game.setdefault(place.tournament.game, []).append(table_id)
        for game, table_ids in by_game.items():
            events.update(table_events(table_ids, game))
    return _changes(places, [e for table_id in sorted(places) for e in events[table_id]],
                    own=own)


def participant_changes(participant) -> list[dict[str, Any]]:
    """The changes to ``participant``'s scores in their tournament (loaded), for the
    tournament's public page of the player (no other player named); two queries."""
    seats = list(Seat.objects.filter(participant=participant).select_related("table__round"))
    for seat in seats:
        seat.table.round.tournament = participant.tournament
    return changes_of_seats(seats, own=False)


def public_changes(player, visible) -> list[dict[str, Any]]:
    """The changes to ``player``'s scores in the tournaments that ``visible`` (a ``Q`` on
    seats, e.g. ``visible_tournaments(viewer, via="table__round__tournament__")``) lets
    through, for the public player page (no other player named); two queries, one more
    for each further game played."""
    seats = (Seat.objects.filter(participant__player=player).filter(visible)
             .select_related("table__round__tournament"))
    return changes_of_seats(seats, own=False)
