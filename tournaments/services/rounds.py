"""Drawing rounds, closing and reopening them, and a director's swap of two players.

A round seats the participants who are checked in and not withdrawn (late registration
and withdrawal between rounds happen by changing that list): a player registered while
a round is played is drawn from the next round on; a withdrawn player is drawn no more
and keeps the rounds played. The draw itself is pure (``tournaments.seating``) and
reproducible from the stored seed.

*Reopening* a closed round lets staff correct its sheets (the sheets stay submitted, so
staff correct deals or the summary; the tables' entry tokens stay locked for good).
Reopening is allowed whether or not later rounds exist: a later round keeps the seating
it was drawn with (a draw by ranking is not redone), only scores and standings change.
While an earlier round is reopened no new round can be drawn, and the tournament cannot
be finished: close the reopened round again first. Reopening and closing are written
into every table's history.

*Taking back* a draw (``round_undo``: a player withdrawn a moment too late was drawn)
deletes the last round while none of its tables has an entry — a deal, a summary, a
confirmation, a submitted sheet; the next draw takes its number again. The round as it
was (seats, seed, its tables' history) is kept in ``RoundEvent``.
"""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.engines import get_engine
from games.errors import FieldError, UserError, user_error
from tournaments import clock, freshness, seating
from tournaments.bounds import MAX_SEED
from tournaments.errors import StateConflict
from tournaments.models import (
    Deal,
    Participant,
    RegistrationStatus,
    Round,
    RoundEvent,
    Seat,
    SheetConfirmation,
    SheetEvent,
    Table,
    Tournament,
)
from tournaments.recompute.outbox import sheet_changed
from tournaments.recompute.standings_rows import compute_standings
from tournaments.selectors import teammate_pairs
from tournaments.services import history
from tournaments.services.actors import Actor
from tournaments.services.lifecycle import check_not_finished
from tournaments.services.sheets import table_lock
from tournaments.signals import round_drawn
from tournaments.tokens import new_token


def _previous_round_done(tournament: Tournament) -> None:
    reopened = (tournament.rounds.filter(closed=False, reopened=True).order_by("number")
                .values_list("number", flat=True).first())
    if reopened is not None:
        raise StateConflict(_("Round %(number)s is reopened for corrections; close it first."),
                            number=reopened)
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.closed:
        return
    if last.tables.filter(submitted=False).exists():
        raise StateConflict(
            _("Round %(number)s is still being played; submit its sheets or close it first."),
            number=last.number)


def _history(tournament: Tournament) -> list[list[list[int]]]:
    rounds: dict[int, dict[int, list[tuple[int, int]]]] = {}
    for round_no, table_id, seat, pid in Seat.objects.filter(
            table__round__tournament=tournament).values_list(
            "table__round__number", "table_id", "seat", "participant_id"):
        rounds.setdefault(round_no, {}).setdefault(table_id, []).append((seat, pid))
    return [[[pid for _seat, pid in sorted(table)] for table in tables.values()]
            for _no, tables in sorted(rounds.items())]


def _ranked_ids(tournament: Tournament, ids: list[int]) -> list[int]:
    """Participants in standing order; those without results yet follow in start order."""
    order = [row["participant"] for row in compute_standings(tournament)]
    present = set(ids)
    ranked = [pid for pid in order if pid in present]
    seen = set(ranked)
    return ranked + [pid for pid in ids if pid not in seen]


