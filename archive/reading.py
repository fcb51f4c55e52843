"""Reading and checking an event document before anything is stored: every offending
value is named by its JSON path (``rounds[0].tables[2].deals[5].bid``).

The document is first checked against its JSON Schema (``event_schema``); then each
object is read as a ``Shape`` (``spec``) into the values to store, and the functions add
what a schema cannot say: the game's own checks of rules, deals (each in its place in the
sheet, as entering it through the API checks it) and summaries, references between
objects (clubs, start numbers) and numbering in order.
"""

from __future__ import annotations

import ipaddress
import marshal
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_noop as _

from archive.event_schema import check_event_schema, dotted_to_json_path
from archive.spec import (
    ECHO_MAX,
    Day,
    Flag,
    ListOf,
    Moment,
    OneOf,
    Plain,
    Shape,
    Slug,
    Text,
    Whole,
    fail,
    prefixed,
)
from clubs.models import Club, Player
from clubs.services import check_table_money
from games.choices import check_game
from games.engines import get_engine
from games.engines.base import Engine, ScoredDeal, is_int
from games.errors import FieldError, UserError
from prizes.payout import ENTRY_FEE_MAX, check_prize_config
from tournaments.bounds import (
    MAX_ARCHIVE_CLUBS,
    MAX_DEAL_NUMBER,
    MAX_IP_TEXT,
    MAX_ROUND,
    MAX_SEAT,
    MAX_SEED,
    MAX_START_NUMBER,
    MAX_TABLE,
)
from tournaments.models import (
    TEAM_SIZE_DEFAULT,
    DirectorCall,
    Objection,
    Participant,
    Round,
    SheetEvent,
    Table,
    Team,
    Tournament,
)
from tournaments.services.categories import check_categories
from tournaments.services.sheets import DealMemo

LIST = ListOf()


class Labels:
    """Category labels (games.md §10.3), checked as the API checks them."""

    def read(self, value: Any, path: str) -> list[str]:
        try:
            return check_categories(value)
        except UserError as exc:
            raise fail(path, exc.message, **exc.params) from None

MONEY = ("loss_fee_cents", "loss_fee_from", "loss_fee_high_cents")

ARCHIVE = Shape({"format": Plain(), "version": Plain(), "tournament": Plain(), "clubs": Plain(),
                 "participants": Plain(), "rounds": Plain(), "standings": LIST},
                optional={"teams": Plain(), "prizes": Plain()})
CLUBS = ListOf(MAX_ARCHIVE_CLUBS, _("At most %(max)s clubs."))
CLUB = Shape({"slug": Slug.of(Club, "slug"), "name": Text.of(Club, "name", blank=False),
              "city": Text.of(Club, "city")})
TOURNAMENT = Shape(
    {"name": Text.of(Tournament, "name", blank=False), "slug": Slug.of(Tournament, "slug"),
     "game": Plain(), "rules": Plain(), "date": Day(),
     "status": OneOf.of(Tournament, "status", _("Unknown status.")),
     "published": Flag(), "avoid_same_club": Flag(), "club_evening": Flag(),
     **dict.fromkeys(MONEY, Plain()), "club": Plain(), "created_at": Moment()},
    optional={"rounds_planned": Whole.of(Tournament, "rounds_planned", null=True),
              "team_size": Whole.of(Tournament, "team_size"),
              # absent from archives before categories and the club ranking
              "categories": Labels(), "club_ranking_k": Whole.of(Tournament, "club_ranking_k",
                                                                  null=True),
              "one_prize_per_player": Flag()},
    defaults={"team_size": TEAM_SIZE_DEFAULT, "categories": [],
              "one_prize_per_player": False})
PARTICIPANT = Shape({"start_number": Whole(1, MAX_START_NUMBER), "checked_in": Flag(),
                     "withdrawn": Flag(), "player": Plain()},
                    optional={"registered_at": Moment(null=True), "categories": Labels(),
                              "club_name": Text.of(Participant, "club_name")},
                    defaults={"categories": [], "club_name": ""})
PLAYER = Shape({"name": Text.of(Player, "name", blank=False),
                "member_number": Text.of(Player, "member_number"), "club": Plain()},
               # absent from archives before the publication choice: the full name, as then
               optional={"publication": OneOf.of(Player, "publication",
                                                 _("Unknown publication choice."))},
               defaults={"publication": Player.Publication.FULL})
