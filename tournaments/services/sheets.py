"""Writing a table's sheet: deals, corrections, deletion, the Skat summary, submission.

Every function works on a *sheet write* (``SheetWrite``): the table locked for the
transaction together with its game's engine, its rules and its number of players, loaded
once per request (``sheet_write``; a caller that locked the table already — the API's
table endpoint, the idempotency check — passes its own) and used by the checks, the
scoring and the re-totalling alike. Concurrent writers to one sheet run one after
another; each change re-totals the sheet into the seats, bumps the
table's ``version`` and appends a ``SheetEvent`` with the values before and after.
Deals are validated by the game's engine in their place in the sheet (deal number,
dealer, schedule): each sees the records before it (``DealContext.previous``), and
whether the sheet is complete or has room is the engine's answer (``sheet_complete``,
``sheet_room``), never a count of rows here.

A correction of deal k re-scores deals k+1, … in order with the corrected records before
them (a game whose dealer or order depends on earlier deals, Doppelkopf, may score them
differently now); when a later deal no longer fits its place, the correction is refused
with that deal's number and field, so a stored sheet is always in a valid order. Later
deals whose scores or extras change are saved (their version bumped) and logged.
"""

from __future__ import annotations

import functools
import json
import marshal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.engines import DealContext, Engine, ScoredDeal, get_engine
from games.engines.base import is_int
from games.errors import FieldError, UserError, user_error
from tournaments.errors import MissingPrecondition, StalePrecondition, StateConflict
from tournaments.freshness import if_match_holds
from tournaments.models import (
    REASON_MAX,
    Deal,
    Objection,
    SheetEvent,
    Table,
)
from tournaments.policies import FINISHED, ROUND_CLOSED, sheet_refusal
from tournaments.recompute.outbox import sheet_changed
from tournaments.services import history
from tournaments.services.actors import Actor
from tournaments.services.lifecycle import finished_refusal
from tournaments.services.notes import clean_note
from tournaments.statements import Reads, Writes, lock_table, seats_update, select


def table_lock(table_id: int) -> Table:
    """The table, locked for this transaction (call inside ``transaction.atomic``);
    ``Table.DoesNotExist`` for no table."""
    table = lock_table("id", table_id)
    if table is None:
        raise Table.DoesNotExist(f"No table {table_id}.")
    return table


def table_lock_by_token(token: str) -> Table | None:
    """The table of an entry token, locked for this transaction; None for no table."""
    return lock_table("entry_token", token)


# ``SheetWrite.token_refusal`` before anyone asked the policy for the table's token
NOT_ASKED = "not asked"


@dataclass(frozen=True)
class SheetWrite:
    """One table's sheet as a request writes it: the locked table, its game's engine,
    the rules (parsed once) and its number of players (counted once); ``token_refusal``:
    the policy's answer (``sheet_refusal``) for the table's own token when the request's
    authentication asked it of the locked table already — the one decision of the
    request, which the service's check reuses (``NOT_ASKED``: the service asks)."""

    table: Table
    engine: Engine
    rules: dict[str, Any]
    players: int
    token_refusal: str | None = NOT_ASKED

    @classmethod
    def of(cls, table: Table, *, token_refusal: str | None = NOT_ASKED) -> SheetWrite:
        """The write context of a table locked by ``table_lock`` (or the lock above)."""
        tournament = table.round.tournament
        engine = get_engine(tournament.game)
        players = getattr(table, "seat_count", None)
        if players is None:
            players = table.seats.count()
        return cls(table, engine, engine.options(tournament.rules), players or 0,
                   token_refusal)


def sheet_write(table_id: int | None = None, sheet: SheetWrite | None = None) -> SheetWrite:
    """``sheet`` when the caller holds one (for the same table), else the table locked
    and loaded now (inside ``transaction.atomic``)."""
    if sheet is not None:
        if table_id is not None and sheet.table.pk != table_id:
            raise ValueError("the sheet write is of another table")
        return sheet
    return SheetWrite.of(table_lock(table_id))


