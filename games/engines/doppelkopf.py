"""Doppelkopf (``doppelkopf``) after the DDV's Turnier-Spielregeln: checks and scoring per
spec games.md §8.

Terms:

- Re, Kontra: the two parties. ``re`` lists the Re seats; Kontra is every other active seat.
  In a solo-scored game Re is the soloist alone.
- R, K: the Augen (card points, 240 in the deck) of Re and Kontra; K = 240 − R.
- level: a party's highest announcement (none < Ansage < no90 < no60 < no30 < schwarz);
  its *stages* are its Absagen (level − 1, at least 0).
- normal-scored: ``normal``, ``armut`` and a ``hochzeit`` with partner (±v per seat,
  Sonderpunkte count); solo-scored: every solo, a Hochzeit that became a solo and a stille
  Hochzeit (soloist ±3v).
- normal column: every game the list notes as normal (everything but Pflichtsoli,
  ``annulled`` and ``time_up``); a round is ``round_deals − n`` of them plus one Pflichtsolo
  per seat (§8.1).
- Pflichtsolo: a seat's first solo of the round (§8.2); vorgeführt (``forced``) when the
  round leaves no other choice (§8.1 Vorführung).
- v: the signed game value from Re's view (§8.4 step 5).

The dealer and the sheet order depend on the earlier deals, so the checks of §8.5 no. 9 run
when the caller gives them (``DealContext.previous``; ``score_sheet`` always does). Without
them a deal is checked on its own, the dealer is the common rule's and ``compulsory`` and
``forced`` are false.

Where the rule book leaves a choice this module decides: ``solos`` in the totals counts
every solo-scored game a seat played as soloist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import (
    Choice,
    DealContext,
    Engine,
    EngineInternalError,
    EngineUserError,
    Errors,
    FieldError,
    LeaguePlay,
    Option,
    Part,
    RecordField,
    ScoredDeal,
    SheetResult,
    When,
    _,
    check_keys,
    is_int,
    register,
    unknown_fields,
)

NORMAL = "normal"
HOCHZEIT = "hochzeit"
STILLE = "stille_hochzeit"
ARMUT = "armut"
ANNULLED = "annulled"
TIME_UP = "time_up"
SOLOS = ("solo_kreuz", "solo_pik", "solo_herz", "solo_karo", "solo_damen", "solo_buben",
         "solo_fleischlos", "solo")
GAMES = (NORMAL, HOCHZEIT, STILLE) + SOLOS + (ARMUT, ANNULLED, TIME_UP)
PLAYED = (NORMAL, HOCHZEIT, STILLE, ARMUT) + SOLOS

PARTIES = ("re", "kontra")
RE_LEVELS = (None, "re", "no90", "no60", "no30", "schwarz")
KONTRA_LEVELS = (None, "kontra", "no90", "no60", "no30", "schwarz")
LEVELS = {"re": RE_LEVELS, "kontra": KONTRA_LEVELS}
# the other party stays under these Augen for the Absage stages 1..3 (stage 4: no trick)
UNDER = (90, 60, 30)
# what a party reaches against the other's Absage stages 1..4 for an (e)/(f) point
AGAINST = (120, 90, 60, 30)
TOTAL = 240
EXTRA_KEYS = ("fuchs", "doppelkopf", "karlchen")
EXTRA_MAX = {"fuchs": 2, "doppelkopf": 4}
EXTRA_AUGEN = {"fuchs": 11, "doppelkopf": 40}
NO_NINES_TRICK = 8  # without nines every trick holds at least 8 Augen
PENALTY_KINDS = ("minor", "serious", "deduction")
MINOR, SERIOUS, DEDUCTION = PENALTY_KINDS
MINOR_POINTS = 3
SERIOUS_BASE, SERIOUS_PER_ABSAGE, SERIOUS_OTHERS = 12, 3, 4
MAX_ABSAGEN = 4
MAX_DEDUCTION = 12
FIELDS = ("game", "re", "re_points", "schwarz", "announcements", "extras", "winner", "value",
          "penalties")
RESULT_FIELDS = ("re_points", "schwarz", "announcements", "extras", "winner", "value")
PENALTY_FIELDS = ("seat", "kind", "to_soloist", "absagen", "points")
WINNERS = ("re", "kontra", "none")
SONDERPUNKTE = ("fuchs", "doppelkopf", "karlchen", "gegen_die_alten")


def _bool_option(label_en: str, label_de: str, help_en: str, help_de: str) -> Option:
    return Option(True, "bool", label_en=label_en, label_de=label_de, help_en=help_en,
                  help_de=help_de)


def _round_option(players: int, default: int) -> Option:
    """Games per round at a table of ``players``: a multiple of it from 2× to 12×."""
    low, high = 2 * players, 12 * players
    return Option(
        default, "int", min=low, max=high,
        choices=tuple(Choice(n, f"{n} games", f"{n} Spiele")
                      for n in range(low, high + 1, players)),
        label_en=f"Games per round ({players}-table)",
        label_de=f"Spiele pro Runde ({players}er-Tisch)",
        help_en=f"Games in a round at a {players}-table: a multiple of {players} from "
                f"{low} to {high} (TSR: {default}).",
        help_de=f"Spiele einer Runde am {players}er-Tisch: ein Vielfaches von {players} "
                f"von {low} bis {high} (TSR: {default}).")


OPTIONS = {
    "nines": _bool_option(
        "With nines", "Mit Neunen",
        "48 cards with the nines (the TSR); off: 40 cards without nines (house rule).",
        "48 Karten mit den Neunen (TSR); aus: 40 Karten ohne Neunen (Hausregel)."),
    "round_deals_4": _round_option(4, 24),
    "round_deals_5": _round_option(5, 30),
    "compulsory_solos": _bool_option(
        "Compulsory solos", "Pflichtsoli",
        "Every player plays one compulsory solo per round (TSR); off: no Pflichtsoli and "
        "no Vorführung.",
        "Jeder Spieler spielt ein Pflichtsolo pro Runde (TSR); aus: keine Pflichtsoli und "
        "keine Vorführung."),
    "fuchs": _bool_option("Fuchs", "Fuchs", "A caught Karo-Ass scores a Sonderpunkt.",
                          "Ein gefangenes Karo-Ass zählt einen Sonderpunkt."),
    "doppelkopf": _bool_option("Doppelkopf", "Doppelkopf",
                               "A trick of 40 or more Augen scores a Sonderpunkt.",
                               "Ein Stich mit 40 oder mehr Augen zählt einen Sonderpunkt."),
    "karlchen": _bool_option("Karlchen", "Karlchen",
                             "The Kreuz-Bube taking the last trick scores a Sonderpunkt.",
                             "Der Kreuz-Bube im letzten Stich zählt einen Sonderpunkt."),
    "gegen_die_alten": _bool_option(
        "Against the Kreuz-Damen", "Gegen die Alten",
        "Kontra winning a normal game scores a Sonderpunkt.",
        "Gewinnt Kontra ein Normalspiel, zählt das einen Sonderpunkt."),
    "re_kontra": Option(
        "plus2", "str", label_en="Re and Kontra", label_de="Re und Kontra",
        choices=(Choice("plus2", "2 points each (TSR)", "je 2 Punkte (TSR)"),
                 Choice("double", "each doubles the value (house rule)",
                        "verdoppeln jeweils den Wert (Hausregel)")),
        help_en="What announcing Re or Kontra is worth.",
        help_de="Was die Ansage Re oder Kontra zählt."),
    "armut": Option(False, "bool", label_en="Armut", label_de="Armut",
                    help_en="Allows the Armut (not in the TSR), scored as a normal game.",
                    help_de="Erlaubt die Armut (nicht in der TSR), gewertet wie ein "
                            "Normalspiel."),
}

GAME_LABELS = (_("Normal game"), _("Hochzeit"), _("Silent Hochzeit"), _("Kreuz solo"),
               _("Pik solo"), _("Herz solo"), _("Karo solo"), _("Damen solo"),
               _("Buben solo"), _("Fleischloser"), _("Solo"), _("Armut"), _("Annulled"),
               _("Time up"))
_EXTRA_FIELDS = (
    RecordField("fuchs", "int", "Karo-Asse of the other party caught.", low=0, high=2,
                label=_("Fuchs")),
    RecordField("doppelkopf", "int", "Tricks of 40 or more Augen.", low=0, high=4,
                label=_("Doppelkopf")),
    RecordField("karlchen", "bool", "The Kreuz-Bube took the last trick.",
                label=_("Karlchen")),
)
_RESULT = When(field="game", values=PLAYED)
# the games whose Sonderpunkte count (a Hochzeit without partner is a solo: refused then)
_NORMAL_SCORED = When(field="game", values=(NORMAL, HOCHZEIT, ARMUT))
RECORD = (
    RecordField("game", "enum", "The game played (games.md 8.2).", values=GAMES,
                required=True, label=_("Game"), choice_labels=GAME_LABELS),
    RecordField("re", "ints", "The Re party's seats (Hochzeiter first; the soloist alone).",
                low=1, high=5, min_items=1, max_items=2, label=_("Re party"), widget="seats",
                items=(("1", _("Re seat (soloist, Hochzeiter)")), ("2", _("Re partner seat"))),
                applies=_RESULT),
    RecordField("re_points", "int", "Augen in the Re party's tricks.", low=0, high=TOTAL,
                label=_("Re Augen"), applies=_RESULT),
    RecordField("schwarz", "enum", "The party that took no trick.", values=PARTIES,
                nullable=True, label=_("Schwarz"), choice_labels=(_("Re"), _("Kontra")),
                applies=_RESULT),
    RecordField("announcements", "object", "Each party's highest announcement.",
                label=_("Announcements"), applies=_RESULT, fields=(
                    RecordField("re", "enum", "The Re party's level.",
                                values=RE_LEVELS[1:], nullable=True, label=_("Re")),
                    RecordField("kontra", "enum", "The Kontra party's level.",
                                values=KONTRA_LEVELS[1:], nullable=True,
                                label=_("Kontra")))),
    RecordField("extras", "object", "Sonderpunkte each party earned (normal-scored games).",
                label=_("Sonderpunkte"), applies=_NORMAL_SCORED, fields=(
                    RecordField("re", "object", "The Re party's Sonderpunkte.",
                                label=_("Re"), fields=_EXTRA_FIELDS),
                    RecordField("kontra", "object", "The Kontra party's Sonderpunkte.",
                                label=_("Kontra"), fields=_EXTRA_FIELDS))),
    RecordField("winner", "enum", "Cross-check of the derived winner.", values=WINNERS,
                label=_("Winner"), choice_labels=(_("Re"), _("Kontra"), _("No winner")),
                applies=_RESULT),
    RecordField("value", "int", "The signed game value from the Re party's view.",
                label=_("Game value"), applies=_RESULT),
    RecordField("penalties", "objects", "Penalty points (games.md 8.7).", max_items=8,
                label=_("Penalties"), slots=2, slot_label=_("Penalty %(number)s"),
                fields=(
                    RecordField("seat", "seat", "The offender.", label=_("Seat")),
                    RecordField("kind", "enum", "The kind of violation.",
                                values=PENALTY_KINDS, label=_("Kind"),
                                choice_labels=(_("Minor violation"),
                                               _("Serious violation"), _("Deduction"))),
                    RecordField("to_soloist", "bool", "Minor: the points go to the soloist.",
                                label=_("To the soloist"), optional=True,
                                applies=When(field="kind", values=(MINOR,))),
                    RecordField("absagen", "int", "Serious: Absage stages (games.md 8.7).",
                                low=0, high=MAX_ABSAGEN, label=_("Absagen"), optional=True,
                                applies=When(field="kind", values=(SERIOUS,))),
                    RecordField("points", "int", "Deduction: the points.", low=1,
                                high=MAX_DEDUCTION, label=_("Penalty points"), optional=True,
                                applies=When(field="kind", values=(DEDUCTION,))))),
)

_MISSING = object()
# sets for the hot path's look-ups of a record's (validated, so hashable) game
_SOLOS, _PLAYED = frozenset(SOLOS), frozenset(PLAYED)
_OPTIONAL_FIELDS = FIELDS[1:]
_SCHWARZ = (None, *PARTIES)
_FUCHS_MAX, _DOPPELKOPF_MAX = EXTRA_MAX["fuchs"], EXTRA_MAX["doppelkopf"]
_FUCHS_AUGEN, _DOPPELKOPF_AUGEN = EXTRA_AUGEN["fuchs"], EXTRA_AUGEN["doppelkopf"]
_LEVEL_CHOICES = {party: ", ".join(str(v) for v in levels[1:])
                  for party, levels in LEVELS.items()}


# --------------------------------------------------------------------------- the rules


def is_solo_scored(record: dict[str, Any]) -> bool:
    game = record["game"]  # a record's game is one of GAMES: a set finds it at once
    return game in _SOLOS or game == STILLE or (game == HOCHZEIT and len(record["re"]) == 1)


_LEVEL_INDEX = {party: {name: i for i, name in enumerate(levels)}
                for party, levels in LEVELS.items()}


_RE_INDEX, _KONTRA_INDEX = _LEVEL_INDEX["re"], _LEVEL_INDEX["kontra"]


def level(record: dict[str, Any], party: str) -> int:
    """The party's announcement level 0..5."""
    return _LEVEL_INDEX[party][(record.get("announcements") or {}).get(party)]


