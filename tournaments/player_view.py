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
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from django.db import connection
from django.db.models import Max, OuterRef, QuerySet, Subquery
from django.utils import timezone

from clubs.models import Player
from games.engines import DealContext, get_engine
from tournaments.models import Participant, Round, Seat, SheetConfirmation, Table
from tournaments.policies import personal_token_valid, sheet_refusal
from tournaments.recompute import snapshots
from tournaments.recompute.invalidations import computation_scope, tournament_scope
from tournaments.selectors import standings_computed_at, standings_lists, table_states
from tournaments.statements import columns, select_in

# what a personal token's reader reads with the participant
_WITH_PARTICIPANT = ("tournament__club", "player")


def participant_by_token(token: str, *, checked: bool = True) -> Participant | None:
    """The participant whose personal token this is and still opens their page (one
    query), with tournament, club and player loaded. ``checked`` False: whether it still
    opens it is left to the caller (it changes with the day)."""
    participant = (Participant.objects.select_related(*_WITH_PARTICIPANT)
                   .filter(personal_token=token).first())
    if participant is None or (checked and not personal_token_valid(
            participant, timezone.localdate())):
        return None
    return participant


def _seats_read() -> QuerySet[Seat]:
    """Seats by round, each with its table and round and the number of its tournament's
    latest round (``latest_round``: whether it is the seat now), in the seats' one
    statement."""
    latest = (Round.objects.filter(tournament_id=OuterRef("table__round__tournament_id"))
              .order_by("-number").values("number")[:1])
    return (Seat.objects.select_related("table__round")
            .annotate(latest_round=Subquery(latest)).order_by("table__round__number"))


def _seated(participant: Participant, seats: list[Seat]) -> list[Seat]:
    for seat in seats:
        seat.participant = participant
        seat.table.round.tournament = participant.tournament
    return seats


def _seats(participant: Participant) -> list[Seat]:
    """The participant's seats (``_seats_read``; one query)."""
    return _seated(participant, list(_seats_read().filter(participant=participant)))


def _by_token(token: str) -> tuple[Participant, list[Seat]] | None:
    """The participant of a personal token (whether it still opens their page is left
    to the caller) and their seats: one statement for a player drawn at least once —
    the seats with the participant, tournament, club and player joined — and two for
    one never drawn. After a draw every phone of a championship asks this at once."""
    seats = list(_seats_read().select_related(*(f"participant__{r}" for r in _WITH_PARTICIPANT))
                 .filter(participant__personal_token=token))
    if not seats:
        participant = participant_by_token(token, checked=False)
        return None if participant is None else (participant, [])
    return seats[0].participant, _seated(seats[0].participant, seats)


def _field(tournament) -> list[tuple[Participant, list[Seat]]]:
    """Every participant of ``tournament`` with their seats by round, as ``_by_token``
    reads one of them (the tournament given, its latest round's number on each seat):
    three statements for the whole field. A table and a round is one instance for all
    who sat there."""
    db = connection.alias
    participant_columns, player_columns = columns(Participant), columns(Player)
    seat_columns, table_columns, round_columns = columns(Seat), columns(Table), columns(Round)
    participants = {}
    for values in (Participant.objects.filter(tournament_id=tournament.pk).order_by()
                   .values_list(*participant_columns,
                                *(f"player__{c}" for c in player_columns))):
        participant = Participant.from_db(db, participant_columns,
                                          values[:len(participant_columns)])
        participant.player = Player.from_db(db, player_columns,
                                            values[len(participant_columns):])
        participant.tournament = tournament
        participants[participant.pk] = participant
    latest = Round.objects.filter(tournament_id=tournament.pk).aggregate(
        latest=Max("number"))["latest"]
    seats: dict[int, list[Seat]] = {pk: [] for pk in participants}
    tables: dict[int, Table] = {}
    rounds: dict[int, Round] = {}
    table_end = len(seat_columns) + len(table_columns)
    for values in (Seat.objects.filter(table__round__tournament_id=tournament.pk)
                   .order_by("table__round__number")
                   .values_list(*seat_columns, *(f"table__{c}" for c in table_columns),
                                *(f"table__round__{c}" for c in round_columns))):
        seat = Seat.from_db(db, seat_columns, values[:len(seat_columns)])
        if seat.participant_id not in participants:  # registered since: read by token
            continue
        table = tables.get(seat.table_id)
        if table is None:
            table = tables[seat.table_id] = Table.from_db(
                db, table_columns, values[len(seat_columns):table_end])
            round_ = rounds.get(table.round_id)
            if round_ is None:
                round_ = rounds[table.round_id] = Round.from_db(
                    db, round_columns, values[table_end:])
                round_.tournament = tournament
            table.round = round_
        seat.table = table
        seat.participant = participants[seat.participant_id]
        seat.latest_round = latest
        seats[seat.participant_id].append(seat)
    return [(participant, seats[pk]) for pk, participant in participants.items()]


