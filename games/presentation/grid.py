"""A deal record as a row of inputs, made from the game's record description: the paper
grid of the console (one row per deal) asks for every field of the deal record that
applies under the tournament's rules at the table's size.

Terms:

- input: one labelled control of a row, named ``<stem>`` (a field), ``<stem>_<item>``
  (an entry of a fixed list, e.g. team A's tricks ``tricks_a``) or
  ``<stem><slot>_<sub>`` (a field of one object of a list, e.g. ``meld0_rank``); its
  ``path`` is where its value sits in the record (``tricks.0``, ``melds.0.rank``).
- kind: how the input is drawn: ``bool`` (a checkbox), ``int``, ``seat`` (a seat by its
  player's name), ``choice`` (a list of labelled values) or ``per_seat`` (one number per
  seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from games.engines import Engine
from games.engines.base import RecordField, is_int
from games.presentation.labels import label_text

RESULT_CHOICES = (("true", gettext_lazy("won")), ("false", gettext_lazy("lost")))


@dataclass(frozen=True)
class Input:
    """One input of a row; ``choices`` are (posted value, label) pairs."""

    name: str
    label: Any
    kind: str
    path: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None


def _choices(f: RecordField, words: Mapping[Any, Any]) -> tuple:
    """The choices with the words the tablet shows (``form_choice_labels``), else the
    description's labels."""
    return tuple((str(value), words.get(value) or label_text(label)) for value, label in f.choices)


def _within(outer: Any, inner: Any) -> str:
    """The label of a field of an object field: the object's label first ("Re: Fuchs",
    "Penalties 1: Kind"), so that fields of the same name are told apart."""
    return format_lazy("{}: {}", outer, inner)


_numbered = lazy(lambda msgid, number: str(label_text(msgid)) % {"number": number}, str)


def _slot(f: RecordField, number: int) -> Any:
    """One row of an objects field as a person writes it: "Penalty 1" (its ``slot_label``),
    else the field's label and the number."""
    if f.slot_label:
        return _numbered(f.slot_label, number)
    return format_lazy("{} {}", label_text(f.label), number)


def _input(f: RecordField, name: str, path: str, label: Any = None,
           words: Mapping[str, Mapping[Any, Any]] | None = None) -> Input:
    # a msgid (an item's, the field's own), or a label made already (``_within``)
    label = label_text(label or f.label) if label is None or isinstance(label, str) else label
    if f.kind == "bool":
        if f.widget == "result":
            return Input(name, label, "choice", path, RESULT_CHOICES)
        return Input(name, label, "bool", path)
    if f.kind == "enum":
        return Input(name, label, "choice", path, _choices(f, (words or {}).get(path, {})))
    if f.kind == "ints" and not f.items:
        return Input(name, label, "per_seat", path, low=f.low, high=f.high)
    if f.kind in ("int", "ints"):
        return Input(name, label, "int", path, low=f.low, high=f.high)
    return Input(name, label, f.kind, path)


def grid_inputs(engine: Engine, rules: Mapping[str, Any], players: int,
                words: Mapping[str, Mapping[Any, Any]] | None = None) -> list[Input]:
    """Every input of a deal's row: the record's fields that apply, in record order
    (a field whose value comes from the deal's hints, like the cards, has none).
    ``words``: the choices' words by field path, as the tablet shows them (the game's
    ``form_choice_labels``), so that no raw value ("no90") is shown."""
    inputs: list[Input] = []
    for f in engine.record_fields(rules, players):
        stem = f.input or f.name
        if f.widget == "hint":
            continue
        if f.kind == "objects":
            for slot in range(f.slots):
                inputs += [_input(sub, f"{stem}{slot}_{sub.name}", f"{f.name}.{slot}.{sub.name}",
                                  _within(_slot(f, slot + 1), label_text(sub.label)), words)
                           for sub in f.fields]
        elif f.kind == "object":
            inputs += _object_inputs(f, stem, f.name, words)
        elif f.items:
            inputs += [_input(f, f"{stem}_{suffix}", f"{f.name}.{index}", label)
                       for index, (suffix, label) in enumerate(f.items)]
        else:
            inputs.append(_input(f, stem, f.name))
    return inputs