def _augen(record: dict[str, Any], party: str) -> int:
    return record["re_points"] if party == "re" else TOTAL - record["re_points"]


def game_value(record: dict[str, Any], rules: dict[str, Any]) -> tuple[int, str]:
    """(v, winner) of a full record (games.md 8.4 steps 2–5). A party's *stages* are its
    Absagen (level − 1, at least 0); it has *met* its Absage when the other party stays
    under the stage's Augen (or takes no trick). This is the engine bench's hot path, so
    each party's figures are plain locals (``re_…``, ``ko_…``) rather than dicts keyed by
    party, and nothing is computed twice."""
    given = record.get("announcements") or {}
    re_level = _RE_INDEX[given.get("re")]
    ko_level = _KONTRA_INDEX[given.get("kontra")]
    re_stages = re_level - 1 if re_level > 1 else 0
    ko_stages = ko_level - 1 if ko_level > 1 else 0
    re_augen = record["re_points"]
    ko_augen = TOTAL - re_augen
    schwarz = record.get("schwarz")

    if re_stages or ko_stages:
        # the last stage (schwarz) is met only by the other party taking no trick
        re_met = (schwarz == "kontra" if re_stages == len(AGAINST)
                  else re_stages > 0 and ko_augen < UNDER[re_stages - 1])
        ko_met = (schwarz == "re" if ko_stages == len(AGAINST)
                  else ko_stages > 0 and re_augen < UNDER[ko_stages - 1])
        if re_stages and ko_stages:
            win = "re" if re_met else "kontra" if ko_met else "none"
        elif re_stages:
            win = "re" if re_met else "kontra"
        else:
            win = "kontra" if ko_met else "re"
    else:
        win = "re" if re_augen >= (120 if ko_level and not re_level else 121) else "kontra"

    double = rules["re_kontra"] == "double"
    # (e)/(f): a point for each of the other party's Absage stages a party reached
    re_earned = _reached(re_augen, ko_stages) if ko_stages else 0
    ko_earned = _reached(ko_augen, re_stages) if re_stages else 0
    # (d): a point for each of 90, 60, 30 the other party stayed under, one for schwarz
    if win != "kontra":  # Re won, or no one did
        re_earned += ((ko_augen < UNDER[0]) + (ko_augen < UNDER[1]) + (ko_augen < UNDER[2])
                      + (schwarz == "kontra"))
    if win != "re":
        ko_earned += ((re_augen < UNDER[0]) + (re_augen < UNDER[1]) + (re_augen < UNDER[2])
                      + (schwarz == "re"))
    if win != "none":
        won = 1 + re_stages + ko_stages
        if not double:
            won += 2 * (re_level > 0) + 2 * (ko_level > 0)
        if win == "re":
            re_earned += won
        else:
            ko_earned += won
    if not is_solo_scored(record):
        extras = record.get("extras") or {}
        row = extras.get("re")
        if row:
            re_earned += (row.get("fuchs", 0) + row.get("doppelkopf", 0)
                          + (1 if row.get("karlchen") else 0))
        row = extras.get("kontra")
        if row:
            ko_earned += (row.get("fuchs", 0) + row.get("doppelkopf", 0)
                          + (1 if row.get("karlchen") else 0))
        if win == "kontra" and rules["gegen_die_alten"]:
            ko_earned += 1
    value = re_earned - ko_earned
    if double:
        value *= 2 ** ((re_level > 0) + (ko_level > 0))
    return value, win


