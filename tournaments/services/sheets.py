"""Writing a table's sheet: deals, corrections, deletion, the Skat summary, submission.

Every function locks the table row first (``table_lock``), so concurrent writers to one
sheet run one after another; each change re-totals the sheet into the seats, bumps the
table's ``version`` and appends a ``SheetEvent`` with the values before and after.
Deals are validated by the game's engine in their place in the sheet (deal number,
dealer, schedule).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.cache import parse_etags
from django.utils.translation import gettext_noop as _

from games.engines import DealContext, Engine, EngineUserError, ScoredDeal, get_engine
from games.engines.base import is_int, user_error
from tournaments.errors import MissingPrecondition, StalePrecondition, StateConflict
from tournaments.models import Deal, Seat, SheetEvent, Table
from tournaments.recompute.outbox import sheet_changed
from tournaments.services.actors import Actor


def table_lock(table_id: int) -> Table:
    """The table, locked for this transaction (call inside ``transaction.atomic``)."""
    return (Table.objects.select_for_update().select_related("round__tournament")
            .get(pk=table_id))


def _engine(table: Table) -> tuple[Engine, dict[str, Any]]:
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    return engine, engine.options(tournament.rules)


def _players(table: Table) -> int:
    return table.seats.count()


def _check_writable(table: Table, actor: Actor, *, staff_after_submit: bool) -> None:
    if table.round.closed or (actor.by_table and table.round.reopened):
        # A reopened round is open for staff only: the table's token stays locked.
        raise StateConflict(_("The round is closed; the sheet can no longer be changed."))
    if table.submitted and (actor.by_table or not staff_after_submit):
        raise StateConflict(_("The sheet has been submitted."))


def _deal_state(deal: Deal) -> dict[str, Any]:
    return {"number": deal.number, "record": deal.record, "scores": deal.scores}


def _log(table: Table, actor: Actor, action: str, *, number: int | None = None,
         before: Any = None, after: Any = None) -> None:
    SheetEvent.objects.create(table=table, user=actor.user if actor.is_staff else None,
                              by_table=actor.by_table, ip=actor.ip, action=action,
                              deal_number=number, before=before, after=after)


def _score(engine: Engine, rules: dict, table: Table, number: int, record: Any) -> ScoredDeal:
    ctx = DealContext(number=number, players=_players(table), rules=rules)
    return engine.score_deal(engine.validate_deal(record, ctx), ctx)


def retotal(table: Table) -> None:
    """Write the sheet's totals into the seats and bump the table's version."""
    engine, rules = _engine(table)
    players = _players(table)
    if table.summary is not None:
        totals = engine.summary_totals(table.summary, players, rules)
    else:
        scored = [ScoredDeal(d.record, d.scores, d.extra) for d in table.deals.order_by("number")]
        totals = engine.sheet_totals(scored, players, rules)
    by_seat = {row["seat"]: row for row in totals}
    seats = list(table.seats.all())
    for seat in seats:
        row = by_seat[seat.seat]
        seat.score = row["score"]
        seat.figures = {k: v for k, v in row.items() if k not in ("seat", "score")}
    Seat.objects.bulk_update(seats, ["score", "figures"])
    table.version += 1
    table.save(update_fields=["version"])
    sheet_changed(table.round.tournament_id, round_number=table.round.number,
                  table_id=table.pk)


def _check_if_match(deal: Deal, if_match: str | None) -> None:
    if not if_match:
        raise MissingPrecondition()
    # RFC 9110 §13.1.1: a strong comparison (a weak tag never matches), a list matches
    # when one of its tags does, "*" matches any current deal
    tags = parse_etags(if_match)
    if tags != ["*"] and deal.etag not in tags:
        raise StalePrecondition()


def _deal_or_404(table: Table, number: int) -> Deal:
    return Deal.objects.get(table=table, number=number)


@transaction.atomic
def deal_record(*, table_id: int, number: Any, record: Any, actor: Actor) -> Deal:
    """Enter the next deal of a sheet. ``number`` must be the next deal number."""
    table = table_lock(table_id)
    _check_writable(table, actor, staff_after_submit=False)
    if table.summary is not None:
        raise StateConflict(_("This sheet was entered as a summary."))
    engine, rules = _engine(table)
    if not is_int(number) or number < 1:
        raise user_error("number", _("The deal number must be a whole number of 1 or more."))
    count = table.deals.count()
    if number <= count:
        raise StateConflict(_("Deal %(number)s has already been entered; correct it instead."),
                            number=number)
    length = engine.sheet_length(_players(table), rules)
    if count >= length:
        raise user_error("number", _("The sheet is complete with %(length)s deals."),
                         length=length)
    if number != count + 1:
        raise user_error("number", _("The next deal is number %(next)s."), next=count + 1)
    scored = _score(engine, rules, table, number, record)
    deal = Deal.objects.create(table=table, number=number, record=scored.record,
                               scores=scored.scores, extra=scored.extra)
    _log(table, actor, SheetEvent.Action.DEAL_CREATE, number=number, after=_deal_state(deal))
    retotal(table)
    return deal


@transaction.atomic
def deals_record(*, table_id: int, records: Any, actor: Actor) -> list[Deal]:
    """Enter the next deals of a sheet at once (a paper sheet typed in), all or nothing:
    each record is checked in its place, and one error names every offending deal and
    field (``deal`` = index in ``records``, ``number`` = its deal number)."""
    table = table_lock(table_id)
    _check_writable(table, actor, staff_after_submit=False)
    if table.summary is not None:
        raise StateConflict(_("This sheet was entered as a summary."))
    if not isinstance(records, list) or not records:
        raise user_error("deals", _("Enter at least one deal."))
    engine, rules = _engine(table)
    count = table.deals.count()
    room = engine.sheet_length(_players(table), rules) - count
    if len(records) > room:
        raise user_error("deals", _("The sheet has room for %(room)s more deals."), room=room)
    scored, errors = [], []
    for index, record in enumerate(records):
        number = count + 1 + index
        try:
            scored.append(_score(engine, rules, table, number, record))
        except EngineUserError as exc:
            errors.extend(replace(error, deal=index, number=number) for error in exc.errors)
    if errors:
        raise EngineUserError(errors)
    deals = []
    for index, deal_scored in enumerate(scored):
        number = count + 1 + index
        deal = Deal.objects.create(table=table, number=number, record=deal_scored.record,
                                   scores=deal_scored.scores, extra=deal_scored.extra)
        _log(table, actor, SheetEvent.Action.DEAL_CREATE, number=number,
             after=_deal_state(deal))
        deals.append(deal)
    retotal(table)
    return deals


def deal_preview(*, table_id: int, number: Any, record: Any) -> ScoredDeal:
    """Validate and score a deal as deal ``number`` of the sheet, storing nothing."""
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    if not is_int(number) or number < 1:
        raise user_error("number", _("The deal number must be a whole number of 1 or more."))
    engine, rules = _engine(table)
    return _score(engine, rules, table, number, record)


@transaction.atomic
def deal_correct(*, table_id: int, number: int, record: Any, actor: Actor,
                 if_match: str | None) -> Deal:
    """Correct a deal; ``if_match`` must carry the deal's current ETag."""
    table = table_lock(table_id)
    deal = _deal_or_404(table, number)
    _check_writable(table, actor, staff_after_submit=True)
    _check_if_match(deal, if_match)
    engine, rules = _engine(table)
    scored = _score(engine, rules, table, number, record)
    before = _deal_state(deal)
    deal.record, deal.scores, deal.extra = scored.record, scored.scores, scored.extra
    deal.version += 1
    deal.save(update_fields=["record", "scores", "extra", "version", "updated_at"])
    _log(table, actor, SheetEvent.Action.DEAL_UPDATE, number=number, before=before,
         after=_deal_state(deal))
    retotal(table)
    return deal


