"""The one interface every game engine implements and its registry (errors: ``games.errors``).

Terms used by every engine (see ../shared/spec/games.md, "Common conventions"):

- seat: 1..n in clockwise order; per-seat values are lists in seat order.
- deal: one shuffle-and-play, recorded as one JSON object (a ``dict``).
- deal number: 1-based position of a deal in its sheet; the dealer of deal k is
  seat ((k-1) mod n) + 1.
- sheet: the ordered deals played at one table in one round (Skat *Serie*,
  Baptistenskat/Bâtarde *Partie*).
- rules: the tournament's house-rule options, validated against ``OPTIONS``.
- totals: one row per seat, ``{"seat", "score", ...game figures}``; ``score`` is the
  game's standing figure.

Pure Python: nothing here may import Django. Messages are English msgids marked
with ``_`` (a no-op here) so that ``makemessages`` collects them; the web layer
translates them with ``gettext`` and fills in ``params``.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar

from games.errors import (  # noqa: F401  (re-exported: the engines' error names)
    Errors,
    FieldError,
    InternalError,
    UserError,
    fill,
    user_error,
)


def _(message: str) -> str:
    """Mark a message for translation; the web layer translates it later."""
    return message


def pgettext(context: str, message: str) -> str:
    """Mark a message with a context (``"card suit"`` for "clubs"): the msgid carries its
    context as gettext stores it (``context\x04message``); the web layer's ``label_text``
    translates it with ``pgettext``."""
    return f"{context}\x04{message}"


# --------------------------------------------------------------------------- errors
# The app's one error vocabulary lives in ``games.errors`` (pure, below the engines);
# the engines' names for it stay as aliases so that callers and tests keep working.

EngineUserError = UserError
EngineInternalError = InternalError


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Choice:
    """One allowed value of an option, with the label a person sees."""

    value: Any
    label_en: str
    label_de: str

    def describe(self) -> dict[str, Any]:
        return {"value": self.value, "label": {"en": self.label_en, "de": self.label_de}}


@dataclass(frozen=True)
class Option:
    """One house-rule option, described once for validation, forms and the API.

    ``kind`` is ``bool``, ``int``, ``str`` or ``preset``. An ``int`` always has ``min``
    and ``max`` (every number has a documented bound); ``choices`` lists the allowed
    values with labels (required for ``str`` and ``preset``). A ``preset`` takes one of
    its ``choices`` by name, or a custom object of exactly the sub-options ``fields``
    (each an ``int`` option with bounds): Schafkopf's tariff.
    """

    default: Any
    kind: str
    _: KW_ONLY
    label_en: str
    label_de: str
    help_en: str
    help_de: str
    choices: tuple[Choice, ...] | None = None
    min: int | None = None
    max: int | None = None
    fields: dict[str, Option] | None = None

    def __post_init__(self) -> None:
        if self.kind not in _TYPE_NAMES:
            raise EngineInternalError(f"unknown option kind {self.kind!r}")
        if self.kind == "int" and not self.choices and (self.min is None or self.max is None):
            raise EngineInternalError("an int option needs min and max")
        if self.kind in ("str", "preset") and not self.choices:
            raise EngineInternalError(f"a {self.kind} option needs choices")
        if (self.kind == "preset") != (self.fields is not None):
            raise EngineInternalError("custom fields belong to preset options only")
        if self.check(self.default, "default"):
            raise EngineInternalError(f"default {self.default!r} breaks its own option")

    @property
    def values(self) -> tuple[Any, ...] | None:
        return None if self.choices is None else tuple(c.value for c in self.choices)

    def label(self, language: str) -> str:
        return self.label_de if language == "de" else self.label_en

    def help(self, language: str) -> str:
        return self.help_de if language == "de" else self.help_en

    def check(self, value: Any, where: str) -> list[FieldError]:
        """The errors of ``value`` for this option, each on ``where`` (or below it)."""
        if self.kind == "preset" and isinstance(value, dict):
            return self._check_custom(value, where)
        kind = "str" if self.kind == "preset" else self.kind
        if not _type_ok(kind, value):
            message = (_("Must be one of: %(choices)s, or an object of %(fields)s.")
                       if self.kind == "preset" else _("Must be %(type)s."))
            return [FieldError(where, message, self._type_params())]
        if self.choices is not None and value not in self.values:
            return [FieldError(where, _("Must be one of: %(choices)s."),
                               {"choices": ", ".join(str(v) for v in self.values)})]
        if self.min is not None and value < self.min:
            return [FieldError(where, _("Must be at least %(min)s."), {"min": self.min})]
        if self.max is not None and value > self.max:
            return [FieldError(where, _("Must be at most %(max)s."), {"max": self.max})]
        return []

    def _type_params(self) -> dict[str, Any]:
        if self.kind == "preset":
            return {"choices": ", ".join(str(v) for v in self.values),
                    "fields": ", ".join(self.fields)}
        return {"type": _TYPE_NAMES[self.kind]}

    def _check_custom(self, value: dict, where: str) -> list[FieldError]:
        found: list[FieldError] = []
        for key in value:
            if key not in self.fields:
                found.append(FieldError(f"{where}.{key}", _("Unknown field “%(name)s”."),
                                        {"name": str(key)}))
        for key, sub in self.fields.items():
            if key not in value:
                found.append(FieldError(f"{where}.{key}", _("This field is required.")))
            else:
                found.extend(sub.check(value[key], f"{where}.{key}"))
        return found

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"default": self.default, "type": self.kind,
                               "label": {"en": self.label_en, "de": self.label_de},
                               "help": {"en": self.help_en, "de": self.help_de}}
        if self.choices is not None:
            out["choices"] = [c.describe() for c in self.choices]
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.fields is not None:
            out["fields"] = {name: sub.describe() for name, sub in self.fields.items()}
        return out


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    raise EngineInternalError(f"unknown option kind {kind!r}")


_TYPE_NAMES = {"bool": _("true or false"), "int": _("a whole number"),
               "str": _("a text"), "preset": _("a name or an object")}


# ------------------------------------------------------------------------- helpers for deal checks


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def dealer_of(number: int, players: int) -> int:
    """The seat that deals deal ``number`` (1-based) at a table of ``players`` seats."""
    return (number - 1) % players + 1


def check_keys(deal: Any, required: Collection[str], optional: Collection[str],
               errors: Errors) -> bool:
    """Report a deal that is no object (on ``deal``), each unknown field and each missing
    required field; return whether the deal is an object whose fields can be read."""
    if not isinstance(deal, dict):
        errors.add("deal", _("A deal must be an object of fields."))
        return False
    unknown_fields(errors, "", deal, (*required, *optional))
    for name in required:
        if name not in deal:
            errors.add(name, _("This field is required."))
    return True


def unknown_fields(errors: Errors, where: str, value: dict, known: Collection[str]) -> None:
    """Report each field of the object ``value`` (at ``where``; "" for the deal itself)
    that is not in ``known``."""
    for name in value:
        if name not in known:
            errors.add(f"{where}.{name}" if where else str(name),
                       _("Unknown field “%(name)s”."), name=str(name))


def seat_ints(deal: dict[str, Any], name: str, players: int, high: int,
              errors: Errors) -> list[int] | None:
    """Read ``deal[name]``, a list of one whole number ``0..high`` per seat.

    Errors name the list (wrong shape) or an entry ``<name>.<index>`` by its 0-based list
    index, like every field path (``bids.0`` is seat 1). Returns the list when all of it
    is good, else None; an absent field gives None without an error, since
    ``check_keys`` reports missing fields.
    """
    if name not in deal:
        return None
    value = deal[name]
    if not isinstance(value, list) or len(value) != players:
        errors.add(name, _("Must be a list of %(players)s whole numbers, one per seat."),
                   players=players)
        return None
    bad = [i for i, item in enumerate(value) if not is_int(item) or not 0 <= item <= high]
    for index in bad:
        if value[index] is None:  # a form sends an untouched entry as null: it is missing
            errors.add(f"{name}.{index}", _("Please enter it."))
        else:
            errors.add(f"{name}.{index}", _("Must be a whole number from 0 to %(high)s."),
                       high=high)
    return None if bad else list(value)


@dataclass(frozen=True)
class DealContext:
    """Where a deal sits: its number in the sheet, the table size and the rules."""

    number: int
    players: int
    rules: dict[str, Any]
    # the validated records before this deal in its sheet, where the caller knows them:
    # games whose dealer or order depends on earlier deals (Doppelkopf) read them
    previous: tuple[dict[str, Any], ...] | None = None

    @property
    def dealer(self) -> int:
        return dealer_of(self.number, self.players)


def bidding_order(ctx: DealContext) -> list[int]:
    """Seats in bidding order: left of the dealer first, the dealer last."""
    return [(ctx.dealer + i) % ctx.players + 1 for i in range(ctx.players)]


@dataclass(frozen=True)
class ScoredDeal:
    """A validated deal: the normalised record and one integer score per seat.

    ``extra`` holds per-deal figures the engine wants to show (e.g. a Skat game value).
    """

    record: dict[str, Any]
    scores: list[int]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Part:
    """A seat's part in one deal, for a player's statistics (games.md §11): ``role`` is
    its key in ``by_role`` (None: the game names no role here), ``kind`` its key in
    ``by_kind`` counted under ``counted_as`` ("declared", "partner", "played"; None: not
    counted by kind), ``won`` whether the seat's side won (None: neither)."""

    role: str | None = None
    kind: str | None = None
    won: bool | None = None
    counted_as: str = "declared"