def _keep_field(tournament) -> None:
    """Keep every player's seating of a published ``tournament`` in this process
    (``_field``), once per state of the tournament. After a draw all the phones of a
    championship poll within seconds, each reaching every process in turn; read one
    token at a time that was 3,000 statements in each process (a sixth of a web
    worker's time in a short day's second minute, bench/README), now four: the
    tournament's tables, whose scopes are read before the field (a player's seating
    depends on the sheets of their tables not shown), and the field."""
    flag, scopes = ("me-field", tournament.pk), (tournament_scope(tournament.pk),)
    if snapshots.kept(flag, scopes) is not snapshots.MISSING:
        return
    every = snapshots.player_structure_scopes(tournament.pk, Table.objects.filter(
        round__tournament_id=tournament.pk).values_list("id", flat=True))
    read = snapshots.before(flag, every)
    place = {scope: index for index, scope in enumerate(every)}
    for participant, seats in _field(tournament):
        seating = _seating(participant, seats)
        own = read.narrowed(seating.scopes, place)
        if own is not None:  # else at a table drawn since: read by token
            snapshots.keep(("me", participant.personal_token), seating.scopes, seating, own)
    snapshots.keep(flag, scopes, True, read.narrowed(scopes, place))


def _open(table: Table) -> bool:
    """Whether the table's round is open to the table's own token (and so to the
    phones of its players)."""
    return sheet_refusal(table, by_table=True, write=False) is None


def _seat_now(participant: Participant, seats: list[Seat]) -> Seat | None:
    if participant.withdrawn or not seats:
        return None
    last = seats[-1]
    if last.table.round.number != last.latest_round or not _open(last.table):
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
    sheet: dict[str, Any] | None = None
    sheet_memo: dict[str, Any] = field(default_factory=dict)
    # where what is rendered of the sheet is shared with the other processes
    # (``share_rendered``): the table's reads' name and what was read before them
    sheet_shared: tuple[str, snapshots.Before] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _Seating:
    """What an overview reads of the player (from a personal token one statement,
    ``_by_token``): the participant, their seats by round (each with its table and
    round, and whether that round is the latest), the seat now, and the tables *shown* —
    those of open rounds, whose sheets move (read per table: ``_TableReads``). Its
    scopes: the tournament's (a draw, a round closed, a withdrawal, a rename) and the
    sheets of the tables not shown (a correction of an earlier round's score)."""

    participant: Participant
    seats: list[Seat]
    now: Seat | None
    shown: list[Seat]
    scopes: tuple[str, ...]


def _seating(participant: Participant, seats: list[Seat] | None = None) -> _Seating:
    seats = _seats(participant) if seats is None else seats
    now = _seat_now(participant, seats)
    shown = [s for s in seats if _open(s.table)]
    others = {s.table_id for s in seats} - {s.table_id for s in shown}
    return _Seating(participant, seats, now, shown,
                    snapshots.player_structure_scopes(participant.tournament_id, others))


@dataclass(frozen=True)
class _TableReads:
    """What an overview reads of one shown table: the table, its state with the deals
    (players, totals, whether complete, the rows of its score card), the confirmations
    given, and who deals first — the same for everyone at the table, read once for all
    of them; ``memo`` keeps what is rendered of it (``PlayerOverview.sheet_memo``)."""

    table: Table
    state: dict[str, Any]
    confirmed: frozenset
    first_dealer: int
    memo: dict[str, Any] = field(default_factory=dict, compare=False)
    shared_as: tuple[str, snapshots.Before] | None = field(default=None, compare=False)


def _table_scopes(table: Table) -> tuple[str, ...]:
    return snapshots.player_structure_scopes(table.round.tournament_id, [table.pk])


def _tables(ids, tournament) -> dict[int, _TableReads]:
    """The shown tables ``ids`` (four queries, whatever their number; written once per
    process, ``tournaments.statements``: after every deal of a championship a table is
    read for its players' pages)."""
    if not ids:
        return {}
    db = connection.alias
    table_columns, round_columns = columns(Table), columns(Round)
    tables = []
    for values in select_in(Table, (*table_columns, *(f"round__{c}" for c in round_columns)),
                            "id", ids):
        table = Table.from_db(db, table_columns, values[:len(table_columns)])
        table.round = Round.from_db(db, round_columns, values[len(table_columns):])
        table.round.tournament = tournament
        tables.append(table)
    confirmed: dict[int, set] = {t.pk: set() for t in tables}
    for table_id, seat, version in select_in(SheetConfirmation, ("table", "seat", "version"),
                                             "table", ids):
        confirmed[table_id].add((seat, version))
    return {state["id"]: _TableReads(
        table, state, frozenset(confirmed[table.pk]),
        first_dealer(tournament.game, tournament.rules, len(state["seats"])))
        for table, state in zip(tables, table_states(tables), strict=True)}


