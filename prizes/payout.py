"""The prize list of a tournament and who gets what (*Preisgeld*), games.md §6.

Terms:

- *entry fee*: what each participant pays (``entry_fee_cents``, 0 to 100,000 = 1,000 €).
- *pot*: the share ``payout_percent`` (0 to 100, default 100, at most two decimals) of the
  fees taken in, rounded DOWN to whole cents: a prize list never pays out more than came
  in. ``fees_cents`` is the fees the cash report counts (entry fee × paying participants
  while the fee never changed; see ``prizes.cash``).
- *prize places*: places 1 to P. Money per place is given either as percentages of the
  pot (``places_percent``: each 0 to 100 with at most two decimals, together exactly 100)
  or as fixed amounts (``places_cents``: each 0 to 10,000,000 cents), never both; goods
  prizes as text per place (``places_goods``, each at most 200 characters, "" for none;
  trailing empty ones are dropped).
  P is the longer of the money list and the goods list (0, no prize list, to 500).
- *percent places in cents*: each place gets its exact share rounded down, and the cents
  left over (fewer than P) go one each to the best places with a share, from place 1
  on — so the places add up to the pot exactly and none gets more than its share
  rounded up.
- *fixed amounts* are promised prizes: they are paid as given even when the pot is
  smaller (the club adds the rest; ``shortfall_cents`` says how much).

Who gets what (the standings decide, best first; ties are rows with equal ``rank``):

- A group of m tied players starting at position s occupies positions s … s+m−1. They
  share the money of the prize places among those positions in equal parts in whole
  cents; the r cents left over go one each to the r tied players with the lowest start
  numbers. Their ``place`` is s (the shared rank). Goods prizes of those positions
  cannot be split: without a lot they go in start-number order; the tie is listed in
  ``ties`` so the director can hold a lot.
- A tie that reaches past the last prize place shares only the prize places it covers.
- A recorded lot orders the tied players at prize places: then each takes the position
  the lot gives him, with that position's whole money and goods, and no sharing. The
  lot must name exactly the players tied at prize places (``check_lot``); a lot that no
  longer matches the standings (a correction changed the ties) is ignored and reported
  as ``"lot": "stale"``.
- Fewer players than prize places: the places beyond the field are not paid; their money
  stays in the pot (``undistributed_cents``).

Standard library and the engines' error types only: no Django. Bad input raises
``UserError`` naming each offending field (``places_percent.2``) with msgids the
web layer translates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from games.engines.base import _, is_int
from games.errors import FieldError, UserError
from tournaments.text_checks import control_characters, storable

Row = dict[str, Any]

ENTRY_FEE_MAX = 100_000  # cents: 1,000 €
PLACE_CENTS_MAX = 10_000_000  # cents: 100,000 €
PLACES_MAX = 500
GOODS_MAX = 200  # characters
PERCENT_DECIMALS = 2


@dataclass(frozen=True)
class PrizeConfig:
    """A validated prize list. Percentages are exact fractions."""

    entry_fee_cents: int = 0
    payout_percent: Fraction = Fraction(100)
    places_percent: tuple[Fraction, ...] | None = None
    places_cents: tuple[int, ...] | None = None
    places_goods: tuple[str, ...] = ()
    # games.md §10.3: a prize list per category, ``(label, PrizeConfig)`` in the order
    # given; a category's prizes are fixed amounts and goods (no share of the pot)
    category_prizes: tuple[tuple[str, PrizeConfig], ...] = ()

    @property
    def places(self) -> int:
        money = self.places_percent or self.places_cents or ()
        return max(len(money), len(self.places_goods))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: what ``check_prize_config`` accepts back unchanged."""
        out: dict[str, Any] = {"entry_fee_cents": self.entry_fee_cents,
                               "payout_percent": _number(self.payout_percent)}
        if self.places_percent is not None:
            out["places_percent"] = [_number(p) for p in self.places_percent]
        if self.places_cents is not None:
            out["places_cents"] = list(self.places_cents)
        out["places_goods"] = list(self.places_goods)
        if self.category_prizes:
            out["categories"] = {label: {k: v for k, v in config.as_dict().items()
                                         if k in ("places_cents", "places_goods")}
                                 for label, config in self.category_prizes}
        return out