def _reached(augen: int, stages: int) -> int:
    """How many of the other party's first ``stages`` Absage stages ``augen`` reach."""
    reached = 0
    for need in AGAINST[:stages]:
        if augen >= need:
            reached += 1
    return reached


def book(record: dict[str, Any], value: int, active: Sequence[int],
         players: int) -> list[int]:
    """Scores of a game value: ±v per seat, or soloist +3v against −v (step 5)."""
    scores = [0] * players
    re = record["re"]
    won = 3 * value if is_solo_scored(record) else value
    for seat in active:
        scores[seat - 1] = won if seat in re else -value
    return scores


def penalty_scores(record: dict[str, Any], active: Sequence[int],
                   players: int) -> list[int]:
    """The penalty points of a record (games.md 8.7)."""
    scores = [0] * players
    soloist = record["re"][0] if record["game"] != ANNULLED and is_solo_scored(record) \
        else None
    for p in record.get("penalties", ()):
        seat, kind = p["seat"], p["kind"]
        if kind == DEDUCTION:
            scores[seat - 1] -= p["points"]
        elif kind == MINOR and p.get("to_soloist"):
            scores[seat - 1] -= MINOR_POINTS
            scores[soloist - 1] += MINOR_POINTS
        elif kind == MINOR:
            scores[seat - 1] -= MINOR_POINTS
            for other in active:
                if other != seat:
                    scores[other - 1] += 1
        elif record["game"] == ANNULLED:
            absagen = p.get("absagen", 0)
            scores[seat - 1] -= SERIOUS_BASE + SERIOUS_PER_ABSAGE * absagen
            for other in active:
                if other != seat:
                    scores[other - 1] += SERIOUS_OTHERS + absagen
        else:  # serious by a solo opponent: the solo stands
            points = SERIOUS_BASE + SERIOUS_PER_ABSAGE * p.get("absagen", 0)
            scores[seat - 1] -= points
            scores[soloist - 1] += points
    return scores


