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
  rank in that round's stored list), the open sheets the player still has to
  confirm, and every change to the player's own score since it was first shown
  (``tournaments.score_changes``).

Pure reads with a fixed number of queries, whatever the number of rounds and tables.
The names of the others at the table are the tablet's (``selectors.table_states``): the
player sits with them, so they see them as the table does.

A championship's phones poll these after every deal, so what they read is kept
(``tournaments.kept``): a personal token's seating under the tournament's version (a
draw, a round closed or reopened, a withdrawal, a token renewed or erased, a name
changed all bump it) and what is the same for the four players of a table
(``_TableReads``) under the table's and the tournament's versions. Whether the token
still opens the page (``personal_token_valid``: it expires by the date) is asked of
every request, never kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
from django.utils import timezone
from django.utils.translation import get_language

from games.engines import DealContext, get_engine
from tournaments import freshness, kept
from tournaments.models import Participant, Seat, SheetConfirmation, Table
from tournaments.policies import personal_token_valid, sheet_refusal
from tournaments.score_changes import changes_of_seats, table_events
from tournaments.selectors import calls_read, own_ranks, states_read
from tournaments.statements import Reads, participant_seats
from tournaments.tokens import storable


def participant_by_token(token: str, *, checked: bool = True) -> Participant | None:
    """The participant whose personal token this is and still opens their page (one
    statement, ``statements.participant_seats``), with tournament, club and player
    loaded. ``checked`` False: whether it still opens it is left to the caller (it
    changes with the day)."""
    found = _by_token(token)
    if found is None or (checked and not personal_token_valid(found[0], timezone.localdate())):
        return None
    return found[0]


def _seats(participant: Participant) -> list[Seat]:
    """The participant's seats by round (one statement), each with its table and round
    and the number of its tournament's latest round (``latest_round``: whether it is the
    seat now)."""
    found = participant_seats("id", participant.pk)
    seats = found[1] if found is not None else []
    for seat in seats:
        seat.participant = participant
        seat.table.round.tournament = participant.tournament
    return seats


def _by_token(token: str) -> tuple[Participant, list[Seat]] | None:
    """The participant of a personal token (whether it still opens their page is left
    to the caller) and their seats (``_seats``), in one statement. After a draw every
    phone of a championship asks this at once. A token no participant could hold
    (``tokens.storable``) opens nothing."""
    return participant_seats("personal_token", token) if storable(token) else None


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
    # the player's call for the director at the table now, not yet closed
    call: Any = None


@dataclass(frozen=True)
class _Seating:
    """What an overview reads of the player (from a personal token one statement,
    ``_by_token``): the participant, their seats by round (each with its table and
    round, and whether that round is the latest), the seat now, and the tables *shown* —
    those of open rounds, whose sheets move (read per table: ``_TableReads``)."""

    participant: Participant
    seats: list[Seat]
    now: Seat | None
    shown: list[Seat]


def _seating(participant: Participant, seats: list[Seat] | None = None) -> _Seating:
    seats = _seats(participant) if seats is None else seats
    now = _seat_now(participant, seats)
    return _Seating(participant, seats, now, [s for s in seats if _open(s.table)])


@dataclass(frozen=True)
class _TableReads:
    """What an overview reads of one shown table: the table, its state with the deals
    (players, totals, whether complete, the rows of its score card), the confirmations
    given, who deals first and the calls for the director not yet closed (by caller) —
    the same for everyone at the table."""

    table: Table
    state: dict[str, Any]
    confirmed: frozenset
    first_dealer: int
    calls: dict[int | None, Any]


def live_scopes(seating: _Seating) -> list[str]:
    """What the player's answers show: the tournament, its calls (the director marking
    the player's call seen) and every table the player sat at (a deal, a correction)."""
    tournament_id = seating.participant.tournament_id
    return [freshness.tournament(tournament_id), freshness.calls(tournament_id),
            *(freshness.table(s.table_id) for s in seating.seats)]


def part_scopes(seating: _Seating) -> list[str]:
    """What the player's live part shows: as ``live_scopes``, but of the table they sit
    at now only what moves otherwise than by a deal added (``freshness.amended``: a
    correction among the player's changes, say). That table's score card is a part of
    its own, renewed by each deal there (``tournaments.pages.me``)."""
    now = seating.now.table_id if seating.now is not None else None
    tournament_id = seating.participant.tournament_id
    return [freshness.tournament(tournament_id), freshness.calls(tournament_id),
            *(freshness.amended(s.table_id) if s.table_id == now else freshness.table(s.table_id)
              for s in seating.seats)]