ROUND = Shape({"number": Whole(1, MAX_ROUND),
               "method": OneOf.of(Round, "method", _("Unknown seating method.")),
               "seed": Whole(0, MAX_SEED), "closed": Flag(), "created_at": Moment(),
               "tables": LIST},
              optional={"reopened": Flag()}, defaults={"reopened": False})
TABLE = Shape({"number": Whole(1, MAX_TABLE), "submitted": Flag(),
               "submitted_at": Moment(null=True), "seats": LIST, "deals": LIST,
               "history_head": Plain()},
              # the history, confirmations, objections and calls: the directors' copy only
              optional={"shortened": Flag(), "end_reason": Text.of(Table, "end_reason"),
                        "summary": Plain(), "version": Whole(), "history": LIST,
                        "confirmations": LIST, "objections": LIST, "calls": LIST},
              defaults={"shortened": False, "end_reason": "", "version": 0, "history": [],
                        "confirmations": [], "objections": [], "calls": []})
# a seat's score and figures are for readers: the import recomputes them
SEAT = Shape({"seat": Whole(1, MAX_SEAT), "participant": Plain()},
             optional={"score": Plain(), "figures": Plain()}, defaults={"figures": {}})
DEAL_NUMBER = Whole(1, MAX_DEAL_NUMBER)
USERNAME = Text.of(get_user_model(), "username", blank=False, null=True)
# a participant named by start number (checked against the participants by the reader)
PARTICIPANT_REF = Plain()
EVENT = Shape({"at": Moment(), "user": USERNAME,
               "by_table": Flag(), "ip": Text(MAX_IP_TEXT, null=True),
               "action": OneOf.of(SheetEvent, "action", _("Unknown action.")),
               "deal_number": Whole(1, MAX_DEAL_NUMBER, null=True), "before": Plain(),
               "after": Plain()},
              optional={"participant": PARTICIPANT_REF})
CONFIRMATION = Shape({"seat": Whole(1, MAX_SEAT), "version": Whole(), "at": Moment(),
                      "participant": PARTICIPANT_REF})
OBJECTION = Shape({"deal_number": Whole(1, MAX_DEAL_NUMBER, null=True),
                   "note": Text.of(Objection, "note", blank=False),
                   "participant": PARTICIPANT_REF, "at": Moment(),
                   "status": OneOf.of(Objection, "status", _("Unknown status.")),
                   "resolution": Text.of(Objection, "resolution"),
                   "resolved_at": Moment(null=True), "resolved_by": USERNAME})
CALL = Shape({"participant": PARTICIPANT_REF, "reason": Text.of(DirectorCall, "reason"),
              "at": Moment(), "status": OneOf.of(DirectorCall, "status", _("Unknown status.")),
              "seen_at": Moment(null=True), "closed_at": Moment(null=True),
              "handled_by": USERNAME})
TEAM = Shape({"name": Text.of(Team, "name", blank=False), "members": LIST})
PRIZES = Shape({"config": Plain(), "lot": Plain(), "fee_events": LIST})
FEE_EVENT = Shape({"at": Moment(), "entry_fee_cents": Whole(0, ENTRY_FEE_MAX)})


# marshal's type byte of a float, without and with its FLAG_REF
_MARSHAL_FLOATS = (ord("g"), ord("g") | 0x80)


def _may_hold_nan(value: Any) -> bool:
    """Whether ``value`` may hold a NaN, told from marshal's bytes (in C, a tenth of a
    walk's time): marshal writes a float as its type byte and the double's 8 bytes,
    the last of a NaN's (or an infinity's) 0x7f or 0xff after one of 0xf0 or more. The
    same bytes inside a text or an integer only make it say "maybe"."""
    try:
        written = marshal.dumps(value)
    except ValueError:  # a subclass, or nested too deep for marshal
        return True
    for last in (0x7F, 0xFF):
        at = written.find(last, 8)
        while at != -1:
            if written[at - 8] in _MARSHAL_FLOATS and written[at - 1] >= 0xF0:
                return True
            at = written.find(last, at + 1)
    return False