@dataclass(frozen=True)
class TableSizes:
    """The table sizes a draw may seat and the one it aims for. ``reason`` (a msgid with
    ``params``) says why the rules leave out sizes the game has, for the refusal of a
    field that the remaining sizes cannot seat."""

    sizes: tuple[int, ...]
    preferred: int
    reason: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetResult:
    deals: list[ScoredDeal]
    totals: list[dict[str, Any]]
    complete: bool


# --------------------------------------------------------------------------- the engine


@dataclass(frozen=True)
class When:
    """When a record field applies: a house ``rule`` that must be on, a smallest table
    (``min_players``), and (for forms only: which inputs to show) another ``field`` of the
    record taking one of ``values``. ``message`` is the user error for a value given where
    the rules or the table leave the field out (``false`` and ``null`` are "not given")."""

    rule: str | None = None
    min_players: int | None = None
    field: str | None = None
    values: tuple[Any, ...] = ()
    message: str = ""

    def holds(self, rules: Mapping[str, Any], players: int) -> bool:
        """Whether the rules (merged with their defaults) and the table size allow it."""
        if self.rule is not None and not rules.get(self.rule):
            return False
        return self.min_players is None or players >= self.min_players


@dataclass(frozen=True)
class RecordField:
    """One field of a game's deal record as the rule book's table describes it: the one
    description the engine's generic checks, the API schema, the tablet form, the paper
    grid and the blank sheet are made from. ``kind``:

    - ``bool``; ``int`` (``low``..``high``); ``seat`` (1..the table size);
    - ``enum`` (one of ``values``: strings, or whole numbers);
    - ``ints``: a list of whole numbers ``low``..``high`` (``nullable`` entries allowed
      when ``item_nullable``), ``min_items``..``max_items`` long (per-seat lists: the
      game's table sizes);
    - ``objects``: a list of objects with ``fields`` (each required unless ``optional``),
      at most ``max_items``;
    - ``object``: one object of ``fields`` (each optional; defaults are "not given").

    For people: ``label`` (a msgid), ``choice_labels`` (a msgid per value of an enum),
    ``items`` (for a list of fixed length: each entry's input name suffix and label, e.g.
    team A and B), ``widget`` (how a form asks for it: ``toggle``, ``result`` (won or
    lost), ``number``, ``stepper``, ``seat``, ``choice``, ``counts`` (one count per seat
    by buttons), ``per_seat``, ``pair``, ``rows``, ``hint`` (the value comes from the
    deal's hints, e.g. the cards of the schedule)), ``input`` (the stem of its inputs on
    a paper grid when not its name), ``slots`` (rows of an ``objects`` field on paper),
    ``slot_label`` (a msgid with ``%(number)s`` naming one such row as a person writes it,
    "Penalty 1" where the field's label is "Penalties") and ``applies`` (when the field
    belongs to a deal, see ``When``).
    """

    name: str
    kind: str
    description: str
    _: KW_ONLY
    values: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    required: bool = False
    nullable: bool = False
    item_nullable: bool = False
    min_items: int | None = None
    max_items: int | None = None
    fields: tuple[RecordField, ...] = ()
    label: str = ""
    choice_labels: tuple[str, ...] = ()
    items: tuple[tuple[str, str], ...] = ()
    widget: str = ""
    input: str = ""
    slots: int = 0
    slot_label: str = ""
    applies: When | None = None
    optional: bool = False

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.values):
            raise EngineInternalError(f"{self.name}: one label per value")
        if not self.widget:
            object.__setattr__(self, "widget", _WIDGETS[self.kind])

    @property
    def choices(self) -> tuple[tuple[Any, str], ...]:
        """(value, label msgid) pairs of an enum; a value without a label is its label."""
        labels = self.choice_labels or tuple(str(v) for v in self.values)
        return tuple(zip(self.values, labels, strict=True))

    @property
    def numbers(self) -> range:
        """The whole numbers an ``int`` field takes (``low``..``high``): a form's choices."""
        return range(self.low, self.high + 1)

    def check(self, value: Any) -> list[FieldError]:
        """The generic check of a given value of a ``bool`` or ``enum`` field (its kind
        and its values); the cross-field rules stay with the engine."""
        if self.kind == "bool" and not isinstance(value, bool):
            return [FieldError(self.name, _("Must be true or false."))]
        if self.kind == "enum" and not (
                (isinstance(value, str) or is_int(value)) and value in self.values):
            return [FieldError(self.name, _("Must be one of: %(choices)s."),
                               {"choices": ", ".join(str(v) for v in self.values)})]
        return []

    def schema(self, seats: int) -> dict[str, Any]:
        """This field as an OpenAPI 3.0 schema (``seats``: the largest table)."""
        out: dict[str, Any] = {"description": self.description}
        if self.kind == "bool":
            out["type"] = "boolean"
        elif self.kind in ("int", "seat"):
            out["type"] = "integer"
            low, high = (1, seats) if self.kind == "seat" else (self.low, self.high)
            _bounds(out, low, high)
        elif self.kind == "enum":
            out["type"] = "integer" if all(is_int(v) for v in self.values) else "string"
            out["enum"] = list(self.values)
        elif self.kind == "ints":
            item: dict[str, Any] = {"type": "integer"}
            _bounds(item, self.low, self.high)
            if self.item_nullable:
                item["nullable"] = True
            out.update(type="array", items=item)
        elif self.kind == "objects":
            out.update(type="array", items={
                "type": "object", "additionalProperties": False,
                "properties": {f.name: f.schema(seats) for f in self.fields},
                "required": [f.name for f in self.fields if not f.optional]})
        elif self.kind == "object":
            out.update(type="object", additionalProperties=False,
                       properties={f.name: f.schema(seats) for f in self.fields})
        else:
            raise ValueError(f"unknown record field kind {self.kind!r}")
        if self.min_items is not None:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        if self.nullable:
            out["nullable"] = True
        return out


