"""Read models shared by the API and the pages (no writes here).

A *table state* is a table's sheet as plain data: seats, deals with running totals,
totals, what comes next. The readers here load it in bulk — the seats of all the tables
asked for in one query and their deals (or only their counts) in another — so a page
that shows every table of a tournament costs the same number of queries at 2 tables as
at 24, and a player's page the same at 1 round as at 5.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import orjson
from django.db.models import Max, Prefetch

from games.engines import DealContext, get_engine
from tournaments.models import (
    Deal,
    Participant,
    Round,
    Seat,
    StandingsOutbox,
    StandingsPage,
    StandingsState,
    Table,
    Tournament,
)
from tournaments.standings import rank


def deal_plan(table: Table, first: int | None, *, players: int | None = None,
              records: Sequence[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The engine's hints (``Engine.deal_plan``) for the deals still to be entered, from
    ``first`` (the next deal) on, so an entry form can go on offline (dealer, seats in
    play, cards, bidding order, what is due). ``players`` and ``records`` (the sheet's
    records in order) save reading the seats and deals when the caller has them."""
    if first is None:
        return []
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    if players is None:
        players = table.seats.count()
    if records is None:
        records = list(table.deals.order_by("number").values_list("record", flat=True))
    return engine.deal_plan(records[:first - 1], players, rules)


def deal_state(deal: Deal) -> dict[str, Any]:
    return {"number": deal.number, "record": deal.record, "scores": deal.scores,
            "extra": deal.extra, "version": deal.version, "etag": deal.etag}


def _with_json(deal: dict[str, Any]) -> dict[str, Any]:
    return {**deal, "record_json": json.dumps(deal["record"])}


def _state(table: Table, seats: list[Seat], deals: list[Deal] | None,
           records: list[dict[str, Any]]) -> dict[str, Any]:
    """``records``: the sheet's records in order (the engine judges completeness and
    the next deal's hints from them)."""
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    rules = engine.options(tournament.rules)
    players = len(seats)
    length = engine.sheet_length(players, rules)
    deal_count = len(records)
    progress = engine.sheet_progress(records, players, rules)
    # A sheet ended early (shortened) is complete at the deals entered: nothing follows.
    complete = (table.summary is not None or table.shortened
                or engine.sheet_complete(records, players, rules))
    next_number = None if complete else deal_count + 1
    # the last deal number the sheet may take now (a bound for entry offline): the
    # engine's room, or one more sheet length where each deal's place decides
    room = None if complete else engine.sheet_room(records, players, rules)
    last_number = deal_count if complete else deal_count + (length if room is None else room)
    hints = (engine.deal_hints(DealContext(next_number, players, rules,
                                           previous=tuple(records)))
             if next_number else None)
    state = {
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
        "shortened": table.shortened,
        "end_reason": table.end_reason,
        "version": table.version,
        "sheet_length": length,
        "deal_count": deal_count,
        # the sheet's "n of m" games: the engine's count (rows that are no game of the
        # round, like an annulled game, do not count)
        "games_played": progress[0],
        "games_planned": progress[1],
        "last_number": last_number,
        "complete": complete,
        "next_deal": next_number,
        "dealer": hints["dealer"] if hints else None,
        "next": hints,
        "seats": [{"seat": s.seat, "participant": s.participant_id,
                   "name": s.participant.player.name} for s in seats],
        "summary": table.summary,
        "totals": [{"seat": s.seat, "participant": s.participant_id, "score": s.score,
                    **s.figures} for s in seats],
    }
    if deals is not None:
        rows = [_with_json(deal_state(d)) for d in deals]
        running = [0] * players
        for row in rows:
            running = [r + s for r, s in zip(running, row["scores"], strict=True)]
            row["cells"] = [{"score": s, "running": r}
                            for s, r in zip(row["scores"], running, strict=True)]
        state["deals"] = rows
    return state