# --------------------------------------------------------------------------- the round


@dataclass
class RoundState:
    """Where a round stands before a deal: who deals, what was played (games.md 8.1)."""

    players: int
    rules: dict[str, Any]
    dealer: int = 1
    normal_games: int = 0
    solo_done: set[int] = field(default_factory=set)
    time_up: bool = False

    @property
    def compulsory(self) -> bool:
        return self.rules["compulsory_solos"]

    @property
    def round_deals(self) -> int:
        return self.rules["round_deals_5" if self.players == 5 else "round_deals_4"]

    @property
    def normal_total(self) -> int:
        return self.round_deals - (self.players if self.compulsory else 0)

    @property
    def normal_left(self) -> int:
        return 0 if self.time_up else self.normal_total - self.normal_games

    @property
    def missing(self) -> list[int]:
        if not self.compulsory:
            return []
        return [s for s in range(1, self.players + 1) if s not in self.solo_done]

    @property
    def due(self) -> int | None:
        """The seat that must play a vorgeführtes Pflichtsolo now, else None."""
        missing = self.missing
        if not missing or self.normal_left > 0:
            return None
        order = [(self.dealer + i - 1) % self.players + 1 for i in range(1, self.players + 1)]
        return next(s for s in order if s in missing)

    @property
    def complete(self) -> bool:
        return not self.missing and self.normal_left == 0

    def deal_dealer(self) -> int:
        """The dealer of the next deal: at a 5-table a vorgeführter dealer's left
        neighbour deals and sits (games.md 8.10 no. 4)."""
        if self.players == 5 and self.due == self.dealer:
            return self.dealer % self.players + 1
        return self.dealer

    def _next(self, seat: int) -> int:
        return seat % self.players + 1

    def place(self, record: dict[str, Any], errors: Errors) -> dict[str, Any]:
        """Check the record's place in the round; return its ``compulsory``, ``forced``
        and ``dealer`` (errors name the field, games.md 8.5 no. 9)."""
        game, due, dealer = record["game"], self.due, self.deal_dealer()
        info = {"compulsory": False, "forced": False, "dealer": dealer}
        if self.complete:
            errors.add("game", _("The round is complete; no further deal can be entered."))
            return info
        if game == TIME_UP:
            if self.time_up:
                errors.add("game", _("Time is up already; it is recorded once."))
            elif self.normal_left == 0:
                errors.add("game", _("All normal games are played; time up changes "
                                     "nothing."))
            return info
        if game == ANNULLED:
            return info
        soloist = record["re"][0]
        if game in SOLOS and self.compulsory and soloist not in self.solo_done:
            info["compulsory"] = True
            info["forced"] = due is not None
            if due is not None and soloist != due:
                errors.add("re", _("A Pflichtsolo by seat %(seat)s is due."), seat=due)
            return info
        if due is not None:
            errors.add("game", _("All normal games are played; a Pflichtsolo by seat "
                                 "%(seat)s is due."), seat=due)
        elif self.normal_left == 0:
            errors.add("game", _("All normal games are played."))
        return info

    def advance(self, record: dict[str, Any], info: dict[str, Any]) -> None:
        game = record["game"]
        if game == TIME_UP:
            self.time_up = True
        elif game == ANNULLED:
            pass  # replayed: the same dealer deals again, the same seat is still due
        elif info["compulsory"]:
            self.solo_done.add(record["re"][0])
            self.dealer = self._next(info["dealer"]) if info["forced"] else info["dealer"]
        else:
            if game in SOLOS:
                self.solo_done.add(record["re"][0])
            self.normal_games += 1
            self.dealer = self._next(info["dealer"])


def walk(previous: tuple[dict[str, Any], ...], players: int,
         rules: dict[str, Any]) -> RoundState:
    state = RoundState(players, rules)
    for record in previous:
        errors = Errors()
        info = state.place(record, errors)
        if errors:
            raise EngineInternalError("an earlier deal breaks the order of the round")
        state.advance(record, info)
    return state


# --------------------------------------------------------------------------- checks