F = TypeVar("F", bound=Callable[..., Any])


def sheet_transaction(function: F) -> F:
    """``transaction.atomic`` around a sheet write (keyword ``sheet``). A caller that
    passes its own ``SheetWrite`` holds the table's lock in its own transaction and rolls
    the whole of it back when the write is refused (the API's table endpoint: a refusal
    marks the transaction for rollback), so no savepoint is made for it — two round
    trips to the database per write saved. Without ``sheet`` the write is its own
    transaction, or a savepoint inside the caller's, as ever."""

    @functools.wraps(function)
    def wrapper(*args: Any, sheet: SheetWrite | None = None, **kwargs: Any) -> Any:
        with transaction.atomic(savepoint=sheet is None):
            return function(*args, sheet=sheet, **kwargs)

    return wrapper  # type: ignore[return-value]


_REFUSALS = {
    ROUND_CLOSED: _("The round is closed; the sheet can no longer be changed."),
}


def _check_writable(sheet: SheetWrite, actor: Actor, *, staff_after_submit: bool) -> None:
    """``StateConflict`` when the policy (``sheet_refusal``) refuses the change: asked
    here, unless the table's own token writes and its answer came with the sheet."""
    table = sheet.table
    if actor.by_table and sheet.token_refusal != NOT_ASKED:
        refusal = sheet.token_refusal
    else:
        refusal = sheet_refusal(table, by_table=actor.by_table, write=True,
                                after_submit=staff_after_submit)
    if refusal == FINISHED:
        raise StateConflict(finished_refusal(table.round.tournament))
    if refusal is not None:
        raise StateConflict(_REFUSALS.get(refusal, _("The sheet has been submitted.")))


def _deal_state(deal: Deal) -> dict[str, Any]:
    return {"number": deal.number, "record": deal.record, "scores": deal.scores}


def _log(table: Table, actor: Actor, action: str, *, number: int | None = None,
         before: Any = None, after: Any = None, writes: Writes | None = None,
         key: int | None = None) -> None:
    """Append the history entry (with ``writes``: among the write's other rows; ``key``:
    its key, taken already)."""
    history.append(table, writes=writes, key=key, user=actor.user if actor.is_staff else None,
                   by_table=actor.by_table, participant=actor.participant, ip=actor.ip,
                   action=action, deal_number=number, before=before, after=after)


def score_in_place(engine, number: int, record: Any, players: int, rules: dict[str, Any],
                   previous: Sequence[dict[str, Any]] | None = None) -> ScoredDeal:
    """Validate and score ``record`` as deal ``number`` of a sheet at a table of
    ``players`` after the records ``previous`` (None: not known, the engine checks the
    deal on its own): the one check of a deal, entered or imported (``archive``)."""
    ctx = DealContext(number=number, players=players, rules=rules,
                      previous=None if previous is None else tuple(previous))
    return engine.score_deal(engine.validate_deal(record, ctx), ctx)


_written = marshal.dumps


class DealMemo:
    """``score_in_place`` for the deals of many sheets of one game under one set of
    rules (an imported tournament's: ``archive.reading``): a deal written alike to one met
    before at an equal place (``Engine.deal_place``) gets that one's result. Alike is
    marshal's bytes, which tell every field, value, kind and order apart (``true`` from
    ``1``, ``0.0`` from ``-0.0``); a value marshal does not write (a subclass) is checked
    every time, as is every deal of a game that does not say what of its place it reads.
    A refused deal is never kept: it is checked again, and refused naming its field, each
    time. The results are shared between deals alike: read them, never change them."""

    def __init__(self, engine: Engine, rules: dict[str, Any]):
        self.engine, self.rules = engine, rules
        self._seen: dict[tuple[Any, bytes], ScoredDeal] = {}
        self._places: dict[int, dict[int, Any]] = {}  # players → number → place

    def scorer(self, players: int) -> Callable[[int, Any, Sequence[dict[str, Any]]],
                                              ScoredDeal]:
        """``score(number, record, previous)``: ``score_in_place(engine, number, record,
        players, rules, previous)`` for the deals of a sheet at a table of ``players``."""
        engine, rules, seen = self.engine, self.rules, self._seen
        found, keep = seen.get, seen.__setitem__
        places = self._places.setdefault(players, {})

        def score(number: int, record: Any, previous: Sequence[dict[str, Any]]) -> ScoredDeal:
            place = places.get(number, places)  # the dict itself: not asked yet
            if place is places:
                place = places[number] = engine.deal_place(number, players)
            key = None
            if place is not None:
                try:
                    key = (place, _written(record, 2))  # marshal's version 2: no references
                except ValueError:
                    pass
                else:
                    scored = found(key)
                    if scored is not None:
                        return scored
            scored = score_in_place(engine, number, record, players, rules, previous)
            if key is not None:
                keep(key, scored)
            return scored

        return score