def _versions(seating: _Seating) -> tuple[str, ...] | None:
    """The versions of ``live_scopes`` (read once per request, ``freshness.versions``)."""
    return freshness.versions(live_scopes(seating))


def _table_versions(seating: _Seating, found: tuple[str, ...]) -> dict[int, str]:
    """The version of each table the player sat at, among ``found`` (``_versions``)."""
    return dict(zip((s.table_id for s in seating.seats), found[2:], strict=True))


def _reads_keys(seating: _Seating, found: tuple[str, ...]) -> dict[Any, str]:
    """Where the shown tables' reads (by table id) and the player's changes
    (``"changes"``) are kept under the versions ``found`` (``_versions``)."""
    table_versions = _table_versions(seating, found)
    keys: dict[Any, str] = {s.table_id: f"me:table:{s.table_id}:{table_versions[s.table_id]}"
                                        f":{found[0]}:{found[1]}" for s in seating.shown}
    changes_key = hashlib.blake2b("|".join((str(seating.participant.pk), get_language(),
                                            *found)).encode(), digest_size=16).hexdigest()
    keys["changes"] = f"me:changes:{changes_key}"
    return keys


def _events_keys(seating: _Seating, found: tuple[str, ...]) -> dict[int, str]:
    """Where the events of every table the player sat at are kept (for all who sat
    there), under the versions ``found``: the table's, the tournament's (the names) and
    the calls' (an objection decided is a table's event)."""
    return {i: f"me:events:{i}:{v}:{found[0]}:{found[1]}"
            for i, v in _table_versions(seating, found).items()}


def overview_keys(seating: _Seating) -> list[str]:
    """The kept entries ``seating_overview`` reads (the shown tables', the changes' and,
    which a change of a version leaves to be built from them, the tables' events), so a
    caller may read them with others in one round trip (``kept.read``); none when the
    versions are unavailable."""
    found = _versions(seating)
    if found is None:
        return []
    return [*_reads_keys(seating, found).values(), *_events_keys(seating, found).values()]


def _kept_reads(seating: _Seating, found: tuple[str, ...], read: dict[str, Any] | None = None
                ) -> tuple[dict[int, _TableReads], list[dict[str, Any]]]:
    """The shown tables and the player's changes, kept (one cache read for both, none
    when the caller's ``read`` has them: ``overview_keys``). A table's reads are kept per
    version of the table, the tournament (the round's clock, the names, the rules) and its
    calls (``found``: those of the tournament, its calls and every table the player sat
    at) for all who sit there; the changes per player, language and all those versions."""
    tournament = seating.participant.tournament
    keys = _reads_keys(seating, found)

    def build(missing: list) -> dict[Any, Any]:
        built: dict[Any, Any] = _read_tables([m for m in missing if m != "changes"],
                                             tournament)
        if "changes" in missing:  # from each table's events (``_events_keys``)
            events = kept.kept(_events_keys(seating, found),
                               lambda tables: table_events(tables, tournament.game),
                               found=read)
            built["changes"] = _own_changes(seating, events)
        return built

    reads = kept.kept(keys, build, found=read)
    changes = reads.pop("changes")
    return reads, changes


def _read_tables(ids, tournament) -> dict[int, _TableReads]:
    """The tables ``ids`` (five statements whatever their number, in one round trip on
    PostgreSQL; written once per process, ``tournaments.statements``)."""
    if not ids:
        return {}
    reads = Reads()
    tables_at = reads.related(Table, ("round",), "id", ids)
    confirmed_at = reads.select_in(SheetConfirmation, ("table", "seat", "version"), "table",
                                   ids)
    calls_of = calls_read(reads, ids)
    states_of = states_read(reads, ids)
    found = reads.send()
    tables = found[tables_at]
    for table in tables:
        table.round.tournament = tournament
    confirmed: dict[int, set] = {t.pk: set() for t in tables}
    for table_id, seat, version in found[confirmed_at]:
        confirmed[table_id].add((seat, version))
    calls = calls_of(found)
    return {state["id"]: _TableReads(
        table, state, frozenset(confirmed[table.pk]),
        first_dealer(tournament.game, tournament.rules, len(state["seats"])),
        calls.get(table.pk, {}))
        for table, state in zip(tables, states_of(found, tables), strict=True)}


def _own_changes(seating: _Seating, events=None) -> list[dict[str, Any]]:
    return [{k: v for k, v in change.items() if k != "tournament"}
            for change in changes_of_seats(seating.seats, own=True, events=events)]