@transaction.atomic
def round_draw(*, tournament_id: int, method: str, seed: int | None = None) -> Round:
    """Draw the next round. Raises ``UserError`` when the players cannot be seated
    and ``StateConflict`` while the previous round is still being played."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    seating.check_method(method)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed <= MAX_SEED):
        raise user_error("seed", _("The seed must be a whole number from 0 to 2^63 − 1."))
    check_not_finished(tournament)
    _previous_round_done(tournament)
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    # waiting and cancelled registrants are never drawn (services.registrations)
    active = list(Participant.objects.filter(tournament=tournament, checked_in=True,
                                             withdrawn=False,
                                             status=RegistrationStatus.REGISTERED)
                  .select_related("player").order_by("start_number"))
    ids = [p.pk for p in active]
    if method == "ranking":
        ids = _ranked_ids(tournament, ids)
    seed = secrets.randbits(63) if seed is None else seed
    clubs = ({p.pk: p.player.club_id for p in active} if tournament.avoid_same_club else None)
    # the game and its rules say which table sizes a round may seat (Baptistenskat: only
    # those whose deck allows the whole partie)
    sizes = engine.seating_sizes(rules)
    try:
        tables = seating.draw(method, ids, sizes.sizes, sizes.preferred, random.Random(seed),
                              history=_history(tournament), clubs=clubs,
                              apart=teammate_pairs(tournament),
                              rounds_planned=tournament.planned_rounds)
    except seating.SeatingError as exc:
        if sizes.reason is not None and exc.field == "players":
            raise UserError([*exc.errors,
                             FieldError(exc.field, sizes.reason, sizes.params)]) from None
        raise  # a seating error is a user error already
    return _round_create(tournament, method, seed, tables, {p.pk: p for p in active})


def _round_create(tournament: Tournament, method: str, seed: int,
                  tables: list[list[int]], people: dict | None = None) -> Round:
    """Store the next round with ``tables`` (participant ids in seat order) and start
    the tournament; every table size is checked by the game first. ``people``: the
    participants by id where the caller has loaded them (else one query)."""
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    for size in {len(t) for t in tables}:
        engine.check_table(size, rules)
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first()
              or 0) + 1
    rnd = Round.objects.create(tournament=tournament, number=number, method=method, seed=seed)
    for table_no, members in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=table_no, entry_token=new_token())
        Seat.objects.bulk_create(
            Seat(table=table, seat=seat_no, participant_id=pid)
            for seat_no, pid in enumerate(members, start=1))
    # who sits where, for the "round N is drawn: table T" mails (sign-up's)
    by_id = people if people is not None else Participant.objects.only(
        "pk", "email", "tournament_id").in_bulk([pid for members in tables for pid in members])
    round_drawn.send(sender=Round, round=rnd, seated=[
        (table_no, by_id[pid]) for table_no, members in enumerate(tables, start=1)
        for pid in members])
    if tournament.status == tournament.Status.DRAFT:
        tournament.status = tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return rnd


@transaction.atomic
def round_seat(*, tournament_id: int, tables: list[list[int]], seed: int) -> Round:
    """Store the next round seated by a plan made elsewhere (a league group's plan,
    games.md §9.3): ``tables`` in table order, each the participant ids in seat order.
    The same checks as a draw: not while the previous round is played, sizes the game
    allows. Recorded as a balanced draw with the plan's seed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    check_not_finished(tournament)
    _previous_round_done(tournament)
    return _round_create(tournament, "balanced", seed, tables)


def _log_round(rnd: Round, action: str, actor: Actor | None) -> None:
    """One history line per table of the round (reopen and close concern every sheet)."""
    user = actor.user if actor is not None and actor.is_staff else None
    ip = actor.ip if actor is not None else None
    history.append_to_tables(rnd.tables.values_list("pk", flat=True), user=user, ip=ip,
                             action=action, after={"round": rnd.number, "closed": rnd.closed})


@transaction.atomic
def round_close(*, round_id: int, actor: Actor | None = None) -> Round:
    """Close a round whose sheets are all submitted (ended early counts as submitted);
    its entry tokens stop working. Closing is written into every table's history."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    if rnd.closed:
        raise StateConflict(_("Round %(number)s is already closed."), number=rnd.number)
    open_tables = list(rnd.tables.filter(submitted=False).values_list("number", flat=True))
    if open_tables:
        raise StateConflict(_("Sheets not yet submitted at tables: %(tables)s."),
                            tables=", ".join(str(n) for n in open_tables))
    rnd.closed = True
    rnd.save(update_fields=["closed"])
    _log_round(rnd, SheetEvent.Action.ROUND_CLOSE, actor)
    return rnd


@transaction.atomic
def round_reopen(*, round_id: int, actor: Actor) -> Round:
    """Reopen a closed round so that staff can correct its sheets (see the module's
    docstring for later rounds). ``StateConflict`` when the round is open or the
    tournament finished."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    check_not_finished(rnd.tournament)
    if not rnd.closed:
        raise StateConflict(_("Round %(number)s is not closed."), number=rnd.number)
    rnd.closed = False
    rnd.reopened = True
    rnd.save(update_fields=["closed", "reopened"])
    _log_round(rnd, SheetEvent.Action.ROUND_REOPEN, actor)
    return rnd


def _entered_tables(rnd: Round) -> list[int]:
    """The numbers of the round's tables with an entry: a deal, a summary, a confirmation
    or a submitted sheet (one query)."""
    rows = rnd.tables.annotate(
        dealt=Exists(Deal.objects.filter(table=OuterRef("pk"))),
        confirmed=Exists(SheetConfirmation.objects.filter(table=OuterRef("pk"))),
    ).values_list("number", "dealt", "confirmed", "summary", "submitted")
    return sorted(number for number, dealt, confirmed, summary, submitted in rows
                  if dealt or confirmed or summary is not None or submitted)


