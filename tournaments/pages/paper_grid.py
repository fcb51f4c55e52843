"""A whole paper sheet of deals typed in from the console, one row per deal, any game.

Each game's row has the fields of its deal record as labelled inputs (seats by name,
games and trumps by their names, numbers with their bounds); a row left empty ends the
list. The rows go to ``deals_record`` together: the engine checks each in its place, and
nothing is stored while any row is refused — the errors are shown at their row and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engines import DealContext, EngineUserError, get_engine
from games.messages import render as error_text
from tournaments.errors import StateConflict
from tournaments.models import Table
from tournaments.pages.access import allowed_if, staff_actor, table_by_pk
from tournaments.policies import directs_table
from tournaments.selectors import table_state
from tournaments.services import deals_record

YES_NO = [("true", gettext_lazy("won")), ("false", gettext_lazy("lost"))]
SKAT_GAMES = [("clubs", pgettext_lazy("card suit", "clubs")), ("spades", gettext_lazy("spades")),
              ("hearts", gettext_lazy("hearts")), ("diamonds", gettext_lazy("diamonds")),
              ("grand", gettext_lazy("Grand")), ("null", gettext_lazy("Null"))]
SCHAFKOPF_GAMES = [("passed", gettext_lazy("passed")), ("rufspiel", gettext_lazy("Rufspiel")),
                   ("wenz", gettext_lazy("Wenz")), ("solo", gettext_lazy("Solo")),
                   ("wenz_tout", gettext_lazy("Wenz Tout")),
                   ("solo_tout", gettext_lazy("Solo Tout")), ("sie", gettext_lazy("Sie"))]
SCHAFKOPF_SUITS = [("acorns", gettext_lazy("Acorns")), ("leaves", gettext_lazy("Leaves")),
                   ("hearts", gettext_lazy("Hearts")), ("bells", gettext_lazy("Bells"))]
ACES = [c for c in SCHAFKOPF_SUITS if c[0] != "hearts"]
COLOURS = [("red", gettext_lazy("red")), ("yellow", gettext_lazy("yellow")),
           ("green", gettext_lazy("green")), ("blue", gettext_lazy("blue"))]
FRENCH = [("all", gettext_lazy("all trumps")), ("spades", gettext_lazy("spades")),
          ("hearts", gettext_lazy("hearts")), ("diamonds", gettext_lazy("diamonds")),
          ("clubs", pgettext_lazy("card suit", "clubs")), ("none", gettext_lazy("no trump"))]
PREFERENCE = [("marked", gettext_lazy("marked")), ("simple", gettext_lazy("simple"))]
TEAMS = [("A", "A"), ("B", "B")]
RANKS = [("king", gettext_lazy("kings")), ("ober", gettext_lazy("Ober")),
         ("seven", gettext_lazy("sevens")), ("two", gettext_lazy("twos")),
         ("unter", gettext_lazy("Unter")), ("banner", gettext_lazy("banners"))]
SETS = [("3", "3"), ("4", "4")]
BASLER_SLOTS = 3


@dataclass(frozen=True)
class Field:
    """One input of a row: ``kind`` is seat, choice, int, bool or per_seat (one number per
    seat); ``choices`` are (value, label) pairs."""

    name: str
    label: Any
    kind: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None


def _fields(game: str, players: int) -> list[Field]:
    if game == "skat":
        return [Field("passed", gettext_lazy("passed"), "bool"),
                Field("declarer", gettext_lazy("Declarer"), "seat"),
                Field("game", gettext_lazy("Game"), "choice", tuple(SKAT_GAMES)),
                Field("matadors", gettext_lazy("with / without (−)"), "int", low=-11, high=11),
                Field("hand", gettext_lazy("hand"), "bool"),
                Field("schneider", gettext_lazy("Schneider"), "bool"),
                Field("schwarz", gettext_lazy("Schwarz"), "bool"),
                Field("schneider_announced", gettext_lazy("Schneider announced"), "bool"),
                Field("schwarz_announced", gettext_lazy("Schwarz announced"), "bool"),
                Field("ouvert", gettext_lazy("ouvert"), "bool"),
                Field("won", gettext_lazy("Result"), "choice", tuple(YES_NO))]
    if game == "schafkopf":
        return [Field("game", gettext_lazy("Game"), "choice", tuple(SCHAFKOPF_GAMES)),
                Field("declarer", gettext_lazy("Declarer"), "seat"),
                Field("partner", gettext_lazy("Partner"), "seat"),
                Field("called_ace", gettext_lazy("Called ace"), "choice", tuple(ACES)),
                Field("suit", gettext_lazy("Solo suit"), "choice", tuple(SCHAFKOPF_SUITS)),
                Field("declarer_points", gettext_lazy("Points"), "int", low=0, high=120),
                Field("schwarz", gettext_lazy("Schwarz"), "bool"),
                Field("laufende", gettext_lazy("Laufende"), "int", low=0, high=14),
                Field("doublings", gettext_lazy("Doublings"), "int", low=0, high=4)]
    if game in ("baptistenskat", "labatarde"):
        fields = [Field("trump", gettext_lazy("Trump"), "choice",
                        tuple(COLOURS if game == "baptistenskat" else FRENCH))]
        if game == "labatarde" and players > 4:
            fields.append(Field("preference", gettext_lazy("Preference"), "choice",
                                tuple(PREFERENCE)))
        fields += [Field("bids", gettext_lazy("Bids"), "per_seat", low=0, high=99),
                   Field("tricks", gettext_lazy("Tricks"), "per_seat", low=0, high=99)]
        if game == "labatarde":
            fields += [Field("mechoune", gettext_lazy("méchoune by"), "seat"),
                       Field("choune", gettext_lazy("choune"), "bool")]
        return fields
    fields = [Field("tricks_a", gettext_lazy("Tricks A"), "int", low=0, high=12),
              Field("tricks_b", gettext_lazy("Tricks B"), "int", low=0, high=12),
              Field("last_trick", gettext_lazy("Last trick"), "choice", tuple(TEAMS)),
              Field("points_a", gettext_lazy("Card points A"), "int", low=0, high=40),
              Field("points_b", gettext_lazy("Card points B"), "int", low=0, high=40)]
    for i in range(BASLER_SLOTS):
        fields += [Field(f"meld{i}_seat", gettext_lazy("Meld: player"), "seat"),
                   Field(f"meld{i}_rank", gettext_lazy("rank"), "choice", tuple(RANKS)),
                   Field(f"meld{i}_count", gettext_lazy("count"), "choice", tuple(SETS))]
    for i in range(BASLER_SLOTS):
        fields += [Field(f"cap{i}_team", gettext_lazy("Set in tricks: team"), "choice",
                         tuple(TEAMS)),
                   Field(f"cap{i}_rank", gettext_lazy("rank"), "choice", tuple(RANKS)),
                   Field(f"cap{i}_count", gettext_lazy("count"), "choice", tuple(SETS))]
    return fields


def _number(raw: str) -> Any:
    """A typed number, or the text itself so that the engine names it as not a number."""
    raw = raw.strip()
    try:
        return int(raw)
    except ValueError:
        return raw


class Row:
    """One deal's inputs as posted (``d<row>-<field>``, ``d<row>-<field>-<seat>``)."""

    def __init__(self, index: int, number: int, data, fields: list[Field], seats: list[int]):
        self.index, self.number, self.fields, self.seats = index, number, fields, seats
        self.values: dict[str, Any] = {}
        for f in fields:
            if f.kind == "per_seat":
                self.values[f.name] = [data.get(f"d{index}-{f.name}-{s}", "") for s in seats]
            elif f.kind == "bool":
                self.values[f.name] = data.get(f"d{index}-{f.name}") == "on"
            else:
                self.values[f.name] = data.get(f"d{index}-{f.name}", "")
        self.errors: dict[str, list[str]] = {}
        self.cards: int | None = None

    def empty(self) -> bool:
        return not any(v for v in self.values.values()
                       if not isinstance(v, list)) and not any(
            x.strip() for v in self.values.values() if isinstance(v, list) for x in v)

    def _value(self, name: str) -> Any:
        raw = self.values.get(name, "")
        return _number(raw) if raw != "" else None

    def record(self, game: str) -> dict[str, Any]:
        v = self.values
        if game == "skat":
            if v["passed"]:
                return {"passed": True}
            record: dict[str, Any] = {"declarer": self._value("declarer"), "game": v["game"]}
            if v["game"] != "null" and v["matadors"] != "":
                record["matadors"] = _number(v["matadors"])
            for flag in ("hand", "schneider", "schwarz", "schneider_announced",
                         "schwarz_announced", "ouvert"):
                if v[flag]:
                    record[flag] = True
            if v["won"]:
                record["won"] = v["won"] == "true"
            return record
        if game == "schafkopf":
            if v["game"] == "passed":
                return {"game": "passed"}
            record = {"game": v["game"], "declarer": self._value("declarer")}
            for name in ("partner", "declarer_points", "laufende", "doublings"):
                if v[name] != "":
                    record[name] = _number(v[name])
            for name in ("called_ace", "suit"):
                if v[name]:
                    record[name] = v[name]
            if v["schwarz"]:
                record["schwarz"] = True
            return record
        if game in ("baptistenskat", "labatarde"):
            record = {"cards": self.cards, "trump": v["trump"],
                      "bids": [_number(x) if x.strip() else None for x in v["bids"]],
                      "tricks": [_number(x) if x.strip() else None for x in v["tricks"]]}
            if game == "labatarde":
                record["mechoune"] = self._value("mechoune")
                record["choune"] = v["choune"]
                if "preference" in v:
                    record["preference"] = v["preference"] or None
            return record
        record = {"tricks": [self._value("tricks_a"), self._value("tricks_b")],
                  "last_trick": v["last_trick"],
                  "card_points": [self._value("points_a"), self._value("points_b")],
                  "melds": [], "captured": []}
        for i in range(BASLER_SLOTS):
            if v[f"meld{i}_seat"] or v[f"meld{i}_rank"]:
                record["melds"].append({"seat": self._value(f"meld{i}_seat"),
                                        "rank": v[f"meld{i}_rank"],
                                        "count": self._value(f"meld{i}_count")})
            if v[f"cap{i}_team"] or v[f"cap{i}_rank"]:
                record["captured"].append({"team": v[f"cap{i}_team"],
                                           "rank": v[f"cap{i}_rank"],
                                           "count": self._value(f"cap{i}_count")})
        return record

    def add_error(self, path: str, message: str) -> None:
        """Put an engine error at its input: ``bids.2`` → the bids of the third seat,
        ``melds.0.rank`` → the first meld's rank, else the row as a whole."""
        parts = path.split(".")
        name = parts[0]
        if name in ("tricks", "card_points") and "tricks_a" in self.values:
            name = {"tricks": "tricks_a", "card_points": "points_a"}[name]
            if len(parts) > 1 and parts[1] == "1":
                name = name[:-1] + "b"
        elif name in ("melds", "captured") and len(parts) > 2 and parts[1].isdigit():
            prefix = "meld" if name == "melds" else "cap"
            name = f"{prefix}{parts[1]}_{parts[2]}"
        if name not in self.values:
            name = "deal"
        self.errors.setdefault(name, []).append(message)

    def cells(self):
        """The inputs for the template: (field, value, errors) in order."""
        return [(f, self.values.get(f.name), self.errors.get(f.name, [])) for f in self.fields]


