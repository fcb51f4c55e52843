"""Bavarian Schafkopf (``schafkopf``): deal checks and scoring per spec games.md §2.

Terms:

- declarer (*Spielmacher*): the seat that plays the game it announced.
- rufspiel: partner game; the declarer calls an ace (never hearts) and its holder, the
  partner, plays with it. Declarer and partner are the *declaring party*.
- single game: wenz, solo, wenz_tout, solo_tout and sie; the declarer alone is the
  declaring party against the three other active seats.
- opponents: the active seats outside the declaring party.
- declarer_points: card points (*Augen*, 120 in the deck) of the declaring party.
- schneider: the declaring party took 91 or more points (won Schneider) or 30 or fewer
  (lost Schneider); derived from ``declarer_points``. The sides differ on purpose
  (games.md, *Spieler bleibt Spieler*): opponents with 30 points (declarer 90) are
  not Schneider, a declaring party with 30 is.
- schwarz: one party took no trick; entered, because a trick can be worth 0 points.
- laufende: unbroken top trumps held by one party ("mit" or "ohne"); they count from 3
  (from 2 in a wenz or wenz tout); L is the counted number, 0 below the minimum.
- doublings: Stoß, Re, Supra, Resupra; each doubles the value.
- v: the value of a deal per opponent, from the ``tariff`` option.
- a 5-table: five seats; the dealer of each deal sits out, plays no part and scores 0.

Where the spec is silent this module decides:

- ``schwarz``, ``laufende`` and ``doublings`` may be left out (false, 0, 0);
  ``declarer`` and ``declarer_points`` are required.
- A sie is always won with every trick: its ``declarer_points``, ``schwarz`` and
  ``laufende`` may be left out and are then 120, true and 8; any other value is refused.
- A tout with 120 points but without ``schwarz`` is lost: the opponents took a
  0-point trick.
- doublings are capped at 4 in every game. rules/schafkopf.txt 4.1.5 ("at most two each
  way" in single games) means the opponents' Stoß and Supra and the declarer's Re and
  Resupra: the same four steps, not one Stoß per opponent.
- won and lost games in the totals count for the whole declaring party, so a rufspiel
  counts for its partner as well as for its declarer (the tie-break speaks of "won games
  as declaring party").
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from games.engines.base import (
    Choice,
    DealContext,
    Engine,
    Errors,
    Option,
    Part,
    RecordField,
    ScoredDeal,
    When,
    _,
    check_keys,
    is_int,
    register,
    round_deals_option,
)

RUFSPIEL = "rufspiel"
PASSED = "passed"
SIE = "sie"
GAMES = (RUFSPIEL, "wenz", "solo", "wenz_tout", "solo_tout", SIE, PASSED)
TOUTS = ("wenz_tout", "solo_tout")
WENZ_GAMES = ("wenz", "wenz_tout")
SUIT_GAMES = ("solo", "solo_tout")
CALLABLE_ACES = ("acorns", "leaves", "bells")
SUITS = ("acorns", "leaves", "hearts", "bells")

_PLAYED = ("game", "declarer", "declarer_points", "schwarz", "laufende", "doublings")
FIELDS: dict[str, tuple[str, ...]] = {
    PASSED: ("game",),
    RUFSPIEL: _PLAYED + ("partner", "called_ace"),
    "wenz": _PLAYED,
    "solo": _PLAYED + ("suit",),
    "wenz_tout": _PLAYED,
    "solo_tout": _PLAYED + ("suit",),
    SIE: _PLAYED,
}
ALL_FIELDS = _PLAYED + ("partner", "called_ace", "suit")

WIN_POINTS = 61
SCHNEIDER_WIN = 91
SCHNEIDER_LOSS = 30
MAX_DOUBLINGS = 4
MAX_ROUND_DEALS = 96  # three times the usual 32
MAX_LAUFENDE = 14  # 4 Ober, 4 Unter and 6 cards of the trump suit
MAX_LAUFENDE_WENZ = 4  # only the Unter are trumps
SIE_LAUFENDE = 8  # the declarer holds all Ober and Unter
SIE_FIXED = {"declarer_points": 120, "schwarz": True, "laufende": SIE_LAUFENDE}

TARIFF_KEYS = ("base_rufspiel", "base_solo", "schneider", "schwarz", "laufende")
TARIFFS: dict[str, dict[str, int]] = {
    "tournament": dict(zip(TARIFF_KEYS, (1, 2, 1, 1, 1), strict=True)),
    "money_10_50": dict(zip(TARIFF_KEYS, (10, 50, 10, 10, 10), strict=True)),
    "money_20_50": dict(zip(TARIFF_KEYS, (20, 50, 10, 10, 10), strict=True)),
}


MAX_TARIFF = 1000  # points (or cents) per opponent for one tariff item
TARIFF_LABELS = {  # key: (English, German)
    "base_rufspiel": ("Rufspiel", "Rufspiel"),
    "base_solo": ("Solo and Wenz", "Solo und Wenz"),
    "schneider": ("Schneider", "Schneider"),
    "schwarz": ("Schwarz", "Schwarz"),
    "laufende": ("Per counted Laufender", "Je gezähltem Laufenden"),
}
TARIFF_OPTION = Option(
    default="tournament", kind="preset", label_en="Tariff", label_de="Tarif",
    choices=(
        Choice("tournament", "Tournament (1/2/1/1/1 points)",
               "Turnier (1/2/1/1/1 Punkte)"),
        Choice("money_10_50", "10/50 cents (schneider, schwarz, Laufende 10)",
               "10/50 Cent (Schneider, Schwarz, Laufende 10)"),
        Choice("money_20_50", "20/50 cents (schneider, schwarz, Laufende 10)",
               "20/50 Cent (Schneider, Schwarz, Laufende 10)"),
    ),
    fields={key: Option(
        TARIFFS["tournament"][key], "int", min=0, max=MAX_TARIFF,
        label_en=en, label_de=de,
        help_en=f"Points per opponent, 0 to {MAX_TARIFF}.",
        help_de=f"Punkte je Gegenspieler, 0 bis {MAX_TARIFF}.")
        for key, (en, de) in TARIFF_LABELS.items()},
    help_en=f"Points per opponent: a preset, or your own five values (each 0 to "
            f"{MAX_TARIFF}) for Rufspiel, Solo and Wenz, Schneider, Schwarz and each "
            f"Laufender.",
    help_de=f"Punkte je Gegenspieler: eine Vorgabe oder eigene fünf Werte (je 0 bis "
            f"{MAX_TARIFF}) für Rufspiel, Solo und Wenz, Schneider, Schwarz und jeden "
            f"Laufenden.")


def tariff_of(rules: dict[str, Any]) -> dict[str, int]:
    """The five tariff numbers of validated rules (a preset name or a custom object)."""
    tariff = rules.get("tariff", "tournament")
    return TARIFFS[tariff] if isinstance(tariff, str) else tariff


# --------------------------------------------------------------------------- the rules


def is_schneider(points: int) -> bool:
    return points >= SCHNEIDER_WIN or points <= SCHNEIDER_LOSS


def counted_laufende(game: str, laufende: int) -> int:
    minimum = 2 if game in WENZ_GAMES else 3
    return laufende if laufende >= minimum else 0


def declaring_party_won(record: dict[str, Any]) -> bool:
    game = record["game"]
    if game == SIE:
        return True
    if game in TOUTS:
        return record["schwarz"] and record["declarer_points"] == 120
    # Spieler bleibt Spieler: doublings never shift the 61 needed
    return record["declarer_points"] >= WIN_POINTS


def declaring_party(record: dict[str, Any]) -> tuple[int, ...]:
    if record["game"] == RUFSPIEL:
        return (record["declarer"], record["partner"])
    return (record["declarer"],)


def deal_value(record: dict[str, Any], tariff: dict[str, int]) -> int:
    """v, the value per opponent (games.md §2 formulas)."""
    game = record["game"]
    laufende = tariff["laufende"] * counted_laufende(game, record["laufende"])
    factor = 2 ** record["doublings"]
    if game in TOUTS:
        return (tariff["base_solo"] + laufende) * 2 * factor
    if game == SIE:
        return (tariff["base_solo"] + laufende) * 4 * factor
    base = tariff["base_rufspiel"] if game == RUFSPIEL else tariff["base_solo"]
    schneider = tariff["schneider"] if is_schneider(record["declarer_points"]) else 0
    schwarz = tariff["schwarz"] if record["schwarz"] else 0
    return (base + schneider + schwarz + laufende) * factor


# --------------------------------------------------------------------------- checks


_MISSING = object()


def _misplaced(name: str, game: str) -> str:
    """Why a field of some other game has no place in this one."""
    if game == PASSED:
        return _("A passed deal has no other fields.")
    if name == "suit":
        return _("Only a solo or a solo tout names a suit.")
    return _("Only a rufspiel has a partner and a called ace.")


def _check_seat(errors: Errors, name: str, value: Any, ctx: DealContext,
                active: list[int]) -> None:
    if value is _MISSING:
        errors.add(name, _("This field is required."))
    elif not is_int(value) or not 1 <= value <= ctx.players:
        errors.add(name, _("Must be a seat from 1 to %(players)s."), players=ctx.players)
    elif value not in active:
        errors.add(name, _("Seat %(seat)s deals this hand and sits out."), seat=value)


def _check_choice(errors: Errors, name: str, value: Any) -> None:
    """A required enum field, checked from its record description."""
    if value is _MISSING:
        errors.add(name, _("This field is required."))
    else:
        errors.extend(SchafkopfEngine.record_field(name).check(value))


def _read_int(errors: Errors, name: str, value: Any, high: int) -> int | None:
    """A whole number 0..high, or None after recording why not."""
    if value is _MISSING:
        errors.add(name, _("This field is required."))
    elif not is_int(value) or not 0 <= value <= high:
        errors.add(name, _("Must be a whole number from 0 to %(high)s."), high=high)
    else:
        return value
    return None


def _check_sie(errors: Errors, deal: dict[str, Any]) -> None:
    """A sie's declarer holds the eight top trumps, so it always takes every trick."""
    messages = {
        "declarer_points": _("A sie is always won with all 120 points."),
        "schwarz": _("A sie always takes every trick, so it is schwarz."),
        "laufende": _("A sie has exactly 8 laufende."),
    }
    for name, fixed in SIE_FIXED.items():
        value = deal.get(name, fixed)
        # a bool is no number, and 1 is no true: compare JSON types too
        if type(value) is not type(fixed) or value != fixed:
            errors.add(name, messages[name])