@transaction.atomic
def round_undo(*, tournament_id: int, number: int, actor: Actor) -> None:
    """Take back the draw of the last round while none of its tables has an entry (see
    the module's docstring). ``StateConflict`` for an earlier round, a closed one, a
    finished tournament, or a round with entries (naming the tables)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    check_not_finished(tournament)
    rnd = tournament.rounds.filter(number=number).first()
    if rnd is None:
        raise StateConflict(_("There is no round %(number)s."), number=number)
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    if number != last:
        raise StateConflict(_("Only the last round can be taken back (round %(last)s)."),
                            last=last)
    tables = list(rnd.tables.order_by("number"))
    for table in tables:
        table_lock(table.pk)  # no entry slips in while the round goes
    entered = _entered_tables(rnd)
    if entered or rnd.closed:
        raise StateConflict(_("The draw can only be taken back while no table has an entry; "
                              "entries at tables: %(tables)s."),
                            tables=", ".join(str(n) for n in entered) or "–")
    seats = {}
    for table_id, pid in Seat.objects.filter(table__round=rnd).order_by(
            "seat").values_list("table_id", "participant_id"):
        seats.setdefault(table_id, []).append(pid)
    events = {}
    for event in SheetEvent.objects.filter(table__round=rnd).order_by("at", "pk"):
        events.setdefault(event.table_id, []).append(
            {"at": event.at.isoformat(), "action": event.action, "user": event.user_id,
             "ip": event.ip, "before": event.before, "after": event.after})
    before = {"method": rnd.method, "seed": rnd.seed, "created_at": rnd.created_at.isoformat(),
              "tables": [{"number": t.number, "participants": seats.get(t.pk, []),
                          "events": events.get(t.pk, [])} for t in tables]}
    RoundEvent.objects.create(
        tournament=tournament, number=number, action=RoundEvent.Action.UNDO, before=before,
        user=actor.user if actor.is_staff else None, ip=actor.ip)
    rnd.delete()
    if not tournament.rounds.exists() and tournament.status == tournament.Status.RUNNING:
        tournament.status = tournament.Status.DRAFT
        tournament.save(update_fields=["status"])
    sheet_changed(tournament.pk)


@transaction.atomic
def round_swap(*, round_id: int, a: int, b: int, actor: Actor) -> Round:
    """Swap two participants' seats before any deal of the round is entered."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    check_not_finished(rnd.tournament)
    if rnd.closed:
        raise StateConflict(_("The round is closed."))
    tables = list(rnd.tables.all())
    locked = [table_lock(t.pk) for t in tables]
    if any(t.deals.exists() or t.summary is not None or t.submitted for t in locked):
        raise StateConflict(_("Players can only be swapped before any deal is entered."))
    seats = {s.participant_id: s for s in Seat.objects.filter(table__round=rnd)}
    for field, pid in (("a", a), ("b", b)):
        if pid not in seats:
            raise user_error(field, _("Participant %(participant)s is not seated in this round."),
                             participant=pid)
    if a == b:
        raise user_error("b", _("A player cannot be swapped with themselves."))
    sa, sb = seats[a], seats[b]
    before = {"a": [sa.table.number, sa.seat], "b": [sb.table.number, sb.seat]}
    # Two updates through a free slot so the (table, participant) constraint never clashes.
    Seat.objects.filter(pk=sa.pk).delete()
    Seat.objects.filter(pk=sb.pk).update(participant_id=a)
    Seat.objects.create(table_id=sa.table_id, seat=sa.seat, participant_id=b)
    history.append_to_tables(
        {sa.table_id, sb.table_id}, user=actor.user, ip=actor.ip,
        action=SheetEvent.Action.SWAP, before=before,
        after={"a": [sb.table.number, sb.seat], "b": [sa.table.number, sa.seat]})
    # the two players' pages (their seat) and both tables (who sits there) change
    freshness.bump(rnd.tournament_id)
    for table_id in {sa.table_id, sb.table_id}:
        freshness.bump(rnd.tournament_id, table_id)
    return rnd


@transaction.atomic
def round_clock(*, round_id: int, action: str, actor: Actor,
                minutes: int | None = None) -> Round:
    """Start, pause, resume or extend the round's clock (``tournaments.clock`` decides);
    stored as an end time, so every page counts down from it, and written to the round's
    history (``RoundEvent``: who, when, the clock before and after). ``StateConflict``
    once the round is closed; saving the round drops the pages that show it."""
    rnd = Round.objects.select_for_update().get(pk=round_id)
    if rnd.closed:
        raise StateConflict(_("The round is closed."))
    before = rnd.clock
    after = clock.apply(before, action, minutes, timezone.now())
    rnd.clock_ends_at, rnd.clock_paused_seconds = after.ends_at, after.paused_seconds
    rnd.clock_minutes = after.minutes
    rnd.save(update_fields=["clock_ends_at", "clock_paused_seconds", "clock_minutes"])
    RoundEvent.objects.create(
        tournament_id=rnd.tournament_id, number=rnd.number, action=action,
        before=_clock_state(before), after=_clock_state(after),
        user=actor.user if actor.is_staff else None, ip=actor.ip)
    return rnd


def _clock_state(state: clock.Clock) -> dict:
    return {"ends_at": state.ends_at.isoformat() if state.ends_at else None,
            "paused_seconds": state.paused_seconds, "minutes": state.minutes}