def _overview(seating: _Seating, tables: dict[int, _TableReads],
              ranks: dict[int, tuple], changes: list[dict[str, Any]]) -> PlayerOverview:
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
    rank, total = ranks.get(0, (None, None))
    body: dict[str, Any] = {
        "participant": pid,
        "name": participant.player.name,
        "tournament": {"id": tournament.pk, "name": tournament.name, "slug": tournament.slug},
        "now": None,
        "score": total,
        "rank": rank,
        "rounds": [{"round": s.table.round.number, "table": s.table.number, "score": score(s),
                    "rank": ranks.get(s.table.round.number, (None,))[0]}
                   for s in seating.seats],
        "confirmations_due": [
            s.table_id for s in live
            if tables[s.table_id].state["complete"]
            and (s.seat, tables[s.table_id].table.version) not in tables[s.table_id].confirmed],
        "changes": changes,
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
        return PlayerOverview(body, freshness.etag("me", digest), None)
    reads = tables[now.table_id]
    return PlayerOverview(body, freshness.etag("me", digest), reads.table, reads.state,
                          reads.calls.get(seating.participant.pk))


def _rescored(seating: _Seating) -> None:
    """The scores of the seats in reopened rounds, read again: a correction there bumps
    its table, not the tournament the seating is kept under (one query, only then)."""
    reopened = {s.pk: s for s in seating.seats if s.table.round.reopened}
    if reopened:
        for pk, score in Seat.objects.filter(pk__in=reopened).values_list("pk", "score"):
            reopened[pk].score = score


def seating_overview(seating: _Seating, ranks: dict[int, tuple] | None = None,
                     read: dict[str, Any] | None = None) -> PlayerOverview:
    """The overview of a seating read (``personal_seating``): the shown tables' reads
    and the player's changes are kept under the versions of what they show (the
    changes: every table the player sat at, the objections — the calls' scope — and
    the names, in the reader's language); ``ranks``: the player's (``own_ranks``) when
    the caller read them already; ``read``: the caller's read of ``overview_keys``."""
    tournament = seating.participant.tournament
    _rescored(seating)
    shown = [s.table_id for s in seating.shown]
    found = _versions(seating)
    if found is None:
        tables, changes = _read_tables(shown, tournament), _own_changes(seating)
    else:
        tables, changes = _kept_reads(seating, found, read)
    if ranks is None:
        ranks = own_ranks(tournament, seating.participant.pk)
    return _overview(seating, tables, ranks, changes)


def player_overview(participant: Participant) -> PlayerOverview:
    """The player's overview (api.md ``GET /me/``) of a participant already read: eight
    queries, whatever the number of rounds."""
    return seating_overview(_seating(participant))


def _seating_key(token: str) -> str:
    return f"me:seating:{hashlib.blake2b(token.encode(), digest_size=16).hexdigest()}"


def _read_seating(token: str) -> _Seating | None:
    found = _by_token(token)
    return None if found is None else _seating(*found)


def _kept_seating(token: str) -> _Seating | None:
    """The token's seating, kept with the tournament's version it was read under: read
    again when that version moved (the first read of a token only notes its
    tournament, whose version the next one reads first)."""
    key = _seating_key(token)
    entry = kept.get(key)  # (tournament id, version, seating)
    if entry is None:
        seating = _read_seating(token)
        if seating is not None:
            kept.keep({key: (seating.participant.tournament_id, None, None)})
        return seating
    tournament_id, version, seating = entry
    # with the tournament's version, in the same round trip, the versions every reader of
    # the seating reads next: those of what the player's answers show (``live_scopes``,
    # ``part_scopes``) and of the stored standings (their standing, the ranks of their
    # earlier rounds)
    found = freshness.versions([freshness.tournament(tournament_id),
                                *(live_scopes(seating)[1:] + part_scopes(seating)[2:]
                                  if seating is not None else [freshness.calls(tournament_id)]),
                                freshness.computed(tournament_id)])
    if found is not None and found[0] == version and seating is not None:
        return seating
    seating = _read_seating(token)
    if seating is None:  # renewed, erased, removed: nothing to keep
        kept.forget([key])
    elif found is not None:
        kept.keep({key: (tournament_id, found[0], seating)})
    return seating


def personal_seating(token: str) -> _Seating | None:
    """The seating of the participant a personal token opens (kept; one statement for a
    player drawn at least once when it is read), or None."""
    seating = _kept_seating(token)
    if seating is None or not personal_token_valid(seating.participant, timezone.localdate()):
        return None
    return seating