def table_states(tables: Sequence[Table], *, deals: bool = True) -> list[dict[str, Any]]:
    """The states of ``tables`` (in their order), in two queries whatever their number.

    Each table's ``round.tournament`` must be loaded already (``select_related`` or
    attached by the caller). With ``deals=False`` the states carry ``deal_count`` but no
    ``deals`` list: enough for an overview, without reading every deal's record."""
    ids = [t.pk for t in tables]
    if not ids:
        return []
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (Seat.objects.filter(table_id__in=ids)
                 .select_related("participant__player").order_by("table_id", "seat")):
        seats[seat.table_id].append(seat)
    if deals:
        by_table: dict[int, list[Deal]] = defaultdict(list)
        for deal in Deal.objects.filter(table_id__in=ids).order_by("table_id", "number"):
            by_table[deal.table_id].append(deal)
        return [_state(t, seats[t.pk], by_table[t.pk], [d.record for d in by_table[t.pk]])
                for t in tables]
    # the records alone: whether a sheet is complete and who deals next are the
    # engine's answers from them, not a count of rows
    records: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table_id, record in (Deal.objects.filter(table_id__in=ids)
                             .order_by("table_id", "number")
                             .values_list("table_id", "record")):
        records[table_id].append(record)
    return [_state(t, seats[t.pk], None, records[t.pk]) for t in tables]


def table_state(table: Table) -> dict[str, Any]:
    """One table's state with its deals. ``entry_token`` is never included; callers add
    it for staff."""
    return table_states([table])[0]


def round_sheets(tournament: Tournament, *, number: int | None = None) -> list[Round]:
    """The rounds of ``tournament`` (only round ``number`` when given), each with
    ``sheets``: its tables in order as ``(table, state)`` pairs, states without deal
    lists; and ``all_submitted``. Four queries whatever the number of rounds and tables."""
    rounds = tournament.rounds.order_by("number")
    if number is not None:
        rounds = rounds.filter(number=number)
    rounds = list(rounds)
    by_pk = {rnd.pk: rnd for rnd in rounds}
    tables = list(Table.objects.filter(round__in=rounds).order_by("round_id", "number"))
    for rnd in rounds:
        rnd.tournament = tournament
    for table in tables:
        table.round = by_pk[table.round_id]
    states = table_states(tables, deals=False)
    for rnd in rounds:
        rnd.sheets = [(t, s) for t, s in zip(tables, states, strict=True)
                      if t.round_id == rnd.pk]
        rnd.all_submitted = all(s["submitted"] for _t, s in rnd.sheets)
    return rounds


def participant_sheets(participant: Participant) -> list[dict[str, Any]]:
    """Every sheet ``participant`` played, by round: ``round``, ``seat`` and the table's
    state with its deals. Three queries whatever the number of rounds."""
    tournament = participant.tournament
    seats = list(Seat.objects.filter(participant=participant).select_related("table__round")
                 .order_by("table__round__number"))
    for seat in seats:
        seat.table.round.tournament = tournament
    states = table_states([seat.table for seat in seats])
    return [{"round": seat.table.round.number, "seat": seat.seat, "state": state}
            for seat, state in zip(seats, states, strict=True)]


def rounds_with_seating(tournament: Tournament):
    """The rounds of ``tournament`` with their tables and seats (participant and player)
    prefetched, for the API's round listings: three queries whatever their number."""
    seats = Seat.objects.select_related("participant__player").order_by("seat")
    tables = (Table.objects.prefetch_related(Prefetch("seats", queryset=seats))
              .order_by("number"))
    return tournament.rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=tables))


# the keys of a ranked standings row that are not the game's figures
STANDING_KEYS = ("participant", "score", "rounds", "rank")


def standing_figures(row: dict[str, Any]) -> dict[str, Any]:
    """The game's figures of a ranked standings row (won, lost, …)."""
    return {k: v for k, v in row.items() if k not in STANDING_KEYS}


def _ranked(texts, game: str) -> list[dict[str, Any]]:
    return rank([row for text in texts for row in orjson.loads(text)],
                get_engine(game).rank_key)