def _is_clean(value: Any) -> bool:
    """Whether ``value`` surely holds no NUL character, no key that is no text and no
    NaN, told in C (issue 52: the walk of a maximal document took 40 ms): orjson writes
    every text and key, a NUL as the escape ``\\u0000``, and refuses a key that is no
    text; ``_may_hold_nan`` tells the rest. False means "maybe": ``_no_nul`` walks."""
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:  # a key, a number, a lone surrogate, deep nesting
        return False
    return b"\\u0000" not in written and not _may_hold_nan(value)


def _no_nul(value: Any, path: str = "") -> None:
    """PostgreSQL stores no NUL character, in text or in JSON: refuse it anywhere."""
    if _is_clean(value):
        return
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise fail(where or "archive", _("Text must not contain NUL characters."))
        elif isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str) or "\x00" in key:
                    raise fail(where or "archive", _("Text must not contain NUL characters."))
                stack.append((child, f"{where}.{key}".lstrip(".")))
        elif isinstance(item, list):
            stack.extend((child, f"{where}.{i}".lstrip(".")) for i, child in enumerate(item))
        elif isinstance(item, float) and item != item:  # NaN is no JSON
            raise fail(where or "archive", _("Must be a number."))


def _read_clubs(data: Any) -> dict[str, dict]:
    clubs: dict[str, dict] = {}
    for i, club in enumerate(CLUBS.read(LIST.read(data, "clubs"), "clubs")):
        club = CLUB.read(club, f"clubs.{i}")
        if club["slug"] in clubs:
            raise fail(f"clubs.{i}.slug", _("The club “%(slug)s” is listed twice."),
                       slug=club["slug"])
        clubs[club["slug"]] = club
    return clubs


def _club_ref(value: Any, path: str, clubs: dict) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in clubs:
        raise fail(path, _("Unknown club “%(slug)s”."), slug=str(value)[:ECHO_MAX])
    return value


def _read_tournament(data: Any, clubs: dict) -> dict[str, Any]:
    t = TOURNAMENT.keys(data, "tournament")
    if not isinstance(t["rules"], dict):
        raise fail("tournament.rules", _("The rules must be an object of options."))
    try:
        game = check_game(t["game"])
        get_engine(game).options(t["rules"])
        check_table_money({k: t[k] for k in MONEY})
    except UserError as exc:
        raise prefixed(exc, "tournament") from None
    out = TOURNAMENT.read(t, "tournament")
    return {**out, "game": game, "club": _club_ref(t["club"], "tournament.club", clubs)}


def _read_participants(data: Any, clubs: dict) -> dict[int, dict]:
    out: dict[int, dict] = {}
    members: set[tuple[str, str]] = set()
    for i, p in enumerate(LIST.read(data, "participants")):
        path = f"participants.{i}"
        p = PARTICIPANT.read(p, path)
        number = p["start_number"]
        if number in out:
            raise fail(f"{path}.start_number", _("Start number %(number)s is given twice."),
                       number=number)
        player = PLAYER.read(p.pop("player"), f"{path}.player")
        club = player["club"] = _club_ref(player["club"], f"{path}.player.club", clubs)
        member = player["member_number"]
        if member and club:
            if (club, member) in members:
                raise fail(f"{path}.player.member_number",
                           _("Member number %(number)s of this club is given twice."),
                           number=member)
            members.add((club, member))
        out[number] = {**p, **player}
    return out


def _participant_ref(value: Any, path: str, participants: dict) -> int | None:
    """A start number of the archive's participants, or null (a tablet, staff)."""
    if value is None:
        return None
    if not is_int(value) or value not in participants:
        raise fail(path, _("Unknown start number."))
    return value


def _read_event(e: Any, path: str, participants: dict) -> dict[str, Any]:
    event = EVENT.read(e, path)
    if event["ip"] is not None:
        try:
            ipaddress.ip_address(event["ip"])
        except ValueError:
            raise fail(f"{path}.ip", _("Must be an IP address.")) from None
    event["participant"] = _participant_ref(event["participant"], f"{path}.participant",
                                            participants)
    return event


