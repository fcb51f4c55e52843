"""Read models shared by the API and the pages (no writes here).

A *table state* is a table's sheet as plain data: seats, deals with running totals,
totals, what comes next. The readers here load it in bulk — the seats of all the tables
asked for in one query and their deals (or only their counts) in another — so a page
that shows every table of a tournament costs the same number of queries at 2 tables as
at 24, and a player's page the same at 1 round as at 5.

The *team ranking* is derived from the stored individual standings (the rows the
standings workers write) and the teams, with ``tournaments.standings.teams``; it is as
fresh as the individual standings (``stale`` and ``computed_at`` are theirs) and changes
with every team change (``version``); the *prize list* that follows the overall
standings is ``prizes.selectors``'. Each reader costs a fixed number of queries,
whatever the field size.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson
from django.db import connection
from django.db.models import Max, Prefetch

from clubs.models import Club
from clubs.publication import shown_name, shown_player
from games.engines import DealContext, get_engine
from games.engines.base import is_int
from tournaments import freshness, kept
from tournaments.models import (
    Deal,
    DirectorCall,
    Objection,
    Participant,
    Round,
    Seat,
    SheetEvent,
    StandingsOutbox,
    StandingsPage,
    StandingsState,
    Table,
    Team,
    TeamEvent,
    Tournament,
)
from tournaments.standings import rank
from tournaments.standings.clubs import club_standings
from tournaments.standings.teams import team_standings
from tournaments.statements import Reads, columns, select_in


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


def _state(table: Table, seats: list[tuple[Seat, str]], deals: list[Deal] | None,
           records: list[dict[str, Any]]) -> dict[str, Any]:
    """``seats``: each with its player's name; ``records``: the sheet's records in order
    (the engine judges completeness and the next deal's hints from them)."""
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
        "seats": [{"seat": s.seat, "participant": s.participant_id, "name": name}
                  for s, name in seats],
        "summary": table.summary,
        "totals": [{"seat": s.seat, "participant": s.participant_id, "score": s.score,
                    **s.figures} for s, _name in seats],
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
    """The states of ``tables`` (in their order), in two statements whatever their number
    (one round trip on PostgreSQL: ``states_read``).

    Each table's ``round.tournament`` must be loaded already (``select_related`` or
    attached by the caller). With ``deals=False`` the states carry ``deal_count`` but no
    ``deals`` list: enough for an overview, without reading every deal's record. The
    statements are written once per process (``tournaments.statements``), not compiled
    by the ORM on every read: a player's page reads its table after every deal there."""
    ids = [t.pk for t in tables]
    if not ids:
        return []
    reads = Reads()
    states = states_read(reads, ids, deals=deals)
    return states(reads.send(), tables)


def states_read(reads: Reads, ids: Sequence[int], *, deals: bool = True
                ) -> Callable[[list[Any], Sequence[Table]], list[dict[str, Any]]]:
    """``table_states`` of the tables ``ids`` (not empty) with the caller's other reads:
    its statements are added to ``reads``; the answer, given what ``reads.send()``
    answered and the tables (in the order of ``ids``), gives the states."""
    names = columns(Seat)
    seats_at = reads.select_in(Seat, (*names, "participant__player__name"), "table", ids,
                               order_by=("table", "seat"))
    deal_names = columns(Deal) if deals else ("table", "record")
    deals_at = reads.select_in(Deal, deal_names, "table", ids, order_by=("table", "number"))

    def states(found: list[Any], tables: Sequence[Table]) -> list[dict[str, Any]]:
        db = connection.alias
        seats: dict[int, list[tuple[Seat, str]]] = defaultdict(list)
        for *values, name in found[seats_at]:
            seat = Seat.from_db(db, names, values)
            seats[seat.table_id].append((seat, name))
        if deals:
            by_table: dict[int, list[Deal]] = defaultdict(list)
            for values in found[deals_at]:
                deal = Deal.from_db(db, deal_names, values)
                by_table[deal.table_id].append(deal)
            return [_state(t, seats[t.pk], by_table[t.pk], [d.record for d in by_table[t.pk]])
                    for t in tables]
        # the records alone: whether a sheet is complete and who deals next are the
        # engine's answers from them, not a count of rows
        records: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for table_id, record in found[deals_at]:
            records[table_id].append(record)
        return [_state(t, seats[t.pk], None, records[t.pk]) for t in tables]

    return states


def confirmed_seats(table: Table) -> list[int]:
    """The seats whose confirmation holds: of the current version before submission, of
    the submitted sheet (the last submission's ``confirmed_by``) after it. The services
    (``confirmations``) decide the submission with it."""
    if table.submitted:
        event = (table.events.filter(action=SheetEvent.Action.SUBMIT).order_by("-at", "-id")
                 .values_list("after", flat=True).first()) or {}
        return sorted(c["seat"] for c in event.get("confirmed_by") or []
                      if isinstance(c, dict) and is_int(c.get("seat")))
    return list(table.confirmations.filter(version=table.version)
                .order_by("seat").values_list("seat", flat=True))


def objection_state(objection: Objection, names: dict[int, str] | None = None
                    ) -> dict[str, Any]:
    """An objection as the API and the pages show it; ``by`` is the raising player's
    name (``names``: participant id → name, else read through ``participant.player``),
    or None when the tablet raised it."""
    by = None
    if objection.participant_id is not None:
        by = (names.get(objection.participant_id) if names is not None
              else objection.participant.player.name)
    return {"id": objection.pk, "table": objection.table_id, "deal": objection.deal_number,
            "note": objection.note, "by": by, "at": objection.at,
            "status": objection.status, "resolution": objection.resolution,
            "resolved_at": objection.resolved_at}


def sheet_voice(table: Table, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """What the players have said about ``table``'s sheet: the seats whose confirmation
    holds (``confirmed_seats``) and every objection, oldest first. Two
    queries; ``seats`` (the state's) name the players."""
    names = {s["participant"]: s["name"] for s in seats}
    objections = [objection_state(o, names) for o in table.objections.order_by("at", "id")]
    return {"confirmed": confirmed_seats(table), "objections": objections}


def waiting_call(table_id: int, participant_id: int | None) -> DirectorCall | None:
    """The caller's call at the table not yet closed (``participant_id`` None: the
    table's tablet): the caller's screen says whether the director has seen it, after a
    reload too."""
    return open_calls([table_id]).get(table_id, {}).get(participant_id)


def open_calls(table_ids) -> dict[int, dict[int | None, DirectorCall]]:
    """Each table's calls for the director not yet closed, the latest per caller
    (``{table: {participant or None (the tablet): call}}``): one statement."""
    table_ids = list(table_ids)
    if not table_ids:
        return {}
    reads = Reads()
    calls = calls_read(reads, table_ids)
    return calls(reads.send())


def calls_read(reads: Reads, table_ids: Sequence[int]
               ) -> Callable[[list[Any]], dict[int, dict[int | None, DirectorCall]]]:
    """``open_calls`` of the tables ``table_ids`` (not empty) with the caller's other
    reads (as ``states_read``): the tables' calls, the closed ones left out here (a
    table has a few)."""
    names = columns(DirectorCall)
    at = reads.select_in(DirectorCall, names, "table", table_ids, order_by=("at", "id"))

    def calls(found: list[Any]) -> dict[int, dict[int | None, DirectorCall]]:
        db = connection.alias
        by_table: dict[int, dict[int | None, DirectorCall]] = {}
        for values in found[at]:
            call = DirectorCall.from_db(db, names, values)
            if call.status != DirectorCall.Status.CLOSED:
                by_table.setdefault(call.table_id, {})[call.participant_id] = call
        return by_table

    return calls


def table_state(table: Table) -> dict[str, Any]:
    """One table's state with its deals, the confirmations and the objections
    (``sheet_voice``). ``entry_token`` is never included; callers add it for staff."""
    state = table_states([table])[0]
    return {**state, **sheet_voice(table, state["seats"])}


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


# A player's own page shows their rank and score in each stored list, and ranks are not
# stored: a reader sorts the whole list. So each computation's ranks are kept in the
# shared cache under the version of the stored standings (``freshness.computed``, new
# after each recompute's commit), a page of participants to a key (``ranks_page``: as
# ``StandingsPage`` pages them) with the computation's number, by the recompute after its
# commit (before the version it keeps them under is set) or else by the first reader; a
# player's page reads its own page of ranks: at a championship one cache read per poll
# instead of sorting 3,000 rows of every list (measured: 78 of a 130-ms answer), and in
# the same read as the rest it keeps under the versions. The same page is the players'
# shared standing part (``tournaments.pages.me.ranks_part``).
RANKS_SECONDS = 600  # a superseded computation's ranks are read for a few seconds only


def ranks_page_of(participant_id: int) -> int:
    """The page of ranks (and of stored standings) a participant's entry is on."""
    return participant_id // StandingsPage.PAGE_SIZE


def _ranks_key(tournament_id: int, version: str, page: int) -> str:
    return f"ranks:{tournament_id}:{version}:{page}"


def ranks_key(tournament_id: int, page: int) -> str | None:
    """Where the page of ranks is kept under the stored standings' version now (None:
    the versions unavailable): a caller reading several kept entries at once names it
    among them (``ranks_page``'s ``found``)."""
    found = freshness.versions([freshness.computed(tournament_id)])
    return None if found is None else _ranks_key(tournament_id, found[0], page)


def _ranks(tournament: Tournament, computation: int | None = None
           ) -> tuple[int, dict[int, dict[int, tuple]]]:
    """The number of the stored computation (read when not given; 0: none yet) and every
    participant's ``{list: (rank, score)}`` of the stored lists (0: overall; ``{}`` for
    one in no list yet; none at all before the first computation)."""
    if computation is None:
        computation = (StandingsState.objects.filter(tournament=tournament)
                       .values_list("recomputes", flat=True).first() or 0)
    if not computation:
        return 0, {}
    ranks: dict[int, dict[int, tuple]] = {
        pid: {} for pid in Participant.objects.filter(tournament=tournament)
        .values_list("pk", flat=True)}
    for (_tid, number), rows in standings_lists([tournament]).items():
        for row in rows:
            ranks.setdefault(row["participant"], {})[number] = (row["rank"], row["score"])
    return computation, ranks


def _keep_ranks(tournament: Tournament, version: str, computation: int | None = None,
                page: int | None = None) -> dict[int, tuple[int, dict]]:
    """The pages of ranks (``_ranks``), each ``(computation, {participant: ranks})``,
    kept under the stored standings' ``version`` (read before them); ``page``: one
    that must be among them (before the first computation it is the only one)."""
    computation, ranks = _ranks(tournament, computation)
    pages: dict[int, tuple[int, dict]] = {} if page is None else {page: (computation, {})}
    for pid, entry in ranks.items():
        pages.setdefault(ranks_page_of(pid), (computation, {}))[1][pid] = entry
    kept.keep({_ranks_key(tournament.pk, version, n): entry for n, entry in pages.items()},
              RANKS_SECONDS)
    return pages


def keep_ranks(tournament_id: int, computation: int, version: str) -> None:
    """Keep the ranks of the tournament's computation number ``computation`` under the
    stored standings' new ``version`` (the recompute calls this after its commit, before
    that version is set)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        _keep_ranks(tournament, version, computation)


def ranks_page(tournament: Tournament, page: int, found: dict[str, Any] | None = None
               ) -> tuple[int, dict[int, dict[int, tuple]]]:
    """The number of the tournament's stored computation (0: none yet) and the
    ``{participant: {list: (rank, score)}}`` of the participants on ``page``; ``found``:
    the caller's read of kept entries (``kept.read``) that named ``ranks_key``: not read
    again."""
    version = freshness.versions([freshness.computed(tournament.pk)])
    if version is None:  # the cache down: read, not kept
        computation, ranks = _ranks(tournament)
        return computation, {pid: entry for pid, entry in ranks.items()
                             if ranks_page_of(pid) == page}
    key = _ranks_key(tournament.pk, version[0], page)
    entry = found.get(key) if found is not None else kept.get(key)
    if entry is None:
        entry = _keep_ranks(tournament, version[0], page=page)[page]
    return entry


def own_ranks(tournament: Tournament, participant_id: int) -> dict[int, tuple]:
    """The participant's ``{list: (rank, score)}`` in the tournament's stored lists."""
    return ranks_page(tournament, ranks_page_of(participant_id))[1].get(participant_id, {})


def public_names(tournament: Tournament, full: bool = False,
                 only: Iterable[int] | None = None) -> dict[int, tuple[str, int, bool]]:
    """Each participant's (name as shown, start number, withdrawn): one query; the name
    full where ``full`` (``policies.sees_full_names``), else as the player chose;
    ``only``: of these participants alone."""
    names = ("tournament", "id", "player__name", "player__publication", "start_number",
             "withdrawn", "player")
    only = None if only is None else list(only)
    found = (select_in(Participant, names, "tournament", [tournament.pk]) if only is None
             else select_in(Participant, names, "id", only) if only else [])
    return {pid: (shown_name(name, publication, number, full=full, player_id=player),
                  number, withdrawn)
            for of, pid, name, publication, number, withdrawn, player in found
            if of == tournament.pk}


def named_standings(tournament: Tournament, round_number: int = 0, *,
                    full: bool = False) -> list[dict[str, Any]]:
    """A stored list as the API shows it, best first: ``{"rank", "participant",
    "name", "start_number", "score", <figures>, "rounds", "rounds_played",
    "withdrawn"}`` (two queries); names as their players chose unless ``full``."""
    people = public_names(tournament, full)
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
    return standings_computed_at(tournament), standings_pending(tournament.pk)


def standings_computed_at(tournament: Tournament) -> Any:
    """When the stored standings were computed (None: never)."""
    state = StandingsState.objects.filter(tournament=tournament).only("computed_at").first()
    return state.computed_at if state else None


def standings_pending(tournament_id: int) -> int | None:
    """The newest change not yet in the standings (an outbox id), or None."""
    return (StandingsOutbox.objects.filter(tournament_id=tournament_id)
            .aggregate(m=Max("id"))["m"])


def tournaments_with_pending_changes() -> list[int]:
    return list(StandingsOutbox.objects.values_list("tournament_id", flat=True).distinct())


# --------------------------------------------------------------------------- teams


def _members() -> Prefetch:
    return Prefetch("members", queryset=Participant.objects.select_related("player")
                    .order_by("start_number"))


def _team_json(team: Team, full: bool) -> dict[str, Any]:
    return {"id": team.pk, "name": team.name,
            "members": [{"participant": p.pk,
                         "name": shown_player(p.player, p.start_number, full=full),
                         "start_number": p.start_number} for p in team.members.all()]}


def teams_of(tournament: Tournament, *, full: bool = False) -> list[dict[str, Any]]:
    """The teams as the API shows them: ``{"id", "name", "members": [{"participant",
    "name", "start_number"}]}``, members by start number; names as their players chose
    unless ``full``."""
    return [_team_json(team, full)
            for team in tournament.teams.prefetch_related(_members()).order_by("id")]


def team_of(team: Team, *, full: bool = False) -> dict[str, Any]:
    return _team_json(Team.objects.prefetch_related(_members()).get(pk=team.pk), full)


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


def team_results(tournament: Tournament, *, full: bool = False) -> list[dict[str, Any]]:
    engine = get_engine(tournament.game)
    return team_standings(teams_of(tournament, full=full),
                          named_standings(tournament, full=full),
                          tie_break=engine.team_tie_break, standing_order=engine.standing_order,
                          team_size=tournament.team_size, figures=engine.figures)


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


# --------------------------------------------------------------------------- categories


def category_members(tournament: Tournament, category: str) -> set[int]:
    """The participants in ``category`` (one query)."""
    return {pid for pid, labels in Participant.objects.filter(tournament=tournament)
            .values_list("pk", "categories") if category in (labels or [])}


def category_standings(rows: list[dict[str, Any]], members: set[int], game: str
                       ) -> list[dict[str, Any]]:
    """A standings list restricted to a category's ``members``, with their own ranks by
    the game's tie-break (games.md §10.3)."""
    return rank([row for row in rows if row["participant"] in members],
                get_engine(game).rank_key)


# --------------------------------------------------------------------------- clubs


def clubs_at_registration(tournament: Tournament) -> tuple[dict[int, int | None],
                                                           dict[int, str]]:
    """Each participant's club at registration (the player's club where none was
    stored) and the clubs' names: two queries."""
    clubs = {pid: own or players
             for pid, own, players in Participant.objects.filter(tournament=tournament)
             .values_list("pk", "club_id", "player__club_id")}
    names = dict(Club.objects.filter(pk__in={c for c in clubs.values() if c is not None})
                 .values_list("pk", "name"))
    return clubs, names


def club_results(tournament: Tournament, *, full: bool = False) -> list[dict[str, Any]]:
    """The club ranking (games.md §10.4) of the tournament's overall standings: [] when
    the tournament has none (``club_ranking_k`` empty). Four queries."""
    k = tournament.club_ranking_k
    if not k:
        return []
    engine = get_engine(tournament.game)
    clubs, names = clubs_at_registration(tournament)
    return club_standings(named_standings(tournament, full=full), clubs, names, k=k,
                          standing_order=engine.standing_order,
                          tie_break=engine.team_tie_break)