def _active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seats in play: all at a 4-table, all but the dealer at a 5-table."""
    return tuple(s for s in range(1, players + 1) if players == 4 or s != dealer)


# every deal asks for its seats in play: the tables' (size, dealer) pairs are few, so
# they are built once (read-only tuples); other sizes are built when asked
_SEATS_IN_PLAY = {(players, dealer): _active_seats(players, dealer)
                  for players in (4, 5) for dealer in range(1, players + 1)}


def _seats_in_play(players: int, dealer: int) -> tuple[int, ...]:
    seats = _SEATS_IN_PLAY.get((players, dealer))
    return _active_seats(players, dealer) if seats is None else seats


def _check_object(errors: Errors, name: str, value: Any, keys: tuple[str, ...]) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors.add(name, _("Must be an object."))
        return {}
    unknown_fields(errors, name, value, keys)
    return value


def _given(value: Any) -> bool:
    """Whether a value differs from its default (``null``, false, 0, an empty object)."""
    if isinstance(value, dict):
        return any(_given(v) for v in value.values())
    return value is not None and value is not False and value != 0 and value != []


def _extras_row(errors: Errors, party: str, value: Any) -> dict[str, Any]:
    """One party's Sonderpunkte as given (``null`` for none), each checked for its type
    and range; the row keeps what was given, so a caller reads it only without errors.
    The path ``extras.<party>`` is built only for an error: this runs for every deal."""
    if value is None:
        return {"fuchs": 0, "doppelkopf": 0, "karlchen": False}
    if not isinstance(value, dict):
        errors.add(f"extras.{party}", _("Must be an object."))
        value = {}
    else:
        for key in value:
            if key not in EXTRA_KEYS:
                errors.add(f"extras.{party}.{key}", _("Unknown field “%(name)s”."),
                           name=str(key))
    fuchs = value.get("fuchs", 0)
    doppelkopf = value.get("doppelkopf", 0)
    karlchen = value.get("karlchen", False)
    # ``type`` first: a plain int is the common case (is_int also takes int subclasses)
    if not (type(fuchs) is int or is_int(fuchs)) or not 0 <= fuchs <= _FUCHS_MAX:
        errors.add(f"extras.{party}.fuchs", _("Must be a whole number from 0 to %(high)s."),
                   high=_FUCHS_MAX)
    if (not (type(doppelkopf) is int or is_int(doppelkopf))
            or not 0 <= doppelkopf <= _DOPPELKOPF_MAX):
        errors.add(f"extras.{party}.doppelkopf", _("Must be a whole number from 0 to "
                                                   "%(high)s."), high=_DOPPELKOPF_MAX)
    if not isinstance(karlchen, bool):
        errors.add(f"extras.{party}.karlchen", _("Must be true or false."))
    return {"fuchs": fuchs, "doppelkopf": doppelkopf, "karlchen": karlchen}


def _check_sonderpunkte(errors: Errors, party: str, fuchs: int, doppelkopf: int,
                        karlchen: bool, augen: int, schwarz: str | None,
                        rules: dict[str, Any], solo: bool) -> None:
    """A party's well-formed, non-empty Sonderpunkte against the game, the rules and the
    party's ``augen`` (games.md 8.3), each key in the order of EXTRA_KEYS. Unrolled, and
    the paths built only for an error: this runs for most normal games."""
    if solo:
        errors.add(f"extras.{party}", _("Sonderpunkte count only in normal-scored games."))
        return
    if schwarz == party:
        errors.add(f"extras.{party}", _("A party that took no trick has no Sonderpunkte."))
        return
    if fuchs and not rules["fuchs"]:
        errors.add(f"extras.{party}.fuchs", _("This Sonderpunkt is off under these rules."))
    if doppelkopf and not rules["doppelkopf"]:
        errors.add(f"extras.{party}.doppelkopf", _("This Sonderpunkt is off under these "
                                                   "rules."))
    if karlchen and not rules["karlchen"]:
        errors.add(f"extras.{party}.karlchen", _("This Sonderpunkt is off under these "
                                                 "rules."))
    if augen < _FUCHS_AUGEN * fuchs:
        errors.add(f"extras.{party}.fuchs", _("The party's %(augen)s Augen cannot hold that "
                                              "many."), augen=augen)
    if augen < _DOPPELKOPF_AUGEN * doppelkopf:
        errors.add(f"extras.{party}.doppelkopf", _("The party's %(augen)s Augen cannot hold "
                                                   "that many."), augen=augen)
    if karlchen and augen < 2:
        errors.add(f"extras.{party}.karlchen", _("The party's %(augen)s Augen cannot hold "
                                                 "that many."), augen=augen)


@register
class Doppelkopf(Engine):
    key = "doppelkopf"
    name_de = "Doppelkopf"
    name_en = "Doppelkopf"
    # games.md §9.1: the federation's league
    league = LeaguePlay(preset="ddv", group_sizes=(4, 4), may_miss=0)
    table_sizes = (4, 5)
    preferred_table_size = 4
    RECORD = RECORD
    OPTIONS = OPTIONS
    figures = ("solos",)

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return rules["round_deals_5" if players == 5 else "round_deals_4"]

    def sheet_complete(self, records: Sequence[dict[str, Any]], players: int,
                       rules: dict[str, Any]) -> bool:
        """Complete when the round is (games.md 8.1): every normal game played (or time
        up) and every Pflichtsolo; annulled and time-up rows do not count."""
        return walk(tuple(records), players, rules).complete

    def sheet_progress(self, records: Sequence[dict[str, Any]], players: int,
                       rules: dict[str, Any]) -> tuple[int, int]:
        """Games of the round played, and the round's games (games.md 8.1): annulled
        games and the time-up marker are no games of the round; after time up the
        round is the normal games played plus every seat's Pflichtsolo."""
        state = walk(tuple(records), players, rules)
        solos = len(state.solo_done) if state.compulsory else 0
        played = state.normal_games + solos
        if not state.time_up:
            return played, state.round_deals
        return played, state.normal_games + (players if state.compulsory else 0)

    def sheet_room(self, records: Sequence[dict[str, Any]], players: int,
                   rules: dict[str, Any]) -> int | None:
        # annulled rows are replayed, so no fixed number: each deal's place is checked
        return 0 if self.sheet_complete(records, players, rules) else None

    def deal_plan(self, records: Sequence[dict[str, Any]], players: int,
                  rules: dict[str, Any]) -> list[dict[str, Any]]:
        # the dealer after the next deal depends on what is played (a Pflichtsolo keeps
        # the dealer, an annulled game is dealt again): only the next deal is known
        previous = tuple(records)
        state = walk(previous, players, rules)
        if state.complete:
            return []
        return [self.deal_hints(DealContext(len(previous) + 1, players, rules,
                                            previous=previous))]

    def _state(self, ctx: DealContext) -> RoundState | None:
        if ctx.previous is None:
            return None
        return walk(ctx.previous, ctx.players, ctx.rules)

    def _dealer(self, ctx: DealContext, state: RoundState | None) -> int:
        return ctx.dealer if state is None else state.deal_dealer()

    def _active(self, players: int, dealer: int) -> list[int]:
        return list(_active_seats(players, dealer))

    def active_seats(self, ctx: DealContext) -> list[int]:
        return self._active(ctx.players, self._dealer(ctx, self._state(ctx)))

    def deal_hints(self, ctx: DealContext) -> dict[str, Any]:
        state = self._state(ctx)
        dealer = self._dealer(ctx, state)
        return {"number": ctx.number, "dealer": dealer,
                "active_seats": self._active(ctx.players, dealer),
                "due": None if state is None else state.due}

    # ---- one deal

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        errors = Errors()
        if not check_keys(deal, ("game",), _OPTIONAL_FIELDS, errors):
            errors.raise_if_any()
        game = deal.get("game", _MISSING)
        if game is not _MISSING and game not in GAMES:
            errors.add("game", _("Must be one of: %(choices)s."), choices=", ".join(GAMES))
        elif game == ARMUT and not ctx.rules["armut"]:
            errors.add("game", _("The Armut is not played under these rules."))
        if errors:
            errors.raise_if_any()
        state = None if ctx.previous is None else walk(ctx.previous, ctx.players, ctx.rules)
        active = _seats_in_play(ctx.players, ctx.dealer if state is None
                                else state.deal_dealer())
        if game == TIME_UP:
            for name in deal:
                if name != "game":
                    errors.add(name, _("Time up carries no other field."))
            errors.raise_if_any()
            record: dict[str, Any] = {"game": TIME_UP}
        elif game == ANNULLED:
            record = self._annulled(deal, ctx, active, errors)
        else:
            record = self._played(deal, ctx, active, errors)
        errors.raise_if_any()
        if state is not None:
            state.place(record, errors)
            errors.raise_if_any()
        return record

    def _annulled(self, deal: dict, ctx: DealContext, active: Sequence[int],
                  errors: Errors) -> dict[str, Any]:
        for name in deal:
            if name not in ("game", "penalties"):
                errors.add(name, _("An annulled game carries only its penalty."))
        penalties = self._penalties(deal, ctx, active, None, None, errors)
        if not errors.has("penalties") and (
                len(penalties) != 1 or penalties[0]["kind"] != SERIOUS):
            errors.add("penalties", _("An annulled game carries exactly one serious "
                                      "violation."))
        return {"game": ANNULLED, "penalties": penalties}

    def _played(self, deal: dict, ctx: DealContext, active: Sequence[int],
                errors: Errors) -> dict[str, Any]:
        game = deal["game"]
        record: dict[str, Any] = {"game": game}
        re = self._re(deal, game, ctx.players, active, errors)
        if re is None:
            return record
        record["re"] = re
        solo = is_solo_scored(record)
        has_points = deal.get("re_points") is not None
        has_value = deal.get("value") is not None
        if has_points:
            self._full(deal, record, ctx.rules, solo, errors)
        elif has_value:
            for name in ("schwarz", "announcements", "extras", "winner"):
                if _given(deal.get(name)):
                    errors.add(name, _("A list entry carries only game, re and value."))
            if not is_int(deal["value"]):
                errors.add("value", _("Must be a whole number."))
            record["value"] = deal["value"]
        else:
            for name in ("schwarz", "extras", "winner"):
                if _given(deal.get(name)):
                    errors.add(name, _("A game without a result carries no %(name)s."),
                               name=name)
            record["announcements"] = self._announcements(deal, errors)
        if deal.get("penalties") is None:  # the common case: nothing to check or keep
            penalties: list[dict[str, Any]] = []
        else:
            penalties = self._penalties(deal, ctx, active, re[0] if solo else None,
                                        has_points or has_value, errors)
        if not has_points and not has_value and not errors.has("penalties") and not any(
                p["kind"] == SERIOUS for p in penalties):
            errors.add("re_points", _("Give the Re party's Augen (re_points) or the game "
                                      "value (value)."))
        if penalties:
            record["penalties"] = penalties
        return record

    def _re(self, deal: dict, game: str, players: int, active: Sequence[int],
            errors: Errors) -> list[int] | None:
        re = deal.get("re", _MISSING)
        if re is _MISSING:
            errors.add("re", _("This field is required."))
            return None
        sizes = (1, 2) if game == HOCHZEIT else (2,) if game in (NORMAL, ARMUT) else (1,)
        if not isinstance(re, list) or len(re) not in sizes:
            errors.add("re", _("Must be a list of %(count)s seats."),
                       count=" or ".join(str(s) for s in sizes))
            return None
        # the common case first: plain whole numbers among the seats in play (which are
        # 1..players), different; ``type`` rules out true, which equals seat 1
        first = re[0]
        if type(first) is int and first in active:
            if len(re) == 1:
                return [first]
            second = re[1]
            if type(second) is int and second in active and second != first:
                return [first, second]
        bad = False
        for index, seat in enumerate(re):
            if not is_int(seat) or not 1 <= seat <= players:
                errors.add(f"re.{index}", _("Must be a seat from 1 to %(players)s."),
                           players=players)
                bad = True
            elif seat not in active:
                errors.add(f"re.{index}", _("Seat %(seat)s deals and sits out this game."),
                           seat=seat)
                bad = True
        if not bad and len(set(re)) != len(re):
            errors.add("re", _("The seats must be different."))
            bad = True
        return None if bad else list(re)

    def _announcements(self, deal: dict, errors: Errors) -> dict[str, Any]:
        given = _check_object(errors, "announcements", deal.get("announcements"), PARTIES)
        re, kontra = given.get("re"), given.get("kontra")
        if re not in RE_LEVELS:
            errors.add("announcements.re", _("Must be one of: %(choices)s."),
                       choices=_LEVEL_CHOICES["re"])
        if kontra not in KONTRA_LEVELS:
            errors.add("announcements.kontra", _("Must be one of: %(choices)s."),
                       choices=_LEVEL_CHOICES["kontra"])
        return {"re": re, "kontra": kontra}

    def _full(self, deal: dict, record: dict[str, Any], rules: dict[str, Any], solo: bool,
              errors: Errors) -> None:
        points = deal["re_points"]
        schwarz = deal.get("schwarz")
        if not (type(points) is int or is_int(points)) or not 0 <= points <= TOTAL:
            errors.add("re_points", _("Must be a whole number from 0 to %(high)s."),
                       high=TOTAL)
            return
        if schwarz not in _SCHWARZ:
            errors.add("schwarz", _("Must be one of: %(choices)s."), choices="re, kontra")
            return
        if rules["nines"]:
            if points in (1, TOTAL - 1):
                errors.add("re_points", _("No party can hold exactly 1 Augen."))
        elif 0 < points < NO_NINES_TRICK or TOTAL - NO_NINES_TRICK < points < TOTAL:
            errors.add("re_points", _("Without nines every trick holds at least 8 Augen."))
        elif (points == TOTAL) != (schwarz == "kontra") or (points == 0) != (schwarz == "re"):
            errors.add("schwarz", _("Without nines a party takes no trick exactly when it "
                                    "has 0 Augen."))
        if schwarz is not None:
            if schwarz == "kontra" and points != TOTAL:
                errors.add("schwarz", _("Kontra schwarz needs re_points %(points)s."),
                           points=TOTAL)
            if schwarz == "re" and points != 0:
                errors.add("schwarz", _("Re schwarz needs re_points 0."))
            if schwarz == "re" and record["game"] == HOCHZEIT:
                errors.add("schwarz", _("The Re party of a Hochzeit took a trick."))
        record["re_points"] = points
        record["schwarz"] = schwarz
        record["announcements"] = self._announcements(deal, errors)
        record["extras"] = self._extras(deal, record, rules, solo, errors)
        if errors or (deal.get("winner") is None and deal.get("value") is None):
            return  # the cross-checks only: score_deal computes the value
        value, winner = game_value(record, rules)
        for name, derived in (("winner", winner), ("value", value)):
            given = deal.get(name)
            if given is not None and given != derived:
                errors.add(name, _("Does not match the derived %(name)s %(derived)s."),
                           name=name, derived=derived)

    def _extras(self, deal: dict, record: dict[str, Any], rules: dict[str, Any], solo: bool,
                errors: Errors) -> dict[str, Any]:
        given = deal.get("extras")
        if given is None:  # no Sonderpunkte (most solos): nothing to check
            return {"re": {"fuchs": 0, "doppelkopf": 0, "karlchen": False},
                    "kontra": {"fuchs": 0, "doppelkopf": 0, "karlchen": False}}
        before = len(errors.items)
        given = _check_object(errors, "extras", given, PARTIES)
        re_row = _extras_row(errors, "re", given.get("re"))
        kontra_row = _extras_row(errors, "kontra", given.get("kontra"))
        out = {"re": re_row, "kontra": kontra_row}
        if len(errors.items) != before:
            return out  # the rows are not numbers to check (no earlier check names extras)
        re_fuchs, re_doppelkopf, re_karlchen = (re_row["fuchs"], re_row["doppelkopf"],
                                                re_row["karlchen"])
        ko_fuchs, ko_doppelkopf, ko_karlchen = (kontra_row["fuchs"], kontra_row["doppelkopf"],
                                                kontra_row["karlchen"])
        if not (re_fuchs or re_doppelkopf or re_karlchen
                or ko_fuchs or ko_doppelkopf or ko_karlchen):
            return out  # no Sonderpunkte: nothing to check against the game and the Augen
        points, schwarz = record["re_points"], record["schwarz"]
        if re_fuchs or re_doppelkopf or re_karlchen:
            _check_sonderpunkte(errors, "re", re_fuchs, re_doppelkopf, re_karlchen, points,
                                schwarz, rules, solo)
        if ko_fuchs or ko_doppelkopf or ko_karlchen:
            _check_sonderpunkte(errors, "kontra", ko_fuchs, ko_doppelkopf, ko_karlchen,
                                TOTAL - points, schwarz, rules, solo)
        if re_fuchs + ko_fuchs > 2:
            errors.add("extras.kontra.fuchs", _("Both parties together have at most "
                                                "%(high)s."), high=2)
        if re_doppelkopf + ko_doppelkopf > 4:
            errors.add("extras.kontra.doppelkopf", _("Both parties together have at most "
                                                     "%(high)s."), high=4)
        if re_karlchen and ko_karlchen:
            errors.add("extras.kontra.karlchen", _("Both parties together have at most "
                                                   "%(high)s."), high=1)
        return out

    def _penalties(self, deal: dict, ctx: DealContext, active: Sequence[int],
                   soloist: int | None, result: bool | None,
                   errors: Errors) -> list[dict[str, Any]]:
        value = deal.get("penalties")
        if value is None:
            return []
        if not isinstance(value, list) or len(value) > self.record_field("penalties").max_items:
            errors.add("penalties", _("Must be a list of at most %(count)s penalties."),
                       count=self.record_field("penalties").max_items)
            return []
        out = []
        for index, item in enumerate(value):
            where = f"penalties.{index}"
            if not isinstance(item, dict):
                errors.add(where, _("Must be an object."))
                continue
            for key in item:
                if key not in PENALTY_FIELDS:
                    errors.add(f"{where}.{key}", _("Unknown field “%(name)s”."), name=str(key))
            seat, kind = item.get("seat"), item.get("kind")
            if not is_int(seat) or not 1 <= seat <= ctx.players:
                errors.add(f"{where}.seat", _("Must be a seat from 1 to %(players)s."),
                           players=ctx.players)
                continue
            if kind not in PENALTY_KINDS:
                errors.add(f"{where}.kind", _("Must be one of: %(choices)s."),
                           choices=", ".join(PENALTY_KINDS))
                continue
            penalty: dict[str, Any] = {"seat": seat, "kind": kind}
            allowed = {MINOR: "to_soloist", SERIOUS: "absagen", DEDUCTION: "points"}[kind]
            for key in ("to_soloist", "absagen", "points"):
                if key != allowed and _given(item.get(key)):
                    errors.add(f"{where}.{key}", _("A %(kind)s penalty has no %(name)s."),
                               kind=kind, name=key)
            if kind != DEDUCTION and seat not in active:
                errors.add(f"{where}.seat", _("Seat %(seat)s sits out and can only get a "
                                              "deduction."), seat=seat)
            if kind == MINOR:
                flag = False if item.get("to_soloist") is None else item["to_soloist"]
                if not isinstance(flag, bool):
                    errors.add(f"{where}.to_soloist", _("Must be true or false."))
                elif flag and (soloist is None or seat == soloist):
                    errors.add(f"{where}.to_soloist", _("Only an opponent of a soloist "
                                                        "pays to the soloist."))
                elif flag:
                    penalty["to_soloist"] = True
            elif kind == SERIOUS:
                absagen = 0 if item.get("absagen") is None else item["absagen"]
                if not is_int(absagen) or not 0 <= absagen <= MAX_ABSAGEN:
                    errors.add(f"{where}.absagen", _("Must be a whole number from 0 to "
                                                     "%(high)s."), high=MAX_ABSAGEN)
                penalty["absagen"] = absagen
                if result is None:
                    pass  # annulled
                elif soloist is None or seat == soloist:
                    errors.add(f"{where}.kind", _("A serious violation in a normal game or "
                                                  "by the soloist annuls the game."))
                elif result:
                    errors.add(f"{where}.kind", _("A solo decided by a serious violation "
                                                  "carries no result."))
            else:
                points = item.get("points")
                if not is_int(points) or not 1 <= points <= MAX_DEDUCTION:
                    errors.add(f"{where}.points", _("Must be a whole number from 1 to "
                                                    "%(high)s."), high=MAX_DEDUCTION)
                penalty["points"] = points
            out.append(penalty)
        if result is False and sum(p["kind"] == SERIOUS for p in out) > 1:
            errors.add("penalties", _("A solo is decided by one serious violation."))
        return out

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        players = ctx.players
        if ctx.previous is None:
            dealer = ctx.dealer
            info = None
        else:
            errors = Errors()
            info = walk(ctx.previous, players, ctx.rules).place(record, errors)
            if errors:
                raise EngineUserError(errors.items)
            dealer = info["dealer"]
        active = _seats_in_play(players, dealer)
        value: int | None = None
        winner: str | None = None
        if record["game"] in _PLAYED:
            if "re_points" in record:
                value, winner = game_value(record, ctx.rules)
            elif "value" in record:
                value = record["value"]
                winner = "re" if value > 0 else "kontra" if value < 0 else None
        if value is None:
            scores = [0] * players
        else:
            scores = book(record, value, active, players)
            # every seat in play books v, −v or 3v: one parity, summing to zero
            parity = scores[active[0] - 1] % 2
            broken = sum(scores) != 0
            for seat in active:
                if scores[seat - 1] % 2 != parity:
                    broken = True
            if broken:
                raise EngineInternalError(f"Doppelkopf booking broke its rules: {scores}")
        if record.get("penalties"):
            penalties = penalty_scores(record, active, players)
            scores = [a + b for a, b in zip(scores, penalties, strict=True)]
        if info is None:  # no earlier deals given: no Pflichtsolo can be told
            extra = {"value": value, "winner": winner, "compulsory": False, "forced": False,
                     "dealer": dealer}
        else:
            extra = {"value": value, "winner": winner, **info}
        return ScoredDeal(record, scores, extra)

    # ---- statistics (games.md §11)

    INSIGHT_LABELS = {"re": _("Re"), "kontra": _("Kontra"), "solo": _("Soloist"),
                      **dict(zip(GAMES, GAME_LABELS, strict=True))}

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        """Re and Kontra, won and lost; a soloist's game by kind. An annulled row and
        the time-up marker are no deal of the sheet."""
        if record["game"] not in _PLAYED:
            return {}
        if "re_points" in record:
            _value, winner = game_value(record, ctx.rules)
        else:
            winner = ("re" if record["value"] > 0 else "kontra" if record["value"] < 0
                      else None)
        solo = is_solo_scored(record)
        parts = {}
        for seat in active:
            party = "re" if seat in record["re"] else "kontra"
            won = None if winner not in PARTIES else winner == party
            if solo and party == "re":
                parts[seat] = Part("solo", record["game"], won)
            else:
                parts[seat] = Part(party, won=won)
        return parts

    # ---- a whole sheet

    def score_sheet(self, deals: Any, players: Any, rules: Any = None) -> SheetResult:
        """Validate and score a whole sheet in its order (games.md 8.5 no. 9): each deal
        sees the records before it; after a bad deal the order is no longer checked."""
        opts = self.sheet_input(deals, players, rules)
        errors: list[FieldError] = []
        scored: list[ScoredDeal] = []
        previous: list[dict[str, Any]] | None = []
        for index, deal in enumerate(deals):
            ctx = DealContext(number=index + 1, players=players, rules=opts,
                              previous=None if previous is None else tuple(previous))
            try:
                record = self.validate_deal(deal, ctx)
                scored.append(self.score_deal(record, ctx))
                if previous is not None:
                    previous.append(record)
            except EngineUserError as exc:
                errors.extend(e.at(deal=index, number=index + 1) for e in exc.errors)
                previous = None
        if errors:
            raise EngineUserError(errors)
        state = walk(tuple(previous), players, opts)
        return SheetResult(scored, self.sheet_totals(scored, players, opts),
                           complete=state.complete)

    def sheet_totals(self, deals: list[ScoredDeal], players: int,
                     rules: dict[str, Any]) -> list[dict[str, Any]]:
        rows = [{"seat": s, "score": 0, "pflichtsolo": False, "solos": 0}
                for s in range(1, players + 1)]
        for deal in deals:
            for i, score in enumerate(deal.scores):
                rows[i]["score"] += score
            record = deal.record
            if record.get("game") in PLAYED and is_solo_scored(record):
                row = rows[record["re"][0] - 1]
                row["solos"] += 1
                if deal.extra.get("compulsory"):
                    row["pflichtsolo"] = True
        return rows