def _bounds(schema: dict[str, Any], low: int | None, high: int | None) -> None:
    """An integer schema's ``minimum`` and ``maximum``, where there are bounds."""
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high


_WIDGETS = {"bool": "toggle", "int": "number", "seat": "seat", "enum": "choice",
            "ints": "per_seat", "objects": "rows", "object": "group"}


def record_schema(fields: Iterable[RecordField], seats: int, description: str) -> dict[str, Any]:
    """A game's deal record as an OpenAPI 3.0 object schema."""
    fields = tuple(fields)
    out: dict[str, Any] = {
        "type": "object", "description": description, "additionalProperties": False,
        "properties": {f.name: f.schema(seats) for f in fields}}
    required = [f.name for f in fields if f.required]
    if required:
        out["required"] = required
    return out


@dataclass(frozen=True)
class LeaguePlay:
    """How the game's league is played (games.md §9), for a game that has one:
    ``preset``: its federation's league points (``"dskv"``: per series, one per team
    beaten; ``"ddv"``: per day, 4/3/2/1); ``group_sizes``: the fewest and most teams a
    matchday group holds; ``may_miss``: how many of a team's players may be missing
    before it has not appeared (DSkV: a team of four starts with three)."""

    preset: str
    group_sizes: tuple[int, int]
    may_miss: int