def _overview(seating: _Seating, tables: dict[int, _TableReads],
              index: dict[int, dict[int, tuple]]) -> PlayerOverview:
    participant = seating.participant
    tournament = participant.tournament
    pid = participant.pk

    def score(seat: Seat) -> Any:
        reads = tables.get(seat.table_id)
        if reads is None:
            return seat.score
        return next((t["score"] for t in reads.state["totals"] if t["seat"] == seat.seat),
                    seat.score)

    # the sheets the player may still confirm: their open tables not yet submitted (a
    # table gone since the seats were read — its round deleted — is shown no more)
    live = [s for s in seating.shown
            if s.table_id in tables and not tables[s.table_id].table.submitted]
    rank, total = index.get(0, {}).get(pid, (None, None))
    body: dict[str, Any] = {
        "participant": pid,
        "name": participant.player.name,
        "tournament": {"id": tournament.pk, "name": tournament.name, "slug": tournament.slug},
        "now": None,
        "score": total,
        "rank": rank,
        "rounds": [{"round": s.table.round.number, "table": s.table.number, "score": score(s),
                    "rank": index.get(s.table.round.number, {}).get(pid, (None,))[0]}
                   for s in seating.seats],
        "confirmations_due": [
            s.table_id for s in live
            if tables[s.table_id].state["complete"]
            and (s.seat, tables[s.table_id].table.version) not in tables[s.table_id].confirmed],
    }
    now = seating.now if seating.now is not None and seating.now.table_id in tables else None
    if now is not None:
        reads = tables[now.table_id]
        body["now"] = {
            "round": now.table.round.number, "table": now.table.number, "seat": now.seat,
            "first_dealer": reads.first_dealer,
            "players": [{"seat": s["seat"], "name": s["name"]} for s in reads.state["seats"]],
            "table_id": now.table_id,
            "clock": reads.table.round.clock.lasting(timezone.now()),
        }
    # the ETag covers what the answer shows, not the computation: a phone whose score
    # and ranks a recompute left alone gets its 304 (a championship's computation every
    # few seconds reaches all 3,000 players' pages)
    stamp = {"body": body,
             "tables": sorted((t.table.pk, t.table.version) for t in tables.values()),
             "confirmations": sorted((s.table_id, *c) for s in live
                                     for c in tables[s.table_id].confirmed)}
    digest = hashlib.sha256(orjson.dumps(stamp, option=orjson.OPT_NON_STR_KEYS)).hexdigest()
    if now is None:
        return PlayerOverview(body, f'"me-{digest[:24]}"', None)
    reads = tables[now.table_id]
    return PlayerOverview(body, f'"me-{digest[:24]}"', reads.table, reads.state, reads.memo,
                          reads.shared_as)


def _computation(tournament, kept: bool) -> dict[int, dict[int, tuple]]:
    """Each stored list's rank and score by participant (round 0: overall), read once
    per process and computation — while its scope holds (``kept``: a published
    tournament's, whose computations every process is told of), else after asking
    when the standings were computed."""

    def index():
        return {number: {row["participant"]: (row["rank"], row["score"]) for row in rows}
                for (_tid, number), rows in standings_lists([tournament]).items()}

    def build():
        return snapshots.of_computation(tournament.pk, standings_computed_at(tournament),
                                        index)

    if not kept:
        return build()
    return snapshots.memo(("computation", tournament.pk),
                          (computation_scope(tournament.pk),), build)


def _read_now(seating: _Seating) -> PlayerOverview:
    """The overview with its tables and ranks read now (nothing kept)."""
    tournament = seating.participant.tournament
    tables = _tables([s.table_id for s in seating.shown], tournament)
    return _overview(seating, tables, _computation(tournament, kept=False))


def player_overview(participant: Participant) -> PlayerOverview:
    """The player's overview (api.md ``GET /me/``) of a participant already read: seven
    queries, whatever the number of rounds."""
    return _read_now(_seating(participant))