def _read_voices(t: dict, path: str, participants: dict, seats: list[dict]) -> dict[str, list]:
    """The table's confirmations, objections and calls: each participant a start number,
    a confirmation's seat one of the table's, once per seat and sheet version."""
    out: dict[str, list] = {"confirmations": [], "objections": [], "calls": []}
    confirmed: set[tuple[int, int]] = set()
    for key, shape in (("confirmations", CONFIRMATION), ("objections", OBJECTION),
                       ("calls", CALL)):
        for i, item in enumerate(t[key]):
            where = f"{path}.{key}.{i}"
            item = shape.read(item, where)
            item["participant"] = _participant_ref(item["participant"],
                                                   f"{where}.participant", participants)
            if key == "confirmations":
                if item["seat"] > len(seats):
                    raise fail(f"{where}.seat", _("Seat %(seat)s is not at this table."),
                               seat=item["seat"])
                if (item["seat"], item["version"]) in confirmed:
                    raise fail(f"{where}.seat", _("This seat confirmed this version twice."))
                confirmed.add((item["seat"], item["version"]))
            out[key].append(item)
    return out


def _read_seats(t: dict, path: str, participants: dict, seated: set[int]) -> list[dict]:
    seats = []
    for i, s in enumerate(t["seats"]):
        where = f"{path}.seats.{i}"
        s = SEAT.read(s, where)
        if s["seat"] != i + 1:
            raise fail(f"{where}.seat", _("Seats are numbered 1, 2, … in order."))
        number = s["participant"]
        if not is_int(number) or number not in participants:
            raise fail(f"{where}.participant", _("Unknown start number."))
        if number in seated:
            raise fail(f"{where}.participant",
                       _("Start number %(number)s is seated twice in this round."),
                       number=number)
        seated.add(number)
        if not isinstance(s["figures"], dict):
            raise fail(f"{where}.figures", _("Must be an object."))
        seats.append({"seat": i + 1, "participant": number, "figures": s["figures"]})
    return seats


def _read_deals(deals_in: list, path: str, memo: DealMemo, players: int,
                rules: dict) -> list[ScoredDeal]:
    """Each deal (its game's record plus ``number``) checked and scored in its place in
    the sheet, after the deals before it (``sheets.score_in_place``, as entering it does;
    ``memo``: one check of the deals equal in all and in place, as the game allows):
    deal ``i`` of the list is deal number ``i + 1``."""
    engine = memo.engine
    # a sheet's room is its length less its deals, unless the game says otherwise
    counted = type(engine).sheet_room is Engine.sheet_room
    length = engine.sheet_length(players, rules) if counted else 0
    previous: list[dict[str, Any]] = []
    deals: list[ScoredDeal] = []
    score, kept, scored_in = memo.scorer(players), previous.append, deals.append
    for i, d in enumerate(deals_in):
        if (i >= length) if counted else engine.sheet_room(previous, players, rules) == 0:
            length = engine.sheet_length(players, rules)
            raise fail(f"{path}.deals", _("A sheet has at most %(length)s deals."),
                       length=max(length, len(previous)))
        number = i + 1
        if type(d) is not dict:
            if not isinstance(d, dict):
                raise fail(f"{path}.deals.{i}", _("Must be an object."))
            d = dict(d)
        given = d.get("number")
        if type(given) is not int or given != number or number > MAX_DEAL_NUMBER:
            where = f"{path}.deals.{i}"
            if DEAL_NUMBER.read(given, f"{where}.number") != number:
                raise fail(f"{where}.number", _("Deals are numbered 1, 2, … in order."))
        record = d.copy()
        del record["number"]
        try:
            scored = score(number, record, previous)
        except UserError as exc:
            raise prefixed(exc, f"{path}.deals.{i}") from None
        kept(scored.record)
        scored_in(scored)
    return deals


def _read_table(t: Any, path: str, memo: DealMemo, rules: dict, participants: dict,
                seated: set[int]) -> dict[str, Any]:
    t = TABLE.read(t, path)
    engine = memo.engine
    seats = _read_seats(t, path, participants, seated)
    players = len(seats)
    try:
        engine.check_table(players, rules)
    except UserError:
        raise fail(f"{path}.seats", _("This game is not played at tables of %(n)s."),
                   n=players) from None
    summary = t["summary"]
    totals = None
    deals: list[ScoredDeal] = []
    if summary is not None:
        if t["deals"]:
            raise fail(f"{path}.deals", _("A sheet entered as a summary has no deals."))
        try:
            totals = engine.summary_totals(summary, players, rules)
        except UserError as exc:
            raise prefixed(exc, f"{path}.summary") from None
    else:
        deals = _read_deals(t["deals"], path, memo, players, rules)
        if deals:
            totals = engine.sheet_totals(deals, players, rules)
    for seat, row in zip(seats, totals or [], strict=False):
        seat["score"] = row["score"]
        seat["figures"] = {k: v for k, v in row.items() if k not in ("seat", "score")}
    if totals is None:  # an empty sheet: zero totals, figures left empty when they were
        zero = engine.sheet_totals([], players, rules)
        for seat in seats:
            row = zero[seat["seat"] - 1]
            seat["score"] = 0
            seat["figures"] = ({k: v for k, v in row.items() if k not in ("seat", "score")}
                               if seat["figures"] else {})
    return {**t, "seats": seats, "deals": deals,
            "history": [_read_event(e, f"{path}.history.{i}", participants)
                        for i, e in enumerate(t["history"])],
            **_read_voices(t, path, participants, seats)}