class Engine:
    """Base class of every game engine. Subclasses set the class attributes and
    implement ``validate_deal``, ``score_deal`` and ``sheet_totals``; everything else
    has a working default here.

    ``standing_order`` is ``"desc"`` when a higher ``score`` is better, ``"asc"`` when
    lower is better (La Bâtarde). ``rank_key`` turns a totals row (or a sum of
    rows over several rounds) into a tuple whose ascending order is best first; equal
    keys mean equal rank.
    """

    key: ClassVar[str]
    name_de: ClassVar[str]
    name_en: ClassVar[str]
    table_sizes: ClassVar[tuple[int, ...]]
    preferred_table_size: ClassVar[int]
    standing_order: ClassVar[str] = "desc"
    OPTIONS: ClassVar[dict[str, Option]] = {}
    # the deal record's fields (games.md's table of the game); see RecordField
    RECORD: ClassVar[tuple[RecordField, ...]] = ()
    # figures summed over rounds in standings, besides "score"
    figures: ClassVar[tuple[str, ...]] = ()
    # how equal team sums are told apart (games.md §6): () leaves them equal;
    # ("won", "lost") is more won games of the members, then fewer lost ones
    team_tie_break: ClassVar[tuple[str, ...]] = ()
    # rounds a tournament of this game plans by default (the balanced draw plans them)
    rounds_planned: ClassVar[int] = 3
    # how its league is played (games.md §9); None: the game has no league
    league: ClassVar[LeaguePlay | None] = None

    # ---- options

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        return {name: opt.default for name, opt in cls.OPTIONS.items()}

    def options(self, rules: Any) -> dict[str, Any]:
        """Validate house rules and return them merged with the defaults.

        Unknown names, wrong types, values out of range are user errors on
        ``rules.<name>``.
        """
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            raise user_error("rules", _("The rules must be an object of options."))
        errors = Errors()
        merged = self.default_options()
        for name, value in rules.items():
            opt = self.OPTIONS.get(name)
            where = f"rules.{name}"
            if opt is None:
                errors.add(where, _("Unknown option “%(name)s” for this game."), name=name)
                continue
            problems = opt.check(value, where)
            errors.extend(problems)
            if not problems:
                merged[name] = value
        errors.raise_if_any()
        self.check_options(merged, errors)
        errors.raise_if_any()
        return merged

    def check_options(self, rules: dict[str, Any], errors: Errors) -> None:
        """Cross-option checks on merged rules (e.g. the Baptistenskat deck limit)."""

    @classmethod
    def record_schema(cls) -> dict[str, Any]:
        """The deal record as an OpenAPI 3.0 schema, from ``RECORD``."""
        return record_schema(cls.RECORD, max(cls.table_sizes),
                             f"A deal of {cls.name_en} (games.md).")

    @classmethod
    def record_field(cls, name: str) -> RecordField:
        """The description of field ``name``; a dotted name (``"extras.re.fuchs"``) is a
        field of an ``object`` field."""
        fields: Iterable[RecordField] = cls.RECORD
        found: RecordField | None = None
        for part in name.split("."):
            found = next((f for f in fields if f.name == part), None)
            if found is None:
                raise EngineInternalError(f"{cls.key} has no record field {name!r}")
            fields = found.fields
        assert found is not None
        return found

    def field_applies(self, f: RecordField, rules: Mapping[str, Any], players: int) -> bool:
        """Whether ``f`` belongs to a deal under ``rules`` at a table of ``players``
        (rules not given count with their defaults)."""
        if f.applies is None:
            return True
        return f.applies.holds({**self.default_options(), **rules}, players)

    def record_fields(self, rules: Mapping[str, Any], players: int) -> list[RecordField]:
        """The fields of a deal under ``rules`` at a table of ``players``: what a form, a
        paper grid and a blank sheet offer."""
        return [f for f in self.RECORD if self.field_applies(f, rules, players)]

    def check_keys(self, deal: Any, errors: Errors) -> bool:
        """``check_keys`` with the record's required and optional fields."""
        return check_keys(deal, [f.name for f in self.RECORD if f.required],
                          [f.name for f in self.RECORD if not f.required], errors)

    def check_applies(self, deal: Mapping[str, Any], ctx: DealContext, errors: Errors,
                      names: Iterable[str] | None = None) -> None:
        """Refuse a value given for a field (of ``names``, default all) that the rules or
        the table leave out, with the field's message; ``false`` and ``null`` are not
        given."""
        wanted = None if names is None else set(names)
        for f in self.RECORD:
            if f.applies is None or (wanted is not None and f.name not in wanted):
                continue
            value = deal.get(f.name)
            if value is not None and value is not False \
                    and not self.field_applies(f, ctx.rules, ctx.players):
                errors.add(f.name, f.applies.message)

    def describe_options(self) -> dict[str, Any]:
        return {name: opt.describe() for name, opt in self.OPTIONS.items()}

    def seating_sizes(self, rules: dict[str, Any]) -> TableSizes:
        """The table sizes a draw may seat under validated ``rules`` (data for the
        composition rule); a game whose rules narrow them says why in ``reason``."""
        return TableSizes(tuple(self.table_sizes), self.preferred_table_size)

    # ---- tables and sheets

    def check_table(self, players: int, rules: dict[str, Any]) -> None:
        """Refuse a table size this game cannot be played at (user error on ``players``)."""
        if not is_int(players) or players not in self.table_sizes:
            raise user_error("players", _("This game is played at tables of %(sizes)s players."),
                             sizes=", ".join(str(s) for s in self.table_sizes))

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        """How many deals a complete sheet at a table of ``players`` has."""
        raise NotImplementedError

    def sheet_complete(self, records: Sequence[dict[str, Any]], players: int,
                       rules: dict[str, Any]) -> bool:
        """Whether a sheet of these validated ``records`` (in order) is complete: no
        further deal can be entered and it may be submitted. Default: ``sheet_length``
        records. Games whose rows do not all count (Doppelkopf) override it."""
        return len(records) >= self.sheet_length(players, rules)

    def sheet_progress(self, records: Sequence[dict[str, Any]], players: int,
                       rules: dict[str, Any]) -> tuple[int, int]:
        """(games played, games the sheet holds) for a sheet's "n of m" after these
        validated ``records``: n never exceeds m once the sheet is complete. Default:
        every record, ``sheet_length``. Games whose rows do not all count (Doppelkopf's
        annulled games and time-up marker) override it."""
        return len(records), self.sheet_length(players, rules)

    def sheet_room(self, records: Sequence[dict[str, Any]], players: int,
                   rules: dict[str, Any]) -> int | None:
        """How many more deals a sheet of ``records`` takes; None when no fixed number
        does (each further deal's place is checked by ``validate_deal``/``score_deal``
        with ``DealContext.previous``)."""
        return max(self.sheet_length(players, rules) - len(records), 0)

    def deal_plan(self, records: Sequence[dict[str, Any]], players: int,
                  rules: dict[str, Any]) -> list[dict[str, Any]]:
        """The hints (``deal_hints``) of every deal still to be entered after
        ``records``, so an entry form can go on offline. Default: every number up to
        ``sheet_length``; games whose later hints depend on what is played return only
        what is known."""
        previous = tuple(records)
        first = len(previous) + 1
        return [self.deal_hints(DealContext(n, players, rules,
                                            previous=previous if n == first else None))
                for n in range(first, self.sheet_length(players, rules) + 1)]

    def active_seats(self, ctx: DealContext) -> list[int]:
        """Seats that play deal ``ctx.number`` (the dealer sits out at some tables)."""
        return list(range(1, ctx.players + 1))

    # the words of ``deal_parts``' roles and kinds (msgids), for the pages
    INSIGHT_LABELS: ClassVar[dict[str, str]] = {}

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        """Each seat's part in a stored, validated deal (games.md §11) — only the seats
        that played it, and nothing for a row that is no deal of the sheet. ``active``:
        ``active_seats(ctx)``. Default: every active seat played, with no role or kind."""
        return {seat: Part() for seat in active}

    def deal_hints(self, ctx: DealContext) -> dict[str, Any]:
        """What an entry form needs to know about deal ``ctx.number`` before it is
        played: the dealer, the seats in play, and (trick-bidding games) the cards per
        seat, the bidding order and the total the last bidder must avoid (or None)."""
        return {"number": ctx.number, "dealer": ctx.dealer, "active_seats": self.active_seats(ctx)}

    # ---- deals

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        """Check one deal record in its context; return the normalised record
        (defaults filled in). Raise ``EngineUserError`` naming every bad field."""
        raise NotImplementedError

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        """Score a record returned by ``validate_deal``."""
        raise NotImplementedError

    def deal_place(self, number: int, players: int) -> Hashable | None:
        """What of deal ``number``'s place ``validate_deal`` and ``score_deal`` read
        besides the deal itself and the rules, as a key: deals equal in their fields at
        equal places under the same rules are checked and scored alike, so a reader of
        many sheets may check one of them for all (``sheets.DealMemo``). None (the
        default): they read more, or no one has said (the sheet's earlier deals,
        ``DealContext.previous``: Doppelkopf)."""
        return None

    def sheet_totals(self, deals: list[ScoredDeal], players: int,
                     rules: dict[str, Any]) -> list[dict[str, Any]]:
        """One row per seat: ``{"seat", "score", ...figures}``. Default: sum of scores."""
        sums = [0] * players
        for d in deals:
            for i, s in enumerate(d.scores):
                sums[i] += s
        return [{"seat": i + 1, "score": sums[i]} for i in range(players)]

    def rank_key(self, row: dict[str, Any]) -> tuple:
        """Sort key of a totals row: ascending order is best first."""
        return (row["score"],) if self.standing_order == "asc" else (-row["score"],)

    # ---- a whole sheet

    def sheet_input(self, deals: Any, players: Any, rules: Any) -> dict[str, Any]:
        """Check a sheet's table size and deal list; return the validated rules."""
        opts = self.options(rules)
        if not is_int(players):
            raise user_error("players", _("Must be a whole number."))
        self.check_table(players, opts)
        if not isinstance(deals, list):
            raise user_error("deals", _("The deals must be a list."))
        return opts

    def score_sheet(self, deals: Any, players: Any, rules: Any = None) -> SheetResult:
        """Validate and score a whole sheet, deal ``i`` being deal number ``i + 1``.

        Errors of every deal are collected; each names its deal index and number.
        """
        opts = self.sheet_input(deals, players, rules)
        length = self.sheet_length(players, opts)
        errors: list[FieldError] = []
        if len(deals) > length:
            errors.append(FieldError("deals", _("A sheet has at most %(length)s deals."),
                                     {"length": length}))
        scored: list[ScoredDeal] = []
        for index, deal in enumerate(deals[:length]):
            ctx = DealContext(number=index + 1, players=players, rules=opts)
            try:
                scored.append(self.score_deal(self.validate_deal(deal, ctx), ctx))
            except EngineUserError as exc:
                errors.extend(e.at(deal=index, number=index + 1) for e in exc.errors)
        if errors:
            raise EngineUserError(errors)
        return SheetResult(scored, self.sheet_totals(scored, players, opts),
                           complete=len(scored) == length)

    # ---- sheet summary (Skat only: a paper list's totals instead of deals)

    supports_summary: ClassVar[bool] = False
    # ± a summary seat's game points, where the game takes summaries
    summary_game_points_bound: ClassVar[int] = 0

    def summary_totals(self, seats: Any, players: Any, rules: Any = None) -> list[dict[str, Any]]:
        """Validate a sheet summary (one entry per seat) and return totals rows like
        ``sheet_totals``. Engines without a summary entry refuse it."""
        raise user_error("summary", _("This game has no summary entry; enter the deals."))

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": {"de": self.name_de, "en": self.name_en},
            "table_sizes": list(self.table_sizes),
            "preferred_table_size": self.preferred_table_size,
            "rounds_planned": self.rounds_planned,
            "standing_order": self.standing_order,
            "summary": self.supports_summary,
            "options": self.describe_options(),
            "record": self.record_schema(),
        }