def _number(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


# --------------------------------------------------------------------------- validation
# The prize list's fields are described once (``SPEC``): each with its kind and bounds.
# ``check_prize_config`` reads every field by its description and then applies the rules
# across fields (either percentages or amounts; percentages add up to 100).


@dataclass(frozen=True)
class _Cents:
    """Whole cents ``0..high``."""

    high: int

    def read(self, value: Any, where: str, errors: list[FieldError]) -> int | None:
        if not is_int(value) or not 0 <= value <= self.high:
            errors.append(FieldError(where, _("Must be a whole number from %(min)s to "
                                              "%(max)s."), {"min": 0, "max": self.high}))
            return None
        return value


@dataclass(frozen=True)
class _Percent:
    """A percentage 0 to 100 with at most ``PERCENT_DECIMALS`` decimals, exactly."""

    def read(self, value: Any, where: str, errors: list[FieldError]) -> Fraction | None:
        message = _("Must be a number from 0 to 100 with at most two decimals.")
        if isinstance(value, bool) or not isinstance(value, int | float):
            errors.append(FieldError(where, message))
            return None
        try:
            exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        except InvalidOperation:
            errors.append(FieldError(where, message))
            return None
        if not exact.is_finite() or not 0 <= exact <= 100 or \
                exact.normalize().as_tuple().exponent < -PERCENT_DECIMALS:
            errors.append(FieldError(where, message))
            return None
        return Fraction(exact)


@dataclass(frozen=True)
class _Goods:
    """A goods prize: text of at most ``max_length`` characters once trimmed."""

    max_length: int

    def read(self, value: Any, where: str, errors: list[FieldError]) -> str | None:
        if not isinstance(value, str):
            errors.append(FieldError(where, _("Must be text.")))
        elif len(value.strip()) > self.max_length:
            errors.append(FieldError(where, _("At most %(max)s characters."),
                                     {"max": self.max_length}))
        elif not storable(value) or control_characters(value):
            errors.append(FieldError(where, _("Contains characters that cannot be stored.")))
        else:
            return value.strip()
        return None


@dataclass(frozen=True)
class _Places:
    """One value per prize place (at most ``PLACES_MAX``), each read as ``each``."""

    each: Any

    def shape(self, value: Any, name: str, errors: list[FieldError]) -> list | None:
        if value is None:
            return None
        if not isinstance(value, list):
            errors.append(FieldError(name, _("Must be a list.")))
            return None
        if len(value) > PLACES_MAX:
            errors.append(FieldError(name, _("At most %(max)s prize places."),
                                     {"max": PLACES_MAX}))
            return None
        return value

    def read(self, items: list, name: str, errors: list[FieldError]) -> tuple:
        return tuple(self.each.read(v, f"{name}.{i}", errors) for i, v in enumerate(items))


SPEC: dict[str, Any] = {
    "entry_fee_cents": _Cents(ENTRY_FEE_MAX),     # required
    "payout_percent": _Percent(),                 # absent or null: 100
    "places_percent": _Places(_Percent()),
    "places_cents": _Places(_Cents(PLACE_CENTS_MAX)),
    "places_goods": _Places(_Goods(GOODS_MAX)),
}
FIELDS = tuple(SPEC)


def check_prize_config(data: Any) -> PrizeConfig:
    """The validated prize list from the ``PUT …/prizes/`` body, or ``UserError``
    naming every offending field (unknown fields included)."""
    if not isinstance(data, Mapping):
        raise UserError([FieldError("", _("The body must be a JSON object."))])
    errors: list[FieldError] = [FieldError(str(name), _("Unknown field."))
                                for name in data if name not in SPEC and name != "categories"]
    categories = _category_prizes(data.get("categories"), errors)
    fee = 0
    if "entry_fee_cents" not in data:
        errors.append(FieldError("entry_fee_cents", _("This field is required.")))
    else:
        fee = SPEC["entry_fee_cents"].read(data["entry_fee_cents"], "entry_fee_cents", errors)
    payout = Fraction(100)
    if data.get("payout_percent") is not None:
        payout = SPEC["payout_percent"].read(data["payout_percent"], "payout_percent", errors)
    lists = {name: SPEC[name].shape(data.get(name), name, errors)
             for name in ("places_percent", "places_cents", "places_goods")}
    if lists["places_percent"] is not None and lists["places_cents"] is not None:
        for name in ("places_percent", "places_cents"):
            errors.append(FieldError(name, _("Give either percentages or fixed amounts per "
                                             "place, not both.")))
        lists["places_percent"] = lists["places_cents"] = None
    clean: dict[str, tuple | None] = {}
    for name in ("places_percent", "places_cents"):
        items = lists[name]
        clean[name] = None if items is None else SPEC[name].read(items, name, errors)
        if items == []:
            errors.append(FieldError(name, _("Give at least one place.")))
    percents = clean["places_percent"]
    if percents and None not in percents and sum(percents) != 100:
        errors.append(FieldError("places_percent",
                                 _("The percentages must add up to exactly 100.")))
    goods = [g for g in SPEC["places_goods"].read(lists["places_goods"] or [], "places_goods",
                                                  errors) if g is not None]
    if errors:
        raise UserError(errors)
    while goods and not goods[-1]:
        goods.pop()  # trailing empty goods make no prize places
    return PrizeConfig(fee, payout, percents, clean["places_cents"], tuple(goods), categories)


CATEGORY_FIELDS = ("places_cents", "places_goods")


def _category_prizes(data: Any, errors: list[FieldError]) -> tuple:
    """``{"<label>": {"places_cents"?: [...], "places_goods"?: [...]}}``: each category's
    fixed amounts and goods per place, read as the overall list's (errors named
    ``categories.<label>.<field>``); which labels the tournament has is its service's
    check."""
    if data is None:
        return ()
    if not isinstance(data, Mapping):
        errors.append(FieldError("categories", _("Must be an object of category labels.")))
        return ()
    out = []
    for label, spec in data.items():
        where = f"categories.{str(label)[:40]}"
        if not isinstance(spec, Mapping):
            errors.append(FieldError(where, _("Must be an object.")))
            continue
        errors.extend(FieldError(f"{where}.{str(name)[:40]}", _("Unknown field."))
                      for name in spec if name not in CATEGORY_FIELDS)
        found = len(errors)
        lists = {name: SPEC[name].shape(spec.get(name), f"{where}.{name}", errors)
                 for name in CATEGORY_FIELDS}
        cents = (None if lists["places_cents"] is None else
                 SPEC["places_cents"].read(lists["places_cents"], f"{where}.places_cents",
                                           errors))
        goods = [g for g in SPEC["places_goods"].read(lists["places_goods"] or [],
                                                      f"{where}.places_goods", errors)
                 if g is not None]
        if len(errors) > found:
            continue
        while goods and not goods[-1]:
            goods.pop()
        out.append((str(label), PrizeConfig(places_cents=cents, places_goods=tuple(goods))))
    return tuple(out)


def _reranked(rows: list[Mapping[str, Any]]) -> list[Row]:
    """Rows (best first, with ``rank``) given ranks again after some were taken out:
    a tie stays a tie, the next player moves up."""
    out: list[Row] = []
    previous, current = None, 0
    for position, row in enumerate(sorted(rows, key=lambda r: r["rank"]), start=1):
        if row["rank"] != previous:
            previous, current = row["rank"], position
        out.append({**row, "rank": current})
    return out


def category_payouts(config: PrizeConfig, lists: Mapping[str, Iterable[Mapping[str, Any]]],
                     *, overall: Iterable[Mapping[str, Any]] = (),
                     one_prize_per_player: bool = False) -> list[Row]:
    """Each category's payouts (games.md §10.3), in the order of its prize lists.

    ``lists``: each category's standings with its own ranks. A player may win in
    several categories; with ``one_prize_per_player`` the overall list pays first
    (``overall``: its payouts) and a player who won a prize there, or in a category
    before, is passed over: the prize goes to the next player of that category.
    Returns ``[{"category", "places", "payouts"}]`` as ``payouts`` gives them."""
    def winners(paid: Iterable[Mapping[str, Any]]) -> set:
        return {p["participant"] for p in paid if p["amount_cents"] or p["goods"]}

    won = winners(overall) if one_prize_per_player else set()
    out = []
    for label, prizes in config.category_prizes:
        rows = [dict(r) for r in lists.get(label, [])]
        if one_prize_per_player:
            rows = _reranked([r for r in rows if r["participant"] not in won])
        result = payouts(prizes, rows, fees_cents=0)
        if one_prize_per_player:
            won |= winners(result["payouts"])
        out.append({"category": label, "places": result["places"],
                    "payouts": result["payouts"]})
    return out


# --------------------------------------------------------------------------- money


def pot_cents(fees_cents: int, payout_percent: Fraction | int) -> int:
    """The money paid out: ``payout_percent`` of the fees, rounded down to whole cents."""
    return math.floor(Fraction(fees_cents) * Fraction(payout_percent) / 100)


def place_amounts(config: PrizeConfig, pot: int) -> list[int]:
    """Cents per prize place 1…P (goods-only places get 0)."""
    places = config.places
    if config.places_cents is not None:
        amounts = list(config.places_cents)
    elif config.places_percent is not None:
        amounts = [math.floor(Fraction(pot) * p / 100) for p in config.places_percent]
        left = pot - sum(amounts)  # fewer cents than places, as the percentages sum to 100
        paying = [i for i, p in enumerate(config.places_percent) if p > 0]
        for i in paying[:left]:
            amounts[i] += 1
    else:
        amounts = []
    return amounts + [0] * (places - len(amounts))


def _ordered(standings: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(standings, key=lambda r: (r["rank"], r["start_number"], r["participant"]))


def _groups(standings: Iterable[Mapping[str, Any]]) -> list[tuple[int, list]]:
    """(first position, rows) of each group of equal rank, best first; positions 1-based."""
    out: list[tuple[int, list]] = []
    for position, row in enumerate(_ordered(standings), start=1):
        if out and out[-1][1][0]["rank"] == row["rank"]:
            out[-1][1].append(row)
        else:
            out.append((position, [row]))
    return out


def prize_ties(standings: Iterable[Mapping[str, Any]], places: int) -> list[list[Any]]:
    """The groups of tied players that reach a prize place, each in start-number order."""
    return [[r["participant"] for r in rows] for start, rows in _groups(standings)
            if len(rows) > 1 and start <= places]


def check_lot(order: Any, standings: Iterable[Mapping[str, Any]],
              config: PrizeConfig) -> list[Any]:
    """The validated lot order (``PUT …/prizes/lots/`` ``{"order": [...]}``): it must name
    exactly the players tied at prize places, each once."""
    standings_list = list(standings)
    ties = prize_ties(standings_list, config.places)
    tied = {pid for group in ties for pid in group}
    if not isinstance(order, list):
        raise UserError([FieldError("order", _("Must be a list of participant ids."))])
    if not ties:
        raise UserError([FieldError("order", _("No players are tied at a prize "
                                               "place."))])
    errors: list[FieldError] = []
    seen: list[Any] = []
    for i, pid in enumerate(order):
        where = f"order.{i}"
        if not is_int(pid) or pid not in tied:
            errors.append(FieldError(where, _("Not tied at a prize place.")))
        elif pid in seen:
            errors.append(FieldError(where, _("Participant %(participant)s is named twice."),
                                     {"participant": pid}))
        else:
            seen.append(pid)
    missing = [row for row in _ordered(standings_list) if row["participant"] in tied
               and row["participant"] not in seen]
    if missing:
        errors.append(FieldError("order", _("The lot must name every player tied at a prize "
                                            "place; missing: %(missing)s."),
                                 {"missing": ", ".join(f"{r['start_number']}. {r.get('name', '')}"
                                                       .strip() for r in missing)}))
    if errors:
        raise UserError(errors)
    return seen


def _lot_fits(lot: Sequence[Any], ties: list[list[Any]]) -> bool:
    tied = [pid for group in ties for pid in group]
    return bool(ties) and len(lot) == len(set(lot)) and set(lot) == set(tied)


def payouts(config: PrizeConfig, standings: Iterable[Mapping[str, Any]], *, fees_cents: int,
            lot: Sequence[Any] | None = None) -> Row:
    """The payout list following the final standings.

    ``standings``: ``{"participant", "rank", "start_number", "name"?}`` per player (any
    order; ``rank`` as the standings give it, equal ranks are ties). ``fees_cents``: the
    fees taken in. ``lot``: a recorded lot order, or None.

    Returns ``{"pot_cents", "paid_cents", "undistributed_cents", "shortfall_cents",
    "places": [{"place", "amount_cents", "goods"}], "payouts": [{"place",
    "participant", "name", "start_number", "amount_cents", "goods", "tied"}],
    "ties": [[participant ids]], "lot": "applied" | "stale" | None}``.
    """
    standings = list(standings)
    pot = pot_cents(fees_cents, config.payout_percent)
    places = config.places
    amounts = place_amounts(config, pot)
    goods = list(config.places_goods) + [""] * (places - len(config.places_goods))
    ties = prize_ties(standings, places)
    lot_state = None
    if lot:
        lot_state = "applied" if _lot_fits(lot, ties) else "stale"
    lot_index = {pid: i for i, pid in enumerate(lot)} if lot_state == "applied" else {}
    out: list[Row] = []
    for start, rows in _groups(standings):
        if start > places:
            break
        tied = len(rows) > 1
        covered = range(start, min(start + len(rows) - 1, places) + 1)
        if tied and lot_index:
            rows = sorted(rows, key=lambda r: lot_index[r["participant"]])
            shares = [amounts[p - 1] if p <= places else 0
                      for p in range(start, start + len(rows))]
            where = list(range(start, start + len(rows)))
        else:
            total = sum(amounts[p - 1] for p in covered)
            each, left = divmod(total, len(rows))
            shares = [each + (1 if i < left else 0) for i in range(len(rows))]
            where = [start] * len(rows)
        for i, row in enumerate(rows):
            position = start + i
            out.append({"place": where[i], "participant": row["participant"],
                        "name": row.get("name", ""), "start_number": row["start_number"],
                        "amount_cents": shares[i],
                        "goods": goods[position - 1] if position <= places else "",
                        "tied": tied})
    paid = sum(p["amount_cents"] for p in out)
    return {"pot_cents": pot, "paid_cents": paid,
            "undistributed_cents": max(pot - paid, 0), "shortfall_cents": max(paid - pot, 0),
            "places": [{"place": i + 1, "amount_cents": amounts[i], "goods": goods[i]}
                       for i in range(places)],
            "payouts": out, "ties": ties, "lot": lot_state}