def standings_rows(tournament: Tournament, round_number: int = 0) -> list[dict[str, Any]]:
    """One stored standings list (overall: round 0), ranked best first, each row with its
    ``rank``; [] before the first recompute. Rows as ``StandingsPage`` describes them."""
    return _ranked(StandingsPage.objects.filter(tournament=tournament,
                                                round_number=round_number)
                   .values_list("rows", flat=True), tournament.game)


def standings_lists(tournaments: Sequence[Tournament], round_number: int | None = None
                    ) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """The stored lists of several tournaments in one query, ranked, keyed by
    (tournament, round): of one round (0: overall), or all of them."""
    pages = StandingsPage.objects.filter(tournament__in=tournaments)
    if round_number is not None:
        pages = pages.filter(round_number=round_number)
    texts: dict[tuple[int, int], list[str]] = defaultdict(list)
    for tid, number, text in pages.values_list("tournament_id", "round_number", "rows"):
        texts[(tid, number)].append(text)
    games = {t.pk: t.game for t in tournaments}
    return {key: _ranked(found, games[key[0]]) for key, found in texts.items()}


def named_standings(tournament: Tournament, round_number: int = 0) -> list[dict[str, Any]]:
    """A stored list as the public API shows it, best first: ``{"rank", "participant",
    "name", "start_number", "score", <figures>, "rounds", "rounds_played",
    "withdrawn"}`` (two queries)."""
    people = {pid: (name, number, withdrawn) for pid, name, number, withdrawn in
              Participant.objects.filter(tournament=tournament).values_list(
                  "pk", "player__name", "start_number", "withdrawn")}
    return [
        {"rank": row["rank"], "participant": pid, "name": name, "start_number": number,
         "score": row["score"], **standing_figures(row),
         "rounds": row["rounds"], "rounds_played": len(row["rounds"]), "withdrawn": withdrawn}
        for row in standings_rows(tournament, round_number)
        if (pid := row["participant"]) in people
        for name, number, withdrawn in [people[pid]]
    ]


class StandingEntry:
    """A stored standings row with its participant (and player) loaded, for pages."""

    __slots__ = ("rank", "score", "figures", "rounds", "participant_id", "participant")

    def __init__(self, row: dict[str, Any], participant: Participant) -> None:
        self.rank, self.score, self.rounds = row["rank"], row["score"], row["rounds"]
        self.figures = standing_figures(row)
        self.participant_id, self.participant = row["participant"], participant


def standing_entries(tournament: Tournament, round_number: int | None = None,
                     *, limit: int | None = None) -> dict[int, list[StandingEntry]]:
    """The stored lists of one tournament (one round, or all) by round, each row with its
    participant, player and club: two queries whatever the field and rounds; ``limit``
    keeps the first rows of each list."""
    lists = standings_lists([tournament], round_number)
    people = Participant.objects.filter(tournament=tournament).select_related("player__club")
    if limit is not None:
        people = people.filter(pk__in={row["participant"] for rows in lists.values()
                                       for row in rows[:limit]})
    people = {p.pk: p for p in people}
    return {number: [StandingEntry(row, people[row["participant"]]) for row in rows[:limit]
                     if row["participant"] in people]
            for (_tid, number), rows in sorted(lists.items())}


def standings_version(tournament: Tournament) -> tuple[Any, int | None]:
    """When the stored standings were computed (None: never) and the oldest change not
    yet in them (None: they are current): what every standings answer is tagged with."""
    state = StandingsState.objects.filter(tournament=tournament).only("computed_at").first()
    return (state.computed_at if state else None), standings_pending(tournament.pk)


def standings_pending(tournament_id: int) -> int | None:
    """The newest change not yet in the standings (an outbox id), or None."""
    return (StandingsOutbox.objects.filter(tournament_id=tournament_id)
            .aggregate(m=Max("id"))["m"])


def tournaments_with_pending_changes() -> list[int]:
    return list(StandingsOutbox.objects.values_list("tournament_id", flat=True).distinct())