def bid_parts(record: dict[str, Any], active: Sequence[int]) -> dict[int, Part]:
    """The parts of a deal of bids and tricks (``bids``, ``tricks`` in seat order): a
    bid of tricks or of none (``"bid"``, ``"zero"``), won when met exactly."""
    bids, tricks = record["bids"], record["tricks"]
    return {seat: Part(kind="bid" if bids[seat - 1] else "zero",
                       won=bids[seat - 1] == tricks[seat - 1], counted_as="played")
            for seat in active}


def bid_deal_errors(engine: Engine, deal: Any, ctx: DealContext, cards: int) -> Errors:
    """The first checks of a deal of bids and tricks, ``cards`` cards a hand: its fields
    (a deal that cannot be read is refused at once), the ``cards`` of the schedule and the
    trump; the errors so far, for the game's further checks."""
    errors = Errors()
    if not engine.check_keys(deal, errors):
        errors.raise_if_any()
    if "cards" in deal and (not is_int(deal["cards"]) or deal["cards"] != cards):
        errors.add("cards", _("Deal %(number)s is played with %(cards)s cards each."),
                   number=ctx.number, cards=cards)
    if "trump" in deal:
        errors.extend(engine.record_field("trump").check(deal["trump"]))
    return errors


def bids_and_tricks(deal: dict[str, Any], players: int, cards: int,
                    errors: Errors) -> tuple[list[int] | None, list[int] | None]:
    """A deal's ``bids`` and ``tricks`` (``seat_ints``, 0 to ``cards``); the tricks add up
    to ``cards``."""
    bids = seat_ints(deal, "bids", players, cards, errors)
    tricks = seat_ints(deal, "tricks", players, cards, errors)
    if tricks is not None and sum(tricks) != cards:
        errors.add("tricks", _("The tricks must add up to %(cards)s."), cards=cards)
    return bids, tricks


