"""Reading and checking an archive before anything is stored: every offending path is
named (``rounds.0.tables.2.deals.5.record.matadors``)."""

from __future__ import annotations

import datetime
import ipaddress
import re
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext_noop as _

from clubs.services import check_table_money
from games.choices import check_game
from games.engines import DealContext, EngineUserError, FieldError, get_engine
from games.engines.base import is_int
from tournaments.bounds import MAX_ROUND
from tournaments.models import (
    MAX_ROUNDS_PLANNED,
    MAX_TEAM_SIZE,
    MIN_ROUNDS_PLANNED,
    MIN_TEAM_SIZE,
    TEAM_SIZE_DEFAULT,
    Round,
    SheetEvent,
    Tournament,
)
from tournaments.prizes.payout import ENTRY_FEE_MAX, check_prize_config
from tournaments.services.archive.export import FORMAT, VERSION
from tournaments.services.teams import NAME_MAX as TEAM_NAME_MAX

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
MAX_INT = 2**31 - 1
MAX_ITEMS = 100_000
MAX_CLUBS = 1000


def _fail(path: str, message: str, **params: Any) -> EngineUserError:
    return EngineUserError([FieldError(path, message, params)])


def _obj(value: Any, path: str, keys: set[str], optional: set[str] = frozenset()) -> dict:
    if not isinstance(value, dict):
        raise _fail(path, _("Must be an object."))
    for key in value:
        if key not in keys and key not in optional:
            raise _fail(f"{path}.{key}".lstrip("."), _("Unknown field “%(name)s”."),
                        name=str(key)[:40])
    for key in keys:
        if key not in value:
            raise _fail(f"{path}.{key}".lstrip("."), _("This field is required."))
    return value


def _list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise _fail(path, _("Must be a list."))
    if len(value) > MAX_ITEMS:
        raise _fail(path, _("Too many entries."))
    return value


def _str(value: Any, path: str, max_length: int, *, blank: bool = True) -> str:
    if not isinstance(value, str) or len(value) > max_length or (not blank and not value.strip()):
        raise _fail(path, _("Must be a text of at most %(max)s characters."), max=max_length)
    return value


def _slug(value: Any, path: str, max_length: int) -> str:
    if not isinstance(value, str) or not SLUG.match(value) or len(value) > max_length:
        raise _fail(path, _("Must be a slug (letters, digits, “-”, “_”)."))
    return value


def _int(value: Any, path: str, low: int = 0, high: int = MAX_INT) -> int:
    if not is_int(value) or not low <= value <= high:
        raise _fail(path, _("Must be a whole number from %(min)s to %(max)s."), min=low, max=high)
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, _("Must be true or false."))
    return value


def _datetime(value: Any, path: str, *, null: bool = False) -> datetime.datetime | None:
    if value is None and null:
        return None
    parsed = None
    if isinstance(value, str) and len(value) <= 40:
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
    if parsed is None:
        raise _fail(path, _("Must be a date and time (ISO 8601)."))
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, datetime.UTC)
    return parsed


def _date(value: Any, path: str) -> datetime.date | None:
    if value is None:
        return None
    parsed = None
    if isinstance(value, str) and len(value) <= 10:
        try:
            parsed = parse_date(value)
        except ValueError:
            parsed = None
    if parsed is None:
        raise _fail(path, _("Must be a date (YYYY-MM-DD)."))
    return parsed