def _score(sheet: SheetWrite, number: int, record: Any,
           previous: Sequence[dict[str, Any]] | None = None) -> ScoredDeal:
    return score_in_place(sheet.engine, number, record, sheet.players, sheet.rules, previous)


def _deals(table: Table) -> list[Deal]:
    return list(table.deals.order_by("number"))


def _scored_deals(table: Table) -> list[ScoredDeal]:
    """The sheet's deals in order as the engine sees them (no model instances: what
    entering a deal and re-totalling read)."""
    return [ScoredDeal(*row) for row in select(Deal, ("record", "scores", "extra"),
                                               {"table": table.pk}, order_by="number")]


def _as_scored(deals: Sequence[Deal]) -> list[ScoredDeal]:
    return [ScoredDeal(d.record, d.scores, d.extra) for d in deals]


def retotal(table: Table, sheet: SheetWrite | None = None,
            scored: Sequence[ScoredDeal] | None = None, writes: Writes | None = None,
            appended: bool = False) -> None:
    """Write the sheet's totals into the seats and bump the table's version. ``scored``
    (all of the sheet's deals in order) saves reading them again when the caller has.
    ``writes``: the caller's, which sends these rows with its own; else sent here.
    ``appended``: the change only added deals at the sheet's end (``sheet_changed``)."""
    sheet = sheet or SheetWrite.of(table)
    own = writes is None
    if own:
        writes = Writes()
    engine, rules, players = sheet.engine, sheet.rules, sheet.players
    if table.summary is not None:
        totals = engine.summary_totals(table.summary, players, rules)
    else:
        scored = _scored_deals(table) if scored is None else scored
        totals = engine.sheet_totals(scored, players, rules)
    seats_update(table.pk, totals, writes)
    table.version += 1
    writes.update(table, ["version", "history_head"])
    sheet_changed(table.round.tournament_id, round_number=table.round.number,
                  table_id=table.pk, table=table, writes=writes, appended=appended)
    if own:
        writes.send()


def _check_if_match(deal: Deal, if_match: str | None) -> None:
    if not if_match:
        raise MissingPrecondition()
    if not if_match_holds(if_match, deal.etag):
        raise StalePrecondition()


def _deal_or_404(table: Table, number: int) -> Deal:
    return Deal.objects.get(table=table, number=number)