@transaction.atomic
def deal_delete(*, table_id: int, number: int, actor: Actor, if_match: str | None = None) -> None:
    """Delete the last deal of a sheet that is not yet submitted."""
    table = table_lock(table_id)
    deal = _deal_or_404(table, number)
    _check_writable(table, actor, staff_after_submit=False)
    if if_match:
        _check_if_match(deal, if_match)
    last = table.deals.order_by("-number").values_list("number", flat=True).first()
    if number != last:
        raise StateConflict(_("Only the last deal (number %(last)s) can be deleted."), last=last)
    _log(table, actor, SheetEvent.Action.DEAL_DELETE, number=number, before=_deal_state(deal))
    deal.delete()
    retotal(table)


@transaction.atomic
def summary_record(*, table_id: int, seats: Any, actor: Actor) -> Table:
    """Enter a sheet as its totals (Skat summary); it replaces any deals entered."""
    table = table_lock(table_id)
    _check_writable(table, actor, staff_after_submit=True)
    engine, rules = _engine(table)
    engine.summary_totals(seats, _players(table), rules)
    before = {"summary": table.summary,
              "deals": [_deal_state(d) for d in table.deals.order_by("number")]}
    table.deals.all().delete()
    table.summary = seats
    table.save(update_fields=["summary"])
    _log(table, actor, SheetEvent.Action.SUMMARY, before=before, after={"summary": seats})
    retotal(table)
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
def sheet_submit(*, table_id: int, actor: Actor, confirmed_by: Any = None,
                 unconfirmed_reason: str = "") -> Table:
    """Lock a complete sheet: the table's token can no longer write it. ``confirmed_by``
    names the seats whose players confirmed the totals (kept in the history).

    ``unconfirmed_reason`` is the director's word on why a sheet goes in although not
    every seated player confirmed it (a player left, a tablet broke); only staff give
    it, and the history keeps it beside the names of those who did confirm."""
    table = table_lock(table_id)
    _check_writable(table, actor, staff_after_submit=False)
    confirmed = confirming_players(table, confirmed_by)
    reason = (unconfirmed_reason or "").strip()
    if reason and not actor.is_staff:
        raise user_error("unconfirmed_reason",
                         _("Only the tournament director submits a sheet without every "
                           "player's confirmation."))
    if table.summary is None:
        engine, rules = _engine(table)
        length = engine.sheet_length(_players(table), rules)
        count = table.deals.count()
        if count < length:
            raise user_error("deals", _("The sheet has %(count)s of %(length)s deals."),
                             count=count, length=length)
    table.submitted = True
    table.submitted_at = timezone.now()
    table.version += 1
    table.save(update_fields=["submitted", "submitted_at", "version"])
    after = {"submitted": True, "confirmed_by": confirmed}
    if reason:
        after["unconfirmed_reason"] = reason
    _log(table, actor, SheetEvent.Action.SUBMIT, after=after)
    sheet_changed(table.round.tournament_id, round_number=table.round.number,
                  table_id=table.pk)
    return table