def _no_nul(value: Any, path: str = "") -> None:
    """PostgreSQL stores no NUL character, in text or in JSON: refuse it anywhere."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise _fail(where or "archive", _("Text must not contain NUL characters."))
        elif isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str) or "\x00" in key:
                    raise _fail(where or "archive", _("Text must not contain NUL characters."))
                stack.append((child, f"{where}.{key}".lstrip(".")))
        elif isinstance(item, list):
            stack.extend((child, f"{where}.{i}".lstrip(".")) for i, child in enumerate(item))
        elif isinstance(item, float) and item != item:  # NaN is no JSON
            raise _fail(where or "archive", _("Must be a number."))


def _prefixed(exc: EngineUserError, prefix: str) -> EngineUserError:
    return EngineUserError([FieldError(f"{prefix}.{e.field}" if e.field else prefix, e.message,
                                       e.params) for e in exc.errors])


def _read_clubs(data: Any) -> dict[str, dict]:
    clubs: dict[str, dict] = {}
    if len(_list(data, "clubs")) > MAX_CLUBS:
        raise _fail("clubs", _("At most %(max)s clubs."), max=MAX_CLUBS)
    for i, club in enumerate(data):
        path = f"clubs.{i}"
        _obj(club, path, {"slug", "name", "city"})
        slug = _slug(club["slug"], f"{path}.slug", 140)
        if slug in clubs:
            raise _fail(f"{path}.slug", _("The club “%(slug)s” is listed twice."), slug=slug)
        clubs[slug] = {"slug": slug, "name": _str(club["name"], f"{path}.name", 120, blank=False),
                       "city": _str(club["city"], f"{path}.city", 120)}
    return clubs


def _club_ref(value: Any, path: str, clubs: dict) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in clubs:
        raise _fail(path, _("Unknown club “%(slug)s”."), slug=str(value)[:40])
    return value


def _read_tournament(data: Any, clubs: dict) -> dict[str, Any]:
    fields = {"name", "slug", "game", "rules", "date", "status", "published", "avoid_same_club",
              "club_evening", "loss_fee_cents", "loss_fee_from", "loss_fee_high_cents", "club",
              "created_at"}
    t = _obj(data, "tournament", fields, {"rounds_planned", "team_size"})
    if not isinstance(t["rules"], dict):
        raise _fail("tournament.rules", _("The rules must be an object of options."))
    try:
        game = check_game(t["game"])
        get_engine(game).options(t["rules"])
    except EngineUserError as exc:
        raise _prefixed(exc, "tournament") from None
    if t["status"] not in Tournament.Status.values:
        raise _fail("tournament.status", _("Unknown status."))
    try:
        check_table_money({k: t[k] for k in ("loss_fee_cents", "loss_fee_from",
                                             "loss_fee_high_cents")})
    except EngineUserError as exc:
        raise _prefixed(exc, "tournament") from None
    return {
        "name": _str(t["name"], "tournament.name", 160, blank=False),
        "slug": _slug(t["slug"], "tournament.slug", 180), "game": game, "rules": t["rules"],
        "date": _date(t["date"], "tournament.date"), "status": t["status"],
        "published": _bool(t["published"], "tournament.published"),
        "avoid_same_club": _bool(t["avoid_same_club"], "tournament.avoid_same_club"),
        "club_evening": _bool(t["club_evening"], "tournament.club_evening"),
        "loss_fee_cents": t["loss_fee_cents"], "loss_fee_from": t["loss_fee_from"],
        "loss_fee_high_cents": t["loss_fee_high_cents"],
        "club": _club_ref(t["club"], "tournament.club", clubs),
        "created_at": _datetime(t["created_at"], "tournament.created_at"),
        "rounds_planned": (None if t.get("rounds_planned") is None else
                           _int(t["rounds_planned"], "tournament.rounds_planned",
                                MIN_ROUNDS_PLANNED, MAX_ROUNDS_PLANNED)),
        "team_size": _int(t.get("team_size", TEAM_SIZE_DEFAULT), "tournament.team_size",
                          MIN_TEAM_SIZE, MAX_TEAM_SIZE),
    }


def _read_participants(data: Any, clubs: dict) -> dict[int, dict]:
    out: dict[int, dict] = {}
    members: set[tuple[str, str]] = set()
    for i, p in enumerate(_list(data, "participants")):
        path = f"participants.{i}"
        _obj(p, path, {"start_number", "checked_in", "withdrawn", "player"}, {"registered_at"})
        number = _int(p["start_number"], f"{path}.start_number", 1, 100_000)
        if number in out:
            raise _fail(f"{path}.start_number", _("Start number %(number)s is given twice."),
                        number=number)
        player = _obj(p["player"], f"{path}.player", {"name", "member_number", "club"})
        club = _club_ref(player["club"], f"{path}.player.club", clubs)
        member = _str(player["member_number"], f"{path}.player.member_number", 40)
        if member and club:
            if (club, member) in members:
                raise _fail(f"{path}.player.member_number",
                            _("Member number %(number)s of this club is given twice."),
                            number=member)
            members.add((club, member))
        out[number] = {
            "start_number": number, "checked_in": _bool(p["checked_in"], f"{path}.checked_in"),
            "withdrawn": _bool(p["withdrawn"], f"{path}.withdrawn"),
            "name": _str(player["name"], f"{path}.player.name", 120, blank=False),
            "member_number": member, "club": club,
            "registered_at": _datetime(p.get("registered_at"), f"{path}.registered_at",
                                       null=True)}
    return out


def _read_event(e: Any, path: str) -> dict[str, Any]:
    _obj(e, path, {"at", "user", "by_table", "ip", "action", "deal_number", "before", "after"})
    if e["action"] not in SheetEvent.Action.values:
        raise _fail(f"{path}.action", _("Unknown action."))
    if e["user"] is not None:
        _str(e["user"], f"{path}.user", 150, blank=False)
    if e["ip"] is not None:
        try:
            ipaddress.ip_address(_str(e["ip"], f"{path}.ip", 45))
        except ValueError:
            raise _fail(f"{path}.ip", _("Must be an IP address.")) from None
    if e["deal_number"] is not None:
        _int(e["deal_number"], f"{path}.deal_number", 1, 100_000)
    return {"at": _datetime(e["at"], f"{path}.at"), "user": e["user"],
            "by_table": _bool(e["by_table"], f"{path}.by_table"), "ip": e["ip"],
            "action": e["action"], "deal_number": e["deal_number"], "before": e["before"],
            "after": e["after"]}


def _read_table(t: Any, path: str, game: str, rules: dict, participants: dict,
                seated: set[int]) -> dict[str, Any]:
    _obj(t, path, {"number", "submitted", "submitted_at", "summary", "version", "seats",
                   "deals", "events"}, optional={"shortened", "end_reason"})
    end_reason = t.get("end_reason", "")
    if not isinstance(end_reason, str) or len(end_reason) > 200:
        raise _fail(f"{path}.end_reason", _("Must be a text of at most 200 characters."))
    engine = get_engine(game)
    seats = []
    for i, s in enumerate(_list(t["seats"], f"{path}.seats")):
        where = f"{path}.seats.{i}"
        _obj(s, where, {"seat", "participant", "score", "figures"})
        if _int(s["seat"], f"{where}.seat", 1, 100) != i + 1:
            raise _fail(f"{where}.seat", _("Seats are numbered 1, 2, … in order."))
        number = s["participant"]
        if not is_int(number) or number not in participants:
            raise _fail(f"{where}.participant", _("Unknown start number."))
        if number in seated:
            raise _fail(f"{where}.participant",
                        _("Start number %(number)s is seated twice in this round."),
                        number=number)
        seated.add(number)
        if not isinstance(s["figures"], dict):
            raise _fail(f"{where}.figures", _("Must be an object."))
        seats.append({"seat": i + 1, "participant": number, "figures": s["figures"]})
    players = len(seats)
    try:
        engine.check_table(players, rules)
    except EngineUserError:
        raise _fail(f"{path}.seats", _("This game is not played at tables of %(n)s."),
                    n=players) from None
    summary = t["summary"]
    deals_in = _list(t["deals"], f"{path}.deals")
    totals = None
    deals: list[dict[str, Any]] = []
    if summary is not None:
        if deals_in:
            raise _fail(f"{path}.deals", _("A sheet entered as a summary has no deals."))
        try:
            totals = engine.summary_totals(summary, players, rules)
        except EngineUserError as exc:
            raise _prefixed(exc, f"{path}.summary") from None
    else:
        previous: list[dict[str, Any]] = []
        for i, d in enumerate(deals_in):
            if engine.sheet_room(previous, players, rules) == 0:
                length = engine.sheet_length(players, rules)
                raise _fail(f"{path}.deals", _("A sheet has at most %(length)s deals."),
                            length=max(length, len(previous)))
            where = f"{path}.deals.{i}"
            _obj(d, where, {"number", "record", "scores", "extra", "version", "created_at",
                            "updated_at"})
            if _int(d["number"], f"{where}.number", 1, 100_000) != i + 1:
                raise _fail(f"{where}.number", _("Deals are numbered 1, 2, … in order."))
            ctx = DealContext(number=i + 1, players=players, rules=rules,
                              previous=tuple(previous))
            try:
                scored = engine.score_deal(engine.validate_deal(d["record"], ctx), ctx)
            except EngineUserError as exc:
                raise _prefixed(exc, f"{where}.record") from None
            previous.append(scored.record)
            deals.append({"number": i + 1, "scored": scored,
                          "version": _int(d["version"], f"{where}.version", 1),
                          "created_at": _datetime(d["created_at"], f"{where}.created_at"),
                          "updated_at": _datetime(d["updated_at"], f"{where}.updated_at")})
        if deals:
            totals = engine.sheet_totals([d["scored"] for d in deals], players, rules)
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
    return {
        "number": _int(t["number"], f"{path}.number", 1, 10_000),
        "submitted": _bool(t["submitted"], f"{path}.submitted"),
        "submitted_at": _datetime(t["submitted_at"], f"{path}.submitted_at", null=True),
        "summary": summary, "version": _int(t["version"], f"{path}.version"),
        "shortened": _bool(t.get("shortened", False), f"{path}.shortened"),
        "end_reason": end_reason,
        "seats": seats, "deals": deals,
        "events": [_read_event(e, f"{path}.events.{i}")
                   for i, e in enumerate(_list(t["events"], f"{path}.events"))],
    }


def _read_rounds(data: Any, game: str, rules: dict, participants: dict) -> list[dict]:
    rounds: list[dict] = []
    for i, r in enumerate(_list(data, "rounds")):
        path = f"rounds.{i}"
        _obj(r, path, {"number", "method", "seed", "closed", "created_at", "tables"},
             optional={"reopened"})
        if _int(r["number"], f"{path}.number", 1, MAX_ROUND) != i + 1:
            raise _fail(f"{path}.number", _("Rounds are numbered 1, 2, … in order."))
        if r["method"] not in Round.Method.values:
            raise _fail(f"{path}.method", _("Unknown seating method."))
        seated: set[int] = set()
        tables = [_read_table(t, f"{path}.tables.{j}", game, rules, participants, seated)
                  for j, t in enumerate(_list(r["tables"], f"{path}.tables"))]
        if len({t["number"] for t in tables}) != len(tables):
            raise _fail(f"{path}.tables", _("Table numbers must differ."))
        rounds.append({"number": i + 1, "method": r["method"],
                       "seed": _int(r["seed"], f"{path}.seed", 0, 2**63 - 1),
                       "closed": _bool(r["closed"], f"{path}.closed"),
                       "reopened": _bool(r.get("reopened", False), f"{path}.reopened"),
                       "created_at": _datetime(r["created_at"], f"{path}.created_at"),
                       "tables": tables})
    return rounds


def _read_teams(data: Any, participants: dict, team_size: int) -> list[dict]:
    out: list[dict] = []
    names: set[str] = set()
    placed: set[int] = set()
    for i, team in enumerate(_list(data, "teams")):
        path = f"teams.{i}"
        _obj(team, path, {"name", "members"})
        name = _str(team["name"], f"{path}.name", TEAM_NAME_MAX, blank=False)
        if name.casefold() in names:
            raise _fail(f"{path}.name", _("Another team of this tournament has this name."))
        names.add(name.casefold())
        members = _list(team["members"], f"{path}.members")
        if len(members) > team_size:
            raise _fail(f"{path}.members", _("A team has at most %(size)s members in this "
                                             "tournament."), size=team_size)
        for j, number in enumerate(members):
            if not is_int(number) or number not in participants or number in placed:
                raise _fail(f"{path}.members.{j}",
                            _("Not a participant of this tournament, or in two teams."))
            placed.add(number)
        out.append({"name": name, "members": list(members)})
    return out


def _read_prizes(data: Any, participants: dict) -> dict | None:
    if data is None:
        return None
    _obj(data, "prizes", {"config", "lot", "fee_events"})
    try:
        config = check_prize_config(data["config"])
    except EngineUserError as exc:
        raise _prefixed(exc, "prizes.config") from None
    lot = data["lot"]
    if lot is not None:
        for j, number in enumerate(_list(lot, "prizes.lot")):
            if not is_int(number) or number not in participants:
                raise _fail(f"prizes.lot.{j}", _("Not a participant of this tournament."))
    events = []
    for j, event in enumerate(_list(data["fee_events"], "prizes.fee_events")):
        path = f"prizes.fee_events.{j}"
        _obj(event, path, {"at", "entry_fee_cents"})
        events.append({"at": _datetime(event["at"], f"{path}.at"),
                       "entry_fee_cents": _int(event["entry_fee_cents"],
                                               f"{path}.entry_fee_cents", 0, ENTRY_FEE_MAX)})
    return {"config": config.as_dict(), "lot": lot, "fee_events": events}


def archive_read(data: Any) -> dict[str, Any]:
    """Check an archive completely; return it as plain values ready to store. ``teams``
    and ``prizes`` (and the tournament's ``rounds_planned`` and ``team_size``) may be
    absent: archives written before them hold none."""
    _obj(data, "", {"format", "version", "tournament", "clubs", "participants", "rounds",
                    "standings"}, {"teams", "prizes"})
    if data["format"] != FORMAT:
        raise _fail("format", _("Not a Stichliste tournament archive."))
    if data["version"] != VERSION or not is_int(data["version"]):
        raise _fail("version", _("Unknown archive version."))
    _no_nul(data)
    _list(data["standings"], "standings")
    clubs = _read_clubs(data["clubs"])
    tournament = _read_tournament(data["tournament"], clubs)
    rules = get_engine(tournament["game"]).options(tournament["rules"])
    participants = _read_participants(data["participants"], clubs)
    rounds = _read_rounds(data["rounds"], tournament["game"], rules, participants)
    return {"clubs": clubs, "tournament": tournament, "participants": participants,
            "rounds": rounds,
            "teams": _read_teams(data.get("teams", []), participants, tournament["team_size"]),
            "prizes": _read_prizes(data.get("prizes"), participants)}