@sheet_transaction
def deal_record(*, table_id: int | None = None, number: Any, record: Any, actor: Actor,
                sheet: SheetWrite | None = None, once: Any = None) -> Deal | None:
    """Enter the next deal of a sheet. ``number`` must be the next deal number.

    ``once``: the request's ``Idempotency-Key`` (``services.idempotency.Once``), looked
    up with the write's reads and stored with its rows; None is returned when its
    stored answer is replayed (``once.answer``), and nothing is written then."""
    sheet = sheet_write(table_id, sheet)
    table, engine, rules = sheet.table, sheet.engine, sheet.rules
    # after the lock, one round trip: the key's answer, the sheet's deals, the new keys
    reads = Reads()
    if once is not None:
        once.look_up(reads)
    stored = reads.json_rows(Deal, ("record", "scores", "extra"), {"table": table.pk},
                             order_by="number")
    keys = reads.keys(Deal, SheetEvent)
    found = reads.send()
    if once is not None and once.replayed_from(found):
        return None
    _check_writable(sheet, actor, staff_after_submit=False)
    if table.summary is not None:
        raise StateConflict(_("This sheet was entered as a summary."))
    if not is_int(number) or number < 1:
        raise user_error("number", _("The deal number must be a whole number of 1 or more."))
    deals = [ScoredDeal(*row) for row in found[stored]]
    count = len(deals)
    if number <= count:
        raise StateConflict(_("Deal %(number)s has already been entered; correct it instead."),
                            number=number)
    previous = [d.record for d in deals]
    if engine.sheet_complete(previous, sheet.players, rules):
        raise user_error("number", _("The sheet is complete with %(length)s deals."),
                         length=count)
    if number != count + 1:
        raise user_error("number", _("The next deal is number %(next)s."), next=count + 1)
    scored = _score(sheet, number, record, previous)
    deal_key, entry_key = found[keys]
    # the deal, its history entry, the totals, the version, the outbox row and the key's
    # answer: one trip
    writes = Writes()
    deal = writes.insert(Deal(pk=deal_key, table=table, number=number, record=scored.record,
                              scores=scored.scores, extra=scored.extra))
    _log(table, actor, SheetEvent.Action.DEAL_CREATE, number=number, after=_deal_state(deal),
         writes=writes, key=entry_key)
    retotal(table, sheet, [*deals, scored], writes, appended=True)
    if once is not None:
        once.store(writes, deal)
    writes.send()
    return deal


@sheet_transaction
def deals_record(*, table_id: int | None = None, records: Any, actor: Actor,
                 sheet: SheetWrite | None = None) -> list[Deal]:
    """Enter the next deals of a sheet at once (a paper sheet typed in), all or nothing:
    each record is checked in its place, and one error names every offending deal and
    field (``deal`` = index in ``records``, ``number`` = its deal number)."""
    sheet = sheet_write(table_id, sheet)
    table, engine, rules = sheet.table, sheet.engine, sheet.rules
    _check_writable(sheet, actor, staff_after_submit=False)
    if table.summary is not None:
        raise StateConflict(_("This sheet was entered as a summary."))
    if not isinstance(records, list) or not records:
        raise user_error("deals", _("Enter at least one deal."))
    stored = _deals(table)
    count = len(stored)
    previous: list[dict[str, Any]] | None = [d.record for d in stored]
    room = engine.sheet_room(previous, sheet.players, rules)
    if room is not None and len(records) > room:
        raise user_error("deals", _("The sheet has room for %(room)s more deals."), room=room)
    scored, errors = [], []
    for index, record in enumerate(records):
        number = count + 1 + index
        try:
            scored.append(_score(sheet, number, record, previous))
            if previous is not None:
                previous.append(scored[-1].record)
        except UserError as exc:
            errors.extend(replace(error, deal=index, number=number) for error in exc.errors)
            previous = None  # after a bad deal its followers' places are unknown
    if errors:
        raise UserError(errors)
    deals = []
    for index, deal_scored in enumerate(scored):
        number = count + 1 + index
        deal = Deal.objects.create(table=table, number=number, record=deal_scored.record,
                                   scores=deal_scored.scores, extra=deal_scored.extra)
        _log(table, actor, SheetEvent.Action.DEAL_CREATE, number=number,
             after=_deal_state(deal))
        deals.append(deal)
    retotal(table, sheet, [*_as_scored(stored), *scored], appended=True)
    return deals


def deal_preview(*, table_id: int, number: Any, record: Any) -> ScoredDeal:
    """Validate and score a deal as deal ``number`` of the sheet, storing nothing."""
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    if not is_int(number) or number < 1:
        raise user_error("number", _("The deal number must be a whole number of 1 or more."))
    previous = list(table.deals.filter(number__lt=number).order_by("number")
                    .values_list("record", flat=True))
    if len(previous) != number - 1:
        previous = None  # a number beyond the next: its place is not known
    return _score(SheetWrite.of(table), number, record, previous)