def personal_overview(token: str, rendered: str | None = None
                      ) -> tuple[Participant, PlayerOverview] | None:
    """The participant a personal token opens and their overview, or None — for the
    player's own page, which every phone of a championship polls. A published
    tournament's reads are kept in this process while nothing they show changed
    (``snapshots.kept``): the player's seating until a draw or a round closed (read
    for the whole field at the first player's poll, ``_keep_field``), each shown
    table's state until its sheet changes (read once for everyone at it), the
    ranks until the next computation. So a computation (every few seconds, for
    everyone) costs a page the look-up of its ranks, and a deal the reads of one table
    for its four players, once for all processes: the first process to read it shares
    it (``_shared_tables``). ``rendered``: the name in ``sheet_memo`` of what the page
    renders of the table's sheet (its card, per language), taken with the table's reads
    where another process rendered and shared it (``share_rendered``)."""
    key = ("me", token)
    seating = snapshots.kept(key)
    if seating is snapshots.MISSING:
        read = snapshots.before(key)
        found = _by_token(token)
        if found is None:
            return None
        participant, seats = found
        seating = _seating(participant, seats)
        if participant.tournament.published:
            snapshots.keep(key, seating.scopes, seating, read)
            _keep_field(participant.tournament)
    participant = seating.participant
    tournament = participant.tournament
    if not personal_token_valid(participant, timezone.localdate()):
        return None
    if not tournament.published:
        return participant, _read_now(seating)
    tables, missing, reads = {}, [], {}
    for seat in seating.shown:
        key = ("me-table", seat.table_id)
        found = snapshots.kept(key)
        if found is snapshots.MISSING:
            missing.append(seat.table_id)
            reads[seat.table_id] = snapshots.before(key, _table_scopes(seat.table))
        else:
            tables[seat.table_id] = found
    if missing:
        tables.update(_shared_tables(missing, reads, tournament, rendered))
    return participant, _overview(seating, tables, _computation(tournament, kept=True))


def _shared_tables(ids: list[int], reads: dict[int, snapshots.Before], tournament,
                   rendered: str | None = None) -> dict[int, _TableReads]:
    """The shown tables ``ids`` that this process does not keep: as another process read
    them since their last change (``snapshots.shared``), else read now and shared with
    the others. After a deal its table is read once for its players in all processes,
    not once in each: one round trip to Redis, and a second after reading. Nobody waits
    for another process's read (run 14's shared reads did, behind a lock, and measured
    worse; bench/README). What another process rendered of a table under ``rendered``
    (``share_rendered``) comes in the same round trip."""
    names = {table_id: f"me-table:{table_id}" for table_id in ids}
    drawn = ({t: _rendered_name(names[t], rendered) for t in ids}
             if rendered is not None else {})
    found = snapshots.shared({**{names[t]: reads[t] for t in ids},
                              **{drawn[t]: reads[t] for t in drawn}})
    tables = {t: _unpacked(found[names[t]], tournament) for t in ids if names[t] in found}
    read = _tables([t for t in ids if t not in tables], tournament)
    snapshots.share({names[t]: (reads[t], _packed(value)) for t, value in read.items()})
    known = {}
    for table_id, value in {**tables, **read}.items():
        value = known[table_id] = replace(value, shared_as=(names[table_id], reads[table_id]))
        if table_id in drawn and drawn[table_id] in found:
            value.memo[rendered] = found[drawn[table_id]]
        snapshots.keep(("me-table", table_id), reads[table_id].scopes, value,
                       reads[table_id])
    return known


def share_rendered(overview: PlayerOverview, name: str, value: Any) -> None:
    """Share what this process rendered of the overview's table (its card: ``name``
    as ``personal_overview``'s ``rendered``) with the other processes, under what was
    read before the table's reads: the others take it with the reads instead of
    rendering it again, until the sheet changes. One round trip; nothing where the
    reads are not shared (no Redis, the cache failed)."""
    if overview.sheet_shared is not None:
        table, read = overview.sheet_shared
        snapshots.share({_rendered_name(table, name): (read, value)})


def _rendered_name(table: str, name: str) -> str:
    """Under which what was rendered of a table (``name``) is shared beside its reads
    (``table``: their name), in ``_shared_tables`` and ``share_rendered`` alike."""
    return f"{table}:{name}"


def _fields(instance) -> tuple[str | None, tuple[str, ...], tuple]:
    names = tuple(f.attname for f in instance._meta.concrete_fields)
    return instance._state.db, names, tuple(getattr(instance, n) for n in names)


def _packed(reads: _TableReads) -> tuple:
    """A table's reads as another process takes them: its table and round as their
    columns (not the tournament, which every process has), the state, the confirmations
    and who deals first; not what this process rendered of it."""
    return (_fields(reads.table), _fields(reads.table.round), reads.state, reads.confirmed,
            reads.first_dealer)


def _unpacked(packed: tuple, tournament) -> _TableReads:
    (table_db, table_names, table_values), (round_db, round_names, round_values), \
        state, confirmed, dealer = packed
    table = Table.from_db(table_db, table_names, table_values)
    table.round = Round.from_db(round_db, round_names, round_values)
    table.round.tournament = tournament
    return _TableReads(table, state, confirmed, dealer)