def _rows(state: dict[str, Any], data) -> list[Row]:
    engine = get_engine(state["game"])
    players = len(state["seats"])
    fields = _fields(state["game"], players)
    seats = [s["seat"] for s in state["seats"]]
    first = state["deal_count"] + 1
    rows = []
    for index, number in enumerate(range(first, state["sheet_length"] + 1)):
        row = Row(index, number, data, fields, seats)
        hints = engine.deal_hints(DealContext(number, players, state["rules"]))
        row.cards = hints.get("cards")
        row.dealer = next((s["name"] for s in state["seats"] if s["seat"] == hints["dealer"]),
                          "")
        rows.append(row)
    return rows


@staff_member_required
@allowed_if(directs_table, table_by_pk)
def paper_grid_page(request, table: Table, table_id: int):
    state = table_state(table)
    rows = _rows(state, request.POST if request.method == "POST" else {})
    problem = None
    if request.method == "POST":
        filled = []
        for row in rows:
            if row.empty():
                break
            filled.append(row)
        try:
            actor = staff_actor(request)
            deals_record(table_id=table.pk, records=[r.record(state["game"]) for r in filled],
                         actor=actor)
        except EngineUserError as exc:
            for error in exc.errors:
                if error.deal is not None and error.deal < len(filled):
                    filled[error.deal].add_error(error.field, error_text(error))
                else:
                    problem = error_text(error)
            problem = problem or _("Nothing was stored: correct the marked deals.")
        except StateConflict as exc:
            problem = exc.render(_)
        else:
            messages.success(request, _("%(count)s deals of table %(number)s are entered.")
                             % {"count": len(filled), "number": table.number})
            return redirect("console:tournament", table.round.tournament_id)
    return render(request, "console/paper_grid.html", {
        "table": table, "state": state, "rows": rows, "problem": problem,
        "fields": rows[0].fields if rows else [],
    }, status=400 if problem else 200)