@sheet_transaction
def deal_correct(*, table_id: int | None = None, number: int, record: Any, actor: Actor,
                 if_match: str | None, reason: Any = None,
                 sheet: SheetWrite | None = None) -> Deal:
    """Correct a deal; ``if_match`` must carry the deal's current ETag. ``reason``: why,
    in a few words (optional, at most ``REASON_MAX``), kept with the
    corrected deal's history entry (``after["reason"]``) and shown to its players."""
    reason = clean_note(reason, field="reason", max_length=REASON_MAX,
                        required=False)
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    deals = _deals(table)
    deal = next((d for d in deals if d.number == number), None)
    if deal is None:
        raise Deal.DoesNotExist()
    _check_writable(sheet, actor, staff_after_submit=True)
    _check_if_match(deal, if_match)
    previous = [d.record for d in deals if d.number < number]
    scored = _score(sheet, number, record, previous)
    later = _rescore_later(sheet, deals, number, [*previous, scored.record])
    before = _deal_state(deal)
    deal.record, deal.scores, deal.extra = scored.record, scored.scores, scored.extra
    deal.version += 1
    writes = Writes()  # the corrected deal, the later ones and the rest: one trip
    for changed, changed_before in ((deal, before), *later):
        writes.update(changed, ["record", "scores", "extra", "version", "updated_at"])
        after = _deal_state(changed)
        if reason and changed is deal:
            after["reason"] = reason
        _log(table, actor, SheetEvent.Action.DEAL_UPDATE, number=changed.number,
             before=changed_before, after=after, writes=writes)
    retotal(table, sheet, _as_scored(deals), writes)
    writes.send()
    return deal


def _as_stored(value: Any) -> Any:
    """``value`` as the JSON fields give it back (tuples become lists)."""
    return tuple(json.loads(json.dumps(value)))


def _rescore_later(sheet: SheetWrite, deals: list[Deal], number: int,
                   previous: list[dict[str, Any]]) -> list[tuple[Deal, dict[str, Any]]]:
    """Re-score the deals after ``number`` in order after the corrected ``previous``;
    those whose scores or extras change get the new ones and their version bumped.
    Refuse (naming the later deal) when one no longer fits its place. Returns the
    changed deals (the caller stores them) with their states before."""
    changed: list[tuple[Deal, dict[str, Any]]] = []
    errors = []
    for other in deals:
        if other.number <= number:
            continue
        try:
            scored = _score(sheet, other.number, other.record, previous)
        except UserError as exc:
            errors.append(FieldError(
                "number", _("After this correction deal %(later)s no longer fits its "
                            "place in the sheet."), {"later": other.number}))
            errors.extend(replace(e, deal=other.number - 1, number=other.number)
                          for e in exc.errors)
            break
        previous.append(scored.record)
        if _as_stored((scored.record, scored.scores, scored.extra)) != (
                other.record, other.scores, other.extra):
            before = _deal_state(other)
            other.record, other.scores, other.extra = scored.record, scored.scores, scored.extra
            other.version += 1
            changed.append((other, before))
    if errors:
        raise UserError(errors)
    return changed


@sheet_transaction
def deal_delete(*, table_id: int | None = None, number: int, actor: Actor,
                if_match: str | None = None, sheet: SheetWrite | None = None) -> None:
    """Delete the last deal of a sheet that is not yet submitted."""
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    deal = _deal_or_404(table, number)
    _check_writable(sheet, actor, staff_after_submit=False)
    if if_match:
        _check_if_match(deal, if_match)
    last = table.deals.order_by("-number").values_list("number", flat=True).first()
    if number != last:
        raise StateConflict(_("Only the last deal (number %(last)s) can be deleted."), last=last)
    _log(table, actor, SheetEvent.Action.DEAL_DELETE, number=number, before=_deal_state(deal))
    deal.delete()
    retotal(table, sheet)