def round_deals_option(usual: int, most: int) -> Option:
    """The deals of a round at one table, 1 to ``most`` (usually ``usual``)."""
    return Option(
        default=usual, kind="int", min=1, max=most,
        label_en="Deals per round", label_de="Spiele pro Runde",
        help_en=f"Deals in a round at one table: 1 to {most} (usually {usual}).",
        help_de=f"Spiele einer Runde an einem Tisch: 1 bis {most} (üblich {usual}).")


BID_LABELS = {"bid": _("Bids of tricks"), "zero": _("Bids of none")}


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Engine] = {}


def register(cls: type[Engine]) -> type[Engine]:
    """Class decorator: make an engine available under its ``key``."""
    if cls.key in _REGISTRY:
        raise EngineInternalError(f"engine {cls.key!r} registered twice")
    _REGISTRY[cls.key] = cls()
    return cls


def unregister(key: str) -> None:
    """Remove the engine ``key`` again (a test that registered its own engine)."""
    del _REGISTRY[key]


def get_engine(key: str) -> Engine:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise user_error("game", _("Unknown game “%(game)s”."), game=key) from None


def all_engines() -> list[Engine]:
    return list(_REGISTRY.values())


def most_seats() -> int:
    """The most players any registered game seats at a table: the highest seat number."""
    return max(max(engine.table_sizes) for engine in _REGISTRY.values())