def _check_result(errors: Errors, deal: dict[str, Any], game: str) -> dict[str, Any]:
    """Points, schwarz, laufende and doublings of a played game."""
    if game == SIE:
        _check_sie(errors, deal)
        result: dict[str, Any] = dict(SIE_FIXED)
    else:
        points = _read_int(errors, "declarer_points", deal.get("declarer_points", _MISSING), 120)
        schwarz = deal.get("schwarz", False)
        if not isinstance(schwarz, bool):
            errors.add("schwarz", _("Must be true or false."))
        elif schwarz and points is not None and points not in (0, 120):
            errors.add("schwarz", _("Schwarz needs 0 or 120 points for the declaring party."))
        high = MAX_LAUFENDE_WENZ if game in WENZ_GAMES else MAX_LAUFENDE
        laufende = _read_int(errors, "laufende", deal.get("laufende", 0), high)
        result = {"declarer_points": points, "schwarz": schwarz, "laufende": laufende}
    result["doublings"] = _read_int(errors, "doublings", deal.get("doublings", 0), MAX_DOUBLINGS)
    return result


# --------------------------------------------------------------------------- the engine


# games.md §2, "Deal record"
PLAYED_GAMES = tuple(g for g in GAMES if g != PASSED)
RECORD = (
    RecordField("game", "enum", "The game played; passed when all passed.", values=GAMES,
                required=True, label=_("Game"),
                choice_labels=(_("Rufspiel"), _("Wenz"), _("Solo"), _("Wenz Tout"),
                               _("Solo Tout"), _("Sie"), _("thrown in"))),
    RecordField("declarer", "seat", "The Spielmacher.", nullable=True, label=_("Declarer"),
                applies=When(field="game", values=PLAYED_GAMES)),
    RecordField("partner", "seat", "Rufspiel only: the holder of the called ace.",
                nullable=True, label=_("Partner"),
                applies=When(field="game", values=(RUFSPIEL,))),
    RecordField("called_ace", "enum", "Rufspiel only: the called ace (never hearts).",
                values=CALLABLE_ACES, nullable=True, label=_("Called ace"),
                choice_labels=(_("Acorns"), _("Leaves"), _("Bells")),
                applies=When(field="game", values=(RUFSPIEL,))),
    RecordField("suit", "enum", "Solo and solo tout only: the trump suit.", values=SUITS,
                nullable=True, label=_("Solo suit"),
                choice_labels=(_("Acorns"), _("Leaves"), _("Hearts"), _("Bells")),
                applies=When(field="game", values=SUIT_GAMES)),
    RecordField("declarer_points", "int", "Card points of the declaring party.", low=0,
                high=120, nullable=True, label=_("Points"),
                applies=When(field="game", values=PLAYED_GAMES)),
    RecordField("schwarz", "bool", "One party took no trick.", nullable=True,
                label=_("Schwarz"), applies=When(field="game", values=PLAYED_GAMES)),
    RecordField("laufende", "int", "Consecutive top trumps held by one party.", low=0,
                high=MAX_LAUFENDE, nullable=True, label=_("Laufende"),
                applies=When(field="game", values=PLAYED_GAMES)),
    RecordField("doublings", "int", "Stoss, Re, Supra, Resupra in order.", low=0,
                high=MAX_DOUBLINGS, nullable=True, label=_("Doublings"),
                applies=When(field="game", values=PLAYED_GAMES)),
)