def _object_inputs(f: RecordField, stem: str, path: str,
                   words: Mapping[str, Mapping[Any, Any]] | None = None) -> list[Input]:
    """The inputs of an object field: one per sub-field, named ``<stem>_<sub>``,
    labelled with the object's label first."""
    inputs: list[Input] = []
    for sub in f.fields:
        name, where = f"{stem}_{sub.name}", f"{path}.{sub.name}"
        inputs += _object_inputs(sub, name, where, words) if sub.kind == "object" \
            else [_input(sub, name, where, _within(label_text(f.label), label_text(sub.label)),
                         words)]
    return inputs


def _object_value(f: RecordField, stem: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """An object field's posted values, only those given (an empty object: none)."""
    out: dict[str, Any] = {}
    for sub in f.fields:
        name = f"{stem}_{sub.name}"
        value = _object_value(sub, name, values) if sub.kind == "object" \
            else _value(sub, values.get(name, ""))
        if value not in (None, {}):
            out[sub.name] = value
    return out


def number(raw: str) -> Any:
    """A typed number, or the text itself so that the engine names it as not a number."""
    raw = raw.strip()
    try:
        return int(raw)
    except ValueError:
        return raw


def _value(f: RecordField, raw: Any) -> Any:
    """A posted value as the record holds it; None when not given."""
    if f.kind == "bool":
        if f.widget == "result":
            return {"true": True, "false": False}.get(raw)
        return True if raw == "on" else None
    if raw in ("", None):
        return None
    if f.kind in ("int", "seat", "ints") or (f.kind == "enum" and all(map(is_int, f.values))):
        return number(raw)
    return raw


def grid_record(engine: Engine, rules: Mapping[str, Any], players: int,
                values: Mapping[str, Any], hints: Mapping[str, Any]) -> dict[str, Any]:
    """The deal record of a row's posted ``values`` (by input name; a per-seat input
    holds a list): the fields given, the hinted ones, and no field whose condition on
    another field does not hold (a Null game's matadors, a wenz's partner)."""
    record: dict[str, Any] = {}
    for f in engine.record_fields(rules, players):
        stem = f.input or f.name
        if f.widget == "hint":
            record[f.name] = hints.get(f.name)
        elif f.kind == "objects":
            record[f.name] = []
            for slot in range(f.slots):
                entry = {sub.name: _value(sub, values.get(f"{stem}{slot}_{sub.name}", ""))
                         for sub in f.fields}
                if any(v is not None for v in entry.values()):
                    record[f.name].append(entry)
        elif f.kind == "object":
            if value := _object_value(f, stem, values):
                record[f.name] = value
        else:
            if f.items:
                raw = [values.get(f"{stem}_{suffix}", "") for suffix, _label in f.items]
            else:
                raw = values.get(stem, "")
            if isinstance(raw, list):
                value = [_value(f, x.strip()) for x in raw]
                if f.widget == "seats":  # the seats given, in order: one or two of them
                    value = [v for v in value if v is not None]
                if f.required or any(v is not None for v in value):
                    record[f.name] = value
            elif (value := _value(f, raw)) is not None:
                record[f.name] = value
    for f in engine.RECORD:
        when = f.applies
        if when is not None and when.field and f.name in record \
                and record.get(when.field) not in when.values:
            del record[f.name]
    return record


def input_at(path: str, inputs: list[Input]) -> str | None:
    """The input an engine error's field path points at (``bids.2`` → the bids,
    ``tricks`` → team A's tricks, ``melds.0.rank`` → the first meld's rank), or None."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        for candidate in inputs:
            if candidate.path == prefix:
                return candidate.name
        for candidate in inputs:
            if candidate.path.startswith(prefix + "."):
                return candidate.name
    return None