@transaction.atomic
def summary_record(*, table_id: int | None = None, seats: Any, actor: Actor,
                   sheet: SheetWrite | None = None) -> Table:
    """Enter a sheet as its totals (Skat summary); it replaces any deals entered."""
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    _check_writable(sheet, actor, staff_after_submit=True)
    sheet.engine.summary_totals(seats, sheet.players, sheet.rules)
    before = {"summary": table.summary,
              "deals": [_deal_state(d) for d in table.deals.order_by("number")]}
    table.deals.all().delete()
    table.summary = seats
    table.save(update_fields=["summary"])
    _log(table, actor, SheetEvent.Action.SUMMARY, before=before, after={"summary": seats})
    retotal(table, sheet)
    return table


def confirming_players(table: Table, confirmed_by: Any) -> list[dict]:
    """The seats (with the players' names) that confirmed a sheet at the table.

    ``confirmed_by`` is ``None`` (nobody said) or a list of the table's seat numbers, each
    at most once. The names are kept as they were, so the history still reads right after
    a player is renamed or merged."""
    if confirmed_by is None:
        return []
    if not isinstance(confirmed_by, list) or not all(is_int(s) for s in confirmed_by):
        raise user_error("confirmed_by",
                         _("List the seat numbers of the players who confirmed."))
    seats = {s.seat: s for s in table.seats.select_related("participant__player")}
    for seat in confirmed_by:
        if seat not in seats:
            raise user_error("confirmed_by", _("Seat %(seat)s is not at this table."),
                             seat=seat)
    if len(set(confirmed_by)) != len(confirmed_by):
        raise user_error("confirmed_by", _("Each seat confirms only once."))
    return [{"seat": seat, "name": seats[seat].participant.player.name}
            for seat in sorted(confirmed_by)]


@transaction.atomic
def sheet_submit(*, table_id: int | None = None, actor: Actor, confirmed_by: Any = None,
                 unconfirmed_reason: str = "", sheet: SheetWrite | None = None) -> Table:
    """Lock a complete sheet: the table's token can no longer write it. ``confirmed_by``
    names the seats whose players confirmed the totals (kept in the history).

    ``unconfirmed_reason`` is the director's word on why a sheet goes in although not
    every seated player confirmed it (a player left, a tablet broke); only staff give
    it, and the history keeps it beside the names of those who did confirm."""
    sheet = sheet_write(table_id, sheet)
    table = sheet.table
    _check_writable(sheet, actor, staff_after_submit=False)
    confirmed = confirming_players(table, confirmed_by)
    if table.objections.filter(status=Objection.Status.OPEN).exists():
        raise StateConflict(_("An objection to this sheet is open; the director resolves "
                              "it first."))
    reason = (unconfirmed_reason or "").strip()
    if reason and not actor.is_staff:
        raise user_error("unconfirmed_reason",
                         _("Only the tournament director submits a sheet without every "
                           "player's confirmation."))
    if table.summary is None:
        length = sheet.engine.sheet_length(sheet.players, sheet.rules)
        records = list(table.deals.order_by("number").values_list("record", flat=True))
        count = len(records)
        if not sheet.engine.sheet_complete(records, sheet.players, sheet.rules):
            if count < length:
                raise user_error("deals", _("The sheet has %(count)s of %(length)s deals."),
                                 count=count, length=length)
            raise user_error("deals", _("The sheet is not complete yet."))
    table.submitted = True
    table.submitted_at = timezone.now()
    table.version += 1
    table.save(update_fields=["submitted", "submitted_at", "version"])
    after = {"submitted": True, "confirmed_by": confirmed}
    if reason:
        after["unconfirmed_reason"] = reason
    _log(table, actor, SheetEvent.Action.SUBMIT, after=after)
    sheet_changed(table.round.tournament_id, round_number=table.round.number,
                  table_id=table.pk, table=table)
    return table