@register
class SchafkopfEngine(Engine):
    key = "schafkopf"
    name_de = "Schafkopf"
    name_en = "Bavarian Schafkopf"
    table_sizes = (4, 5)
    RECORD = RECORD
    preferred_table_size = 4
    figures = ("won", "lost")
    OPTIONS = {
        "tariff": TARIFF_OPTION,
        "round_deals": round_deals_option(32, MAX_ROUND_DEALS),
    }

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return rules["round_deals"]

    def active_seats(self, ctx: DealContext) -> list[int]:
        seats = list(range(1, ctx.players + 1))
        if ctx.players == 5:
            seats.remove(ctx.dealer)
        return seats

    def deal_place(self, number: int, players: int) -> Hashable:
        return (number, players)  # all of a deal's place but the deals before it

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        errors = Errors()
        if not check_keys(deal, (), ALL_FIELDS, errors):
            errors.raise_if_any()
        game = deal.get("game", _MISSING)
        _check_choice(errors, "game", game)
        if errors.has("game"):
            errors.raise_if_any()
        for name in deal:
            if name in ALL_FIELDS and name not in FIELDS[game]:
                errors.add(name, _misplaced(name, game))
        if game == PASSED:
            errors.raise_if_any()
            return {"game": PASSED}

        record: dict[str, Any] = {"game": game, "declarer": deal.get("declarer", _MISSING)}
        active = self.active_seats(ctx)
        _check_seat(errors, "declarer", record["declarer"], ctx, active)
        if game == RUFSPIEL:
            record["partner"] = deal.get("partner", _MISSING)
            record["called_ace"] = deal.get("called_ace", _MISSING)
            _check_seat(errors, "partner", record["partner"], ctx, active)
            if not errors.has("partner") and record["partner"] == record["declarer"]:
                errors.add("partner", _("The partner cannot be the declarer."))
            if record["called_ace"] == "hearts":
                errors.add("called_ace", _("The hearts ace cannot be called."))
            else:
                _check_choice(errors, "called_ace", record["called_ace"])
        if game in SUIT_GAMES:
            record["suit"] = deal.get("suit", _MISSING)
            _check_choice(errors, "suit", record["suit"])
        record.update(_check_result(errors, deal, game))
        errors.raise_if_any()
        return record

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        scores = [0] * ctx.players
        if record["game"] == PASSED:
            return ScoredDeal(record, scores)
        game = record["game"]
        value = deal_value(record, tariff_of(ctx.rules))
        won = declaring_party_won(record)
        party = declaring_party(record)
        # each opponent pays or collects v; a single declarer settles with all three
        share = value if game == RUFSPIEL else 3 * value
        for seat in self.active_seats(ctx):
            if seat in party:
                scores[seat - 1] = share if won else -share
            else:
                scores[seat - 1] = -value if won else value
        return ScoredDeal(record, scores, {
            "value": value,
            "won": won,
            "schneider": game not in TOUTS and game != SIE
            and is_schneider(record["declarer_points"]),
            "laufende": counted_laufende(game, record["laufende"]),
        })

    INSIGHT_LABELS = {"declarer": _("Declarer"), "partner": _("Partner"),
                      "opponent": _("Opponent"),
                      **dict(zip(GAMES, RECORD[0].choice_labels, strict=False))}

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        """games.md §11: by game as declarer or partner, won and lost."""
        game = record["game"]
        if game == PASSED:
            return {seat: Part() for seat in active}
        won = declaring_party_won(record)
        parts = {seat: Part("opponent", won=not won) for seat in active}
        parts[record["declarer"]] = Part("declarer", game, won)
        if game == RUFSPIEL:
            parts[record["partner"]] = Part("partner", game, won, counted_as="partner")
        return parts

    def sheet_totals(self, deals: list[ScoredDeal], players: int,
                     rules: dict[str, Any]) -> list[dict[str, Any]]:
        rows = super().sheet_totals(deals, players, rules)
        for row in rows:
            row.update(won=0, lost=0)
        for deal in deals:
            if deal.record["game"] == PASSED:
                continue
            outcome = "won" if declaring_party_won(deal.record) else "lost"
            for seat in declaring_party(deal.record):
                rows[seat - 1][outcome] += 1
        return rows

    def rank_key(self, row: dict[str, Any]) -> tuple:
        return (-row["score"], -row["won"])
