"""Skat scoring per the International Skat Order (ISkO) and games.md §1.

Terms:

- declarer (*Alleinspieler*): the seat that won the auction and plays alone against
  the other two active seats.
- active seats: the three seats that play a deal. At a 4-table the dealer sits out;
  the dealer of deal k is seat ((k-1) mod n) + 1.
- game: ``diamonds`` ``hearts`` ``spades`` ``clubs`` (suit games), ``grand`` or ``null``.
- matadors: the run of top trumps (jacks, then the trump suit) held "mit" (+k) or
  played "ohne" (−k).
- multiplier (*Spielwert-Stufen*): |matadors| + 1 (game) + hand + schneider + schneider
  announced + schwarz + schwarz announced + ouvert; the game value of a suit or grand
  game is base value × multiplier. Null games have fixed values.
- levels: schneider (a party has ≤ 30 card points), schwarz (a party took no trick);
  an announced level counts in the value whether or not it was reached.
- overbid (*überreizt*): the bid exceeds the value of the game played; the game is lost.
- passed deal (*eingepasst*): nobody bid; it counts as a deal and scores nothing, or,
  with the ``ramsch`` option, is played as Ramsch.
- series (*Serie*): one sheet, 36 deals at a 3-table and 48 at a 4-table by default.
- Seeger-Fabian (*Leistungsbewertung*): series score = game points + 50 per won game −
  50 per lost game + B for every game another declarer at the table lost (B = 40 at a
  3-table, 30 at a 4-table).

Choices where games.md is silent (each is a test):

- A Ramsch tie: every tied seat scores minus its own card points; the Skat's points count
  for nobody. Ramsch scores are game points but not declarer games (no ±50, no B), so a
  summary entry accepts game points without declarer games when ``ramsch`` is on.
- Ramsch ``points`` may list the active seats only, or every seat with the 4-table
  dealer's entry null (or 0); the record keeps the every-seat form with null.
- A Skat holds two cards, so ``skat_points`` is 0..22.
- ``false`` for a field that does not apply (``schneider`` on a null game, ``kontra``
  without the option, ``ramsch`` on a declared game) is accepted; ``true`` is an error.
  ``null`` means "not given" for the integer fields ``matadors``, ``bid`` and
  ``declarer_points``; bool fields must be JSON bools.
- Grand ouvert at base 36 (option ``grand_ouvert_base``) adds its reachable values
  36 × 8..11 to the legal bids.
- A disagreement between ``declarer_points`` and the flags is reported on
  ``declarer_points``; a won game that was overbid or missed an announcement is reported
  on ``won``. List fields are named by 0-based index (``points.1``, ``seats.2.won``).
- ``schwarz`` with ``declarer_points``: 120 when the declarer took every trick, 0..22
  when he took none, as the Skat stays his (games.md §1).
- A won game reached the levels it announced: ``schneider``/``schwarz`` left out of the
  record of a won game with that announcement (or an ouvert game) are taken as reached;
  only an explicit ``false`` is a missed announcement (and then ``won: true`` is refused).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from games.engines.base import (
    Choice,
    DealContext,
    Engine,
    Errors,
    LeaguePlay,
    Option,
    Part,
    RecordField,
    ScoredDeal,
    When,
    _,
    dealer_of,
    is_int,
    pgettext,
    register,
    unknown_fields,
    user_error,
)

SUIT_BASES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}
GRAND_BASE = 24
GAMES = (*SUIT_BASES, "grand", "null")
# (hand, ouvert) → value of a null game
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
MAX_MATADORS = {"suit": 11, "grand": 4}

DECLARER_FIELDS = frozenset({
    "passed", "ramsch", "declarer", "game", "matadors", "hand", "schneider",
    "schneider_announced", "schwarz", "schwarz_announced", "ouvert", "won", "bid",
    "declarer_points", "kontra", "re",
})
PASSED_FIELDS = frozenset({"passed", "ramsch"})
FLAG_FIELDS = ("hand", "ouvert", "schneider", "schneider_announced", "schwarz",
               "schwarz_announced", "won", "kontra", "re")
NUMBER_FIELDS = ("matadors", "bid", "declarer_points")
RAMSCH_FIELDS = frozenset({"ramsch", "passed", "points", "skat_points", "jungfrau",
                           "durchmarsch"})
SUMMARY_FIELDS = ("game_points", "won", "lost")
# a summary's bounds: its game points (a seat's sum over a series) lie within
# ±MAX_SUMMARY_GAME_POINTS, won and lost within the series length; the entries read
MAX_SUMMARY_GAME_POINTS = 1_000_000
MAX_SUMMARY_ENTRIES = 16

WIN_POINTS = 61
SKAT_MAX_POINTS = 22  # two cards, at most two aces
DURCHMARSCH_SCORE = 120
WON_BONUS = 50
# A series is one paper list (36 or 48 deals); two lists back to back still fit.
MAX_SERIES = 96


def _legal_bids(grand_ouvert_base: int) -> frozenset[int]:
    bids = {base * m for base in SUIT_BASES.values() for m in range(2, 19)}
    bids |= {GRAND_BASE * m for m in range(2, 12)}
    bids |= set(NULL_VALUES.values())
    if grand_ouvert_base != GRAND_BASE:
        # a grand ouvert has at least mit/ohne 1, game, hand, four levels and ouvert: 8
        bids |= {grand_ouvert_base * m for m in range(8, 12)}
    return frozenset(bids)


LEGAL_BIDS = {24: _legal_bids(24), 36: _legal_bids(36)}


def opponent_bonus(players: int) -> int:
    """B of the Seeger-Fabian system: what each opponent gets for a lost game."""
    return 40 if players == 3 else 30


# --------------------------------------------------------------------------- field readers

_MISSING = object()


def _read_bool(deal: dict, name: str, errors: Errors) -> bool | None:
    """The bool under ``name``, or None when absent or wrong (the error is recorded)."""
    value = deal.get(name, _MISSING)
    if value is _MISSING:
        return None
    if not isinstance(value, bool):
        errors.add(name, _("Must be true or false."))
        return None
    return value


def _read_int(deal: dict, name: str, errors: Errors) -> int | None:
    """The int under ``name``; None when absent or null (both mean "not given")."""
    value = deal.get(name)
    if value is None:
        return None
    if not is_int(value):
        errors.add(name, _("Must be a whole number."))
        return None
    return value


def _require(deal: dict, name: str, errors: Errors) -> None:
    if deal.get(name) is None and not errors.has(name):
        errors.add(name, _("This field is required."))


def _check_keys(deal: dict, allowed: frozenset[str], errors: Errors, message: str) -> None:
    for key in deal:
        if key not in allowed:
            name = str(key)
            if key in DECLARER_FIELDS or key in RAMSCH_FIELDS:
                errors.add(name, message)
            else:
                errors.add(name, _("Unknown field “%(name)s”."), name=name)


def _rule(rules: dict[str, Any], name: str) -> Any:
    """An option from merged rules, tolerating a context built without defaults."""
    return rules.get(name, SkatEngine.OPTIONS[name].default)


# --------------------------------------------------------------------------- game values


def base_value(record: dict[str, Any], rules: dict[str, Any]) -> int:
    game = record["game"]
    if game == "grand":
        return _rule(rules, "grand_ouvert_base") if record["ouvert"] else GRAND_BASE
    return SUIT_BASES[game]


def multiplier(record: dict[str, Any]) -> int:
    """Multiplier of a normalised suit or grand record; announced levels always count."""
    schneider_ann = record["schneider_announced"]
    schwarz_ann = record["schwarz_announced"]
    return (abs(record["matadors"]) + 1 + record["hand"]
            + (record["schneider"] or schneider_ann) + schneider_ann
            + (record["schwarz"] or schwarz_ann) + schwarz_ann + record["ouvert"])


def declared_value(record: dict[str, Any], rules: dict[str, Any]) -> int:
    """The value of the game as played, before any overbid."""
    if record["game"] == "null":
        return NULL_VALUES[(record["hand"], record["ouvert"])]
    return base_value(record, rules) * multiplier(record)


def game_value(record: dict[str, Any], rules: dict[str, Any]) -> tuple[int, bool]:
    """(value, overbid). An overbid suit or grand game is worth the smallest multiple of
    its base value reaching the bid (ISkO 5.4); an overbid null game keeps its value."""
    value = declared_value(record, rules)
    bid = record.get("bid")
    if bid is None or bid <= value:
        return value, False
    if record["game"] == "null":
        return value, True
    base = base_value(record, rules)
    return -(-bid // base) * base, True


def missed_announcement(record: dict[str, Any]) -> str | None:
    """The announced level that was not reached ("schwarz", "schneider") or None."""
    if record["game"] == "null":
        return None
    if record["schwarz_announced"] and not record["schwarz"]:
        return "schwarz"
    if record["schneider_announced"] and not record["schneider"]:
        return "schneider"
    return None


# --------------------------------------------------------------------------- the engine


def _flag(name: str, meaning: str, label: str, **more: Any) -> RecordField:
    return RecordField(name, "bool", meaning, label=label, **more)


MAX_BID = max(max(bids) for bids in LEGAL_BIDS.values())
TRUMP_GAMES = (*SUIT_BASES, "grand")
KONTRA_RE = When(rule="kontra_re", message=_("Kontra and Re are not played under these rules."))


def _ramsch(name: str, kind: str, meaning: str, label: str, **more: Any) -> RecordField:
    """A field of a Ramsch deal: only under the house rule ``ramsch``."""
    return RecordField(name, kind, meaning, label=label, applies=When(
        rule="ramsch", message=_("Ramsch is not played under these rules.")), **more)


# games.md §1, "Deal record" (and the Ramsch fields of the house rule ``ramsch``)
RECORD = (
    _flag("passed", "All passed (eingepasst); no other field but ramsch.", _("passed")),
    _ramsch("ramsch", "bool", "Played as Ramsch after all passed (house rule ramsch).",
            _("Ramsch")),
    RecordField("declarer", "seat", "The declarer (Alleinspieler); never the dealer at a "
                "4-table.", label=_("Declarer")),
    RecordField("game", "enum", "Suit, grand or null.", values=GAMES, label=_("Game"),
                choice_labels=(_("diamonds"), _("hearts"), _("spades"),
                               pgettext("card suit", "clubs"), _("Grand"), _("Null"))),
    RecordField("matadors", "int", "Suit and grand only: +k is 'with k', -k 'without k'.",
                low=-MAX_MATADORS["suit"], high=MAX_MATADORS["suit"], nullable=True,
                label=_("with / without (−)"), widget="stepper",
                applies=When(field="game", values=TRUMP_GAMES)),
    _flag("hand", "Hand game.", _("hand")),
    _flag("schneider", "The game ended Schneider.", _("Schneider"),
          applies=When(field="game", values=TRUMP_GAMES)),
    _flag("schneider_announced", "Schneider announced (hand games only).",
          _("Schneider announced"), applies=When(field="hand", values=(True,))),
    _flag("schwarz", "One party took no trick; implies schneider.", _("Schwarz"),
          applies=When(field="game", values=TRUMP_GAMES)),
    _flag("schwarz_announced", "Schwarz announced (hand games only).",
          _("Schwarz announced"), applies=When(field="hand", values=(True,))),
    _flag("ouvert", "Open game.", _("ouvert")),
    _flag("won", "The final result by the rules (an overbid game is lost).", _("Result"),
          widget="result"),
    RecordField("bid", "int", "The final bid (Reizwert); a legal bid value.", low=18,
                high=MAX_BID, nullable=True, label=_("Bid")),
    RecordField("declarer_points", "int", "The declarer's card points, Skat included.",
                low=0, high=120, nullable=True, label=_("Declarer's card points")),
    _flag("kontra", "Kontra (house rule kontra_re).", _("Kontra"), applies=KONTRA_RE),
    _flag("re", "Re after a Kontra (house rule kontra_re).", _("Re"), applies=KONTRA_RE),
    _ramsch("points", "ints", "Ramsch: each seat's card points in seat order (the "
            "dealer of a 4-table empty), or the players in the deal only.",
            _("Card points of each player (the dealer at a 4-table stays empty)"), low=0,
            high=120, item_nullable=True, min_items=3, max_items=4, nullable=True),
    _ramsch("skat_points", "int", "Ramsch: the card points in the Skat.",
            _("Card points in the skat"), low=0, high=SKAT_MAX_POINTS, nullable=True),
    _ramsch("jungfrau", "bool", "Ramsch: a player took no trick (Jungfrau).",
            _("Jungfrau (a player took no trick)")),
    _ramsch("durchmarsch", "seat", "Ramsch: the seat that took every trick.",
            _("Durchmarsch by"), nullable=True),
)


def _series_option(players: int, usual: int, table_de: str) -> Option:
    """The deals of a series at a table of ``players`` (``table_de``: "Dreiertisch")."""
    return Option(
        usual, "int", min=1, max=MAX_SERIES,
        label_en=f"Deals per series at a table of {players}",
        label_de=f"Spiele einer Serie am {table_de}",
        help_en=f"Deals in a series at a table of {players}: 1 to {MAX_SERIES} "
                f"(usually {usual}).",
        help_de=f"Spiele einer Serie am {table_de}: 1 bis {MAX_SERIES} (üblich {usual}).")


@register
class SkatEngine(Engine):
    key = "skat"
    summary_game_points_bound = MAX_SUMMARY_GAME_POINTS  # ± a summary seat's game points
    name_de = "Skat"
    name_en = "Skat"
    # games.md §9.1: the federation's league
    league = LeaguePlay(preset="dskv", group_sizes=(2, 5), may_miss=1)
    table_sizes = (3, 4)
    RECORD = RECORD
    preferred_table_size = 4
    standing_order = "desc"
    figures = ("game_points", "won", "lost")
    team_tie_break = ("won", "lost")
    supports_summary = True

    OPTIONS = {
        "kontra_re": Option(
            False, "bool", label_en="Kontra and Re", label_de="Kontra und Re",
            help_en="Deals may carry Kontra (score × 2) and Re (× 4); ±50 and B unchanged.",
            help_de="Spiele dürfen Kontra (Wert × 2) und Re (× 4) tragen; ±50 und B "
                    "bleiben gleich."),
        "lost_hand_single": Option(
            False, "bool", label_en="Lost hand games count single",
            label_de="Verlorene Handspiele einfach",
            help_en="Lost hand games are not doubled (the rule before 1999).",
            help_de="Verlorene Handspiele werden nicht verdoppelt (Regel vor 1999)."),
        "grand_ouvert_base": Option(
            24, "int", label_en="Base value of grand ouvert",
            label_de="Grundwert von Grand ouvert",
            choices=(Choice(24, "24 (ISkO since 1999)", "24 (ISkO seit 1999)"),
                     Choice(36, "36 (before 1999)", "36 (vor 1999)")),
            help_en="Base value of grand ouvert: 24, or 36 (before 1999).",
            help_de="Grundwert von Grand ouvert: 24 oder 36 (vor 1999)."),
        "ramsch": Option(
            False, "bool", label_en="Ramsch", label_de="Ramsch",
            help_en="A deal everyone passed may be played as Ramsch.",
            help_de="Ein eingepasstes Spiel darf als Ramsch gespielt werden."),
        "scoring": Option(
            "seeger_fabian", "str", label_en="Series score", label_de="Serienwertung",
            choices=(Choice("seeger_fabian", "Seeger-Fabian", "Seeger-Fabian"),
                     Choice("plain", "Game points only", "Nur Spielpunkte")),
            help_en="Series score: Seeger-Fabian (game points ±50 per game, plus B for "
                    "other declarers' lost games) or plain game points.",
            help_de="Serienwertung: Seeger-Fabian (Spielpunkte ±50 je Spiel, dazu B für "
                    "verlorene Spiele der anderen) oder nur Spielpunkte."),
        "series_deals_3": _series_option(3, 36, "Dreiertisch"),
        "series_deals_4": _series_option(4, 48, "Vierertisch"),
    }

    # ---- tables and sheets

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return _rule(rules, "series_deals_3" if players == 3 else "series_deals_4")

    def active_seats(self, ctx: DealContext) -> list[int]:
        seats = range(1, ctx.players + 1)
        if ctx.players == 4:
            return [s for s in seats if s != ctx.dealer]
        return list(seats)

    def deal_place(self, number: int, players: int) -> Hashable:
        # a deal reads its place only through the dealer, who sits out at a 4-table
        return (players, dealer_of(number, players) if players == 4 else 0)

    # ---- validation

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        if not isinstance(deal, dict):
            raise user_error("deal", _("A deal must be an object of fields."))
        errors = Errors()
        passed = _read_bool(deal, "passed", errors)
        ramsch = _read_bool(deal, "ramsch", errors)
        errors.raise_if_any()  # the kind of deal is unknown until these two are sound
        if ramsch:
            self.check_applies(deal, ctx, errors, ("ramsch",))
            errors.raise_if_any()
            if passed is False:
                raise user_error("passed", _("A Ramsch deal is a passed deal."))
            return self._validate_ramsch(deal, ctx)
        if passed:
            _check_keys(deal, PASSED_FIELDS, errors, _("Not allowed in a passed deal."))
            errors.raise_if_any()
            return {"passed": True}
        return self._validate_declarer_game(deal, ctx)

    def _validate_declarer_game(self, deal: dict, ctx: DealContext) -> dict[str, Any]:
        errors = Errors()
        _check_keys(deal, DECLARER_FIELDS, errors, _("Not allowed in a declared game."))
        record = self._read_declarer_fields(deal, ctx, errors)
        # every check that the readable fields allow runs, so that one answer names every
        # offending field (a bad declarer and impossible matadors both)
        if record["game"] is not None and not errors.has("game"):
            if record["game"] == "null":
                self._check_null(deal, record, errors)
            else:
                self._check_suit_or_grand(deal, record, errors)
        self._check_bid(record, ctx, errors)
        errors.raise_if_any()
        self._check_result(record, ctx, errors)
        errors.raise_if_any()
        return record

    def _read_declarer_fields(self, deal: dict, ctx: DealContext,
                              errors: Errors) -> dict[str, Any]:
        """Type checks of every field; returns the record with defaults filled in."""
        # the readers of _read_bool and _read_int, inlined for the usual values (a JSON
        # whole number, true or false): this runs for every deal entered or imported
        get = deal.get
        declarer = get("declarer")
        if declarer is not None:
            if type(declarer) is not int:
                declarer = _read_int(deal, "declarer", errors)
            if declarer is None:
                pass
            elif not 1 <= declarer <= ctx.players:
                errors.add("declarer", _("Must be a seat from 1 to %(players)s."),
                           players=ctx.players)
            elif ctx.players == 4 and declarer == ctx.dealer:  # not in active_seats
                errors.add("declarer", _("The dealer sits out this deal and cannot declare."))
        game = get("game")
        if game is not None and (not isinstance(game, str) or game not in GAMES):
            errors.add("game", _("Must be one of: %(choices)s."), choices=", ".join(GAMES))
        flags = []
        for name in FLAG_FIELDS:
            value = get(name, False)  # left out: false
            if value is not True and value is not False:
                errors.add(name, _("Must be true or false."))
                value = False
            flags.append(value)
        record = {"declarer": declarer, "game": game}
        for name in NUMBER_FIELDS:
            value = get(name)
            record[name] = value if value is None or type(value) is int \
                else _read_int(deal, name, errors)
        record.update(zip(FLAG_FIELDS, flags, strict=True))
        for name in ("declarer", "game", "won"):
            if get(name) is None:
                _require(deal, name, errors)
        if record["kontra"] or record["re"]:
            self.check_applies(record, ctx, errors, ("kontra", "re"))
            if record["re"] and not record["kontra"] and not errors.has("re"):
                errors.add("re", _("Re needs Kontra."))
        return record

    @staticmethod
    def _check_null(deal: dict, record: dict[str, Any], errors: Errors) -> None:
        if record["matadors"] is not None:
            errors.add("matadors", _("A null game has no matadors."))
        for name in ("schneider", "schneider_announced", "schwarz", "schwarz_announced"):
            if record[name]:
                errors.add(name, _("A null game has no Schneider or Schwarz."))
        if record["declarer_points"] is not None:
            errors.add("declarer_points", _("A null game is not decided by card points."))

    @staticmethod
    def _check_suit_or_grand(deal: dict, record: dict[str, Any], errors: Errors) -> None:
        matadors = record["matadors"]
        top = MAX_MATADORS["grand" if record["game"] == "grand" else "suit"]
        if matadors is None:
            _require(deal, "matadors", errors)
        elif not 1 <= abs(matadors) <= top:
            errors.add("matadors", _("Must be 1 to %(max)s (mit) or −1 to −%(max)s (ohne)."),
                       max=top)
        if record["ouvert"]:
            # an open suit or grand game is a hand game announcing schwarz (ISkO 5.2)
            if deal.get("hand") is False:
                errors.add("hand", _("An open suit or grand game is always a hand game."))
            for name in ("schneider_announced", "schwarz_announced"):
                if deal.get(name) is False:
                    errors.add(name, _("An open suit or grand game always announces "
                                       "Schneider and Schwarz."))
            record.update(hand=True, schneider_announced=True, schwarz_announced=True)
        if record["schwarz_announced"]:
            if deal.get("schneider_announced") is False:
                errors.add("schneider_announced",
                           _("Announcing Schwarz announces Schneider too."))
            record["schneider_announced"] = True
        if record.get("won") is True:
            # A won game reached what it announced: a level left out of the record is
            # taken as reached; only an explicit false is a missed announcement.
            for level in ("schwarz", "schneider"):
                if record[f"{level}_announced"] and level not in deal:
                    record[level] = True
        if record["schwarz"]:
            if deal.get("schneider") is False:
                errors.add("schneider", _("Schwarz is always Schneider too."))
            record["schneider"] = True
        if not record["hand"]:
            for name in ("schwarz_announced", "schneider_announced"):
                if record[name]:
                    errors.add(name, _("Only a hand game can announce Schneider or Schwarz."))
                    break
        points = record["declarer_points"]
        if points is not None and not 0 <= points <= 120:
            errors.add("declarer_points", _("Card points are 0 to 120."))

    @staticmethod
    def _check_bid(record: dict[str, Any], ctx: DealContext, errors: Errors) -> None:
        bid = record["bid"]
        legal = LEGAL_BIDS[_rule(ctx.rules, "grand_ouvert_base")]
        if bid is not None and bid not in legal:
            errors.add("bid", _("%(bid)s is not a legal bid value."), bid=bid)

    @staticmethod
    def _check_result(record: dict[str, Any], ctx: DealContext, errors: Errors) -> None:
        """Won, overbid, announcements and card points must tell one story."""
        value, overbid = game_value(record, ctx.rules)
        missed = missed_announcement(record)
        if record["won"] and overbid:
            errors.add("won", _("Overbid: the bid %(bid)s is higher than the game value "
                                "%(value)s, so the game is lost."),
                       bid=record["bid"], value=declared_value(record, ctx.rules))
        elif record["won"] and missed == "schwarz":
            errors.add("won", _("Schwarz was announced but not reached, so the game is lost."))
        elif record["won"] and missed == "schneider":
            errors.add("won", _("Schneider was announced but not reached, so the game is "
                                "lost."))
        points = record["declarer_points"]
        if points is None:
            return
        schneider = points >= 90 or points <= 30
        if record["schneider"] and not schneider:
            errors.add("declarer_points", _("%(points)s card points are not Schneider (that "
                                            "needs 90 or more, or 30 or less)."), points=points)
        elif schneider and not record["schneider"]:
            errors.add("declarer_points", _("%(points)s card points are Schneider (90 or "
                                            "more, or 30 or less)."), points=points)
        elif record["schwarz"] and points != 120 and points > SKAT_MAX_POINTS:
            # the Skat stays the declarer's: played schwarz, he may still hold 0-22 in it
            errors.add("declarer_points", _("Schwarz means 120 card points when the declarer "
                                            "took every trick, 0 to 22 (the Skat) when he "
                                            "took none."))
        elif record["won"] and points < WIN_POINTS:
            errors.add("declarer_points", _("A game is won only with 61 card points or "
                                            "more."))
        elif not record["won"] and points >= WIN_POINTS and not overbid and not missed:
            errors.add("declarer_points", _("With %(points)s card points the game is won "
                                            "(it was neither overbid nor short of an "
                                            "announcement)."), points=points)

    # ---- Ramsch

    def _validate_ramsch(self, deal: dict, ctx: DealContext) -> dict[str, Any]:
        errors = Errors()
        _check_keys(deal, RAMSCH_FIELDS, errors, _("Not allowed in a Ramsch deal."))
        active = self.active_seats(ctx)
        points = self._read_ramsch_points(deal.get("points"), active, ctx, errors)
        skat = _read_int(deal, "skat_points", errors)
        for name in ("points", "skat_points"):
            _require(deal, name, errors)
        if skat is not None and not 0 <= skat <= SKAT_MAX_POINTS:
            errors.add("skat_points", _("The Skat holds 0 to 22 card points."))
        jungfrau = bool(_read_bool(deal, "jungfrau", errors))
        durchmarsch = _read_int(deal, "durchmarsch", errors)
        if durchmarsch is not None and durchmarsch not in active:
            errors.add("durchmarsch", _("Must be a seat playing this deal."))
        errors.raise_if_any()
        record = {"ramsch": True, "points": points, "skat_points": skat,
                  "jungfrau": jungfrau, "durchmarsch": durchmarsch}
        self._check_ramsch_points(record, active, errors)
        errors.raise_if_any()
        return record

    @staticmethod
    def _read_ramsch_points(value: Any, active: list[int], ctx: DealContext,
                            errors: Errors) -> list[int | None] | None:
        """Every seat's card points in seat order, None for a seat out of the deal."""
        if value is None:
            return None
        if not isinstance(value, list) or len(value) not in (len(active), ctx.players):
            errors.add("points", _("Must list the card points of the %(count)s players "
                                   "in the deal."), count=len(active))
            return None
        if len(value) == ctx.players:
            pairs = list(enumerate(value, start=1))
        else:
            pairs = list(zip(active, value, strict=True))
        out: list[int | None] = [None] * ctx.players
        for index, (seat, points) in enumerate(pairs):
            where = f"points.{index}"
            if seat not in active:
                if points not in (None, 0) or isinstance(points, bool):
                    errors.add(where, _("The dealer sits out: leave the dealer's points "
                                        "empty."))
            elif not is_int(points):
                errors.add(where, _("Must be a whole number."))
            elif not 0 <= points <= 120:
                errors.add(where, _("Card points are 0 to 120."))
            else:
                out[seat - 1] = points
        return out

    @staticmethod
    def _check_ramsch_points(record: dict[str, Any], active: list[int],
                             errors: Errors) -> None:
        points, skat = record["points"], record["skat_points"]
        total = sum(points[s - 1] for s in active) + skat
        if total != 120:
            errors.add("points", _("The points and the Skat must add up to 120 (now "
                                   "%(total)s)."), total=total)
            return
        durchmarsch = record["durchmarsch"]
        if durchmarsch is not None:
            if any(points[s - 1] for s in active if s != durchmarsch):
                errors.add("durchmarsch", _("A Durchmarsch takes every trick: the others "
                                            "have 0 card points."))
            if record["jungfrau"]:
                errors.add("jungfrau", _("A Durchmarsch has no Jungfrau."))
        elif record["jungfrau"]:
            losers = ramsch_losers(record, active)
            if not any(points[s - 1] == 0 for s in active if s not in losers):
                errors.add("jungfrau", _("Jungfrau needs another player without a trick "
                                         "(0 card points)."))

    # ---- scoring

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        scores = [0] * ctx.players
        if record.get("passed"):
            return ScoredDeal(record, scores, {"passed": True})
        if record.get("ramsch"):
            return self._score_ramsch(record, ctx)
        value, overbid = game_value(record, ctx.rules)
        scores[record["declarer"] - 1] = deal_score(record, value, ctx.rules)
        return ScoredDeal(record, scores, {
            "declarer": record["declarer"], "game": record["game"], "value": value,
            "won": record["won"], "overbid": overbid})

    def _score_ramsch(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        scores = [0] * ctx.players
        active = self.active_seats(ctx)
        if record["durchmarsch"] is not None:
            scores[record["durchmarsch"] - 1] = DURCHMARSCH_SCORE
            return ScoredDeal(record, scores, {"ramsch": True, "losers": []})
        losers = ramsch_losers(record, active)
        factor = 2 if record["jungfrau"] else 1
        # the Skat goes to a single loser only; tied losers keep to their own points
        skat = record["skat_points"] if len(losers) == 1 else 0
        for seat in losers:
            scores[seat - 1] = -(record["points"][seat - 1] + skat) * factor
        return ScoredDeal(record, scores, {"ramsch": True, "losers": losers})

    # ---- statistics (games.md §11)

    INSIGHT_LABELS = {"declarer": _("Declarer"), "defender": _("Defender"),
                      "suit": _("Suit games"), "grand": _("Grand games"),
                      "null": _("Null games"), "ramsch": _("Ramsch")}

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        if record.get("passed"):
            return {seat: Part() for seat in active}
        if record.get("ramsch"):
            if record["durchmarsch"] is not None:
                losers = [seat for seat in active if seat != record["durchmarsch"]]
            else:
                losers = ramsch_losers(record, list(active))
            return {seat: Part(kind="ramsch", won=seat not in losers, counted_as="played")
                    for seat in active}
        won = record["won"]
        kind = record["game"] if record["game"] in ("grand", "null") else "suit"
        return {seat: Part("declarer", kind, won) if seat == record["declarer"]
                else Part("defender", won=not won) for seat in active}

    # ---- totals

    def sheet_totals(self, deals: list[ScoredDeal], players: int,
                     rules: dict[str, Any]) -> list[dict[str, Any]]:
        # each seat's column summed in C: this runs for every sheet of an import
        game_points = [sum(column) for column in zip(*[d.scores for d in deals],
                                                     strict=True)] or [0] * players
        won = [0] * players
        lost = [0] * players
        for deal in deals:
            record = deal.record
            declarer = record.get("declarer")
            if declarer is not None:
                (won if record["won"] else lost)[declarer - 1] += 1
        return totals_rows(game_points, won, lost, players, rules)

    def rank_key(self, row: dict[str, Any]) -> tuple:
        return (-row["score"], -row["won"], row["lost"])

    # ---- sheet summary

    def summary_totals(self, seats: Any, players: Any, rules: Any = None) -> list[dict[str, Any]]:
        opts = self.options(rules)
        if not is_int(players):
            raise user_error("players", _("Must be a whole number."))
        self.check_table(players, opts)
        if not isinstance(seats, list):
            raise user_error("seats", _("The summary needs one entry per seat (%(players)s)."),
                             players=players)
        errors = Errors()
        if len(seats) != players:
            errors.add("seats", _("The summary needs one entry per seat (%(players)s)."),
                       players=players)
        length = self.sheet_length(players, opts)
        # the entries are checked even when their number is wrong (one answer names every
        # offending field); a list far too long is not read entry by entry
        figures = [self._read_summary_seat(i, seat, opts, length, errors)
                   for i, seat in enumerate(seats[:MAX_SUMMARY_ENTRIES])]
        # the games of the seats read so far: too many is said with the other errors
        games = sum(f.get("won", 0) + f.get("lost", 0) for f in figures)
        if games > length:
            errors.add("seats", _("A series has at most %(length)s deals, the summary "
                                  "counts %(games)s games."), length=length, games=games)
        errors.raise_if_any()
        return totals_rows([f["game_points"] for f in figures], [f["won"] for f in figures],
                           [f["lost"] for f in figures], players, opts)

    @staticmethod
    def _read_summary_seat(index: int, seat: Any, opts: dict[str, Any], length: int,
                           errors: Errors) -> dict[str, int]:
        where = f"seats.{index}"
        if not isinstance(seat, dict):
            errors.add(where, _("Each seat's entry must be an object."))
            return {}
        unknown_fields(errors, where, seat, SUMMARY_FIELDS)
        out: dict[str, int] = {}
        for name in SUMMARY_FIELDS:
            value = seat.get(name)
            if value is None:
                errors.add(f"{where}.{name}", _("This field is required."))
            elif not is_int(value):
                errors.add(f"{where}.{name}", _("Must be a whole number."))
            elif name != "game_points" and not 0 <= value <= length:
                errors.add(f"{where}.{name}", _("Must be a whole number from 0 to %(high)s."),
                           high=length)
            elif name == "game_points" and abs(value) > MAX_SUMMARY_GAME_POINTS:
                errors.add(f"{where}.{name}", _("Must be a whole number from %(low)s to "
                                                "%(high)s."),
                           low=-MAX_SUMMARY_GAME_POINTS, high=MAX_SUMMARY_GAME_POINTS)
            else:
                out[name] = value
        if len(out) == len(SUMMARY_FIELDS) and out["won"] + out["lost"] == 0 \
                and out["game_points"] != 0 and not opts["ramsch"]:
            # game points come only from declarer games (and Ramsch, when played)
            errors.add(f"{where}.game_points",
                       _("A seat without declarer games has 0 game points."))
        return out


def deal_score(record: dict[str, Any], value: int, rules: dict[str, Any]) -> int:
    """The declarer's score: +value when won, −2 × value when lost (−1 × for a lost
    hand game under ``lost_hand_single``), then × 2 for Kontra and × 4 for Re."""
    if record["won"]:
        score = value
    elif record["hand"] and _rule(rules, "lost_hand_single"):
        score = -value
    else:
        score = -2 * value
    if record["re"]:
        return score * 4
    return score * 2 if record["kontra"] else score


def ramsch_losers(record: dict[str, Any], active: list[int]) -> list[int]:
    """The active seats holding the most card points (all of them on a tie)."""
    points = record["points"]
    most = max(points[s - 1] for s in active)
    return [s for s in active if points[s - 1] == most]


def totals_rows(game_points: list[int], won: list[int], lost: list[int], players: int,
                rules: dict[str, Any]) -> list[dict[str, Any]]:
    """Series totals per seat, scored by Seeger-Fabian or plain game points."""
    seeger_fabian = _rule(rules, "scoring") == "seeger_fabian"
    bonus = opponent_bonus(players)
    all_lost = sum(lost)
    rows = []
    for i in range(players):
        score = game_points[i]
        if seeger_fabian:
            score += WON_BONUS * (won[i] - lost[i]) + bonus * (all_lost - lost[i])
        rows.append({"seat": i + 1, "score": score, "game_points": game_points[i],
                     "won": won[i], "lost": lost[i]})
    return rows


def seeger_fabian_lines(totals: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """The Seeger-Fabian rows at the foot of a paper Skatliste, per seat: game points,
    won and lost games, +50 per won and −50 per lost game, the other declarers' lost
    games and what they bring (× 40 at a 3-table, × 30 at a 4-table), and the score —
    the same sum as ``totals_rows``."""
    bonus = opponent_bonus(players)
    all_lost = sum(row["lost"] for row in totals)
    lines = []
    for row in totals:
        others_lost = all_lost - row["lost"]
        lines.append({
            "seat": row["seat"], "game_points": row["game_points"], "won": row["won"],
            "lost": row["lost"], "won_bonus": WON_BONUS * row["won"],
            "lost_malus": -WON_BONUS * row["lost"], "others_lost": others_lost,
            "others_bonus": bonus * others_lost,
            "score": (row["game_points"] + WON_BONUS * (row["won"] - row["lost"])
                      + bonus * others_lost),
        })
    return lines