def _read_rounds(data: Any, game: str, rules: dict, participants: dict) -> list[dict]:
    rounds: list[dict] = []
    memo = DealMemo(get_engine(game), rules)
    for i, r in enumerate(LIST.read(data, "rounds")):
        path = f"rounds.{i}"
        r = ROUND.read(r, path)
        if r["number"] != i + 1:
            raise fail(f"{path}.number", _("Rounds are numbered 1, 2, … in order."))
        seated: set[int] = set()
        r["tables"] = [_read_table(t, f"{path}.tables.{j}", memo, rules, participants, seated)
                       for j, t in enumerate(r["tables"])]
        if len({t["number"] for t in r["tables"]}) != len(r["tables"]):
            raise fail(f"{path}.tables", _("Table numbers must differ."))
        rounds.append(r)
    return rounds


def _read_teams(data: Any, participants: dict, team_size: int) -> list[dict]:
    out: list[dict] = []
    names: set[str] = set()
    placed: set[int] = set()
    for i, team in enumerate(LIST.read(data, "teams")):
        path = f"teams.{i}"
        team = TEAM.read(team, path)
        if team["name"].casefold() in names:
            raise fail(f"{path}.name", _("Another team of this tournament has this name."))
        names.add(team["name"].casefold())
        if len(team["members"]) > team_size:
            raise fail(f"{path}.members", _("A team has at most %(size)s members in this "
                                            "tournament."), size=team_size)
        for j, number in enumerate(team["members"]):
            if not is_int(number) or number not in participants or number in placed:
                raise fail(f"{path}.members.{j}",
                           _("Not a participant of this tournament, or in two teams."))
            placed.add(number)
        out.append({"name": team["name"], "members": list(team["members"])})
    return out


def _read_prizes(data: Any, participants: dict) -> dict | None:
    if data is None:
        return None
    prizes = PRIZES.read(data, "prizes")
    try:
        config = check_prize_config(prizes["config"])
    except UserError as exc:
        raise prefixed(exc, "prizes.config") from None
    lot = prizes["lot"]
    if lot is not None:
        for j, number in enumerate(LIST.read(lot, "prizes.lot")):
            if not is_int(number) or number not in participants:
                raise fail(f"prizes.lot.{j}", _("Not a participant of this tournament."))
    events = [FEE_EVENT.read(event, f"prizes.fee_events.{j}")
              for j, event in enumerate(prizes["fee_events"])]
    return {"config": config.as_dict(), "lot": lot, "fee_events": events}


def archive_read(data: Any) -> dict[str, Any]:
    """Check an event document completely; return it as plain values ready to store.
    ``UserError`` names the first offending value by its JSON path."""
    check_event_schema(data)
    try:
        return _read(data)
    except UserError as exc:
        raise UserError([FieldError(dotted_to_json_path(e.field), e.message, e.params)
                         for e in exc.errors]) from None


def _read(data: Any) -> dict[str, Any]:
    ARCHIVE.keys(data, "")
    _no_nul(data)
    LIST.read(data["standings"], "standings")
    clubs = _read_clubs(data["clubs"])
    tournament = _read_tournament(data["tournament"], clubs)
    rules = get_engine(tournament["game"]).options(tournament["rules"])
    participants = _read_participants(data["participants"], clubs)
    rounds = _read_rounds(data["rounds"], tournament["game"], rules, participants)
    return {"clubs": clubs, "tournament": tournament, "participants": participants,
            "rounds": rounds,
            "teams": _read_teams(data.get("teams", []), participants, tournament["team_size"]),
            "prizes": _read_prizes(data.get("prizes"), participants)}
