"""The JSON Schema (draft 2020-12) of the open event document, kept beside this module as
``event.schema.json``, and the check of a document against it.

The schema is the document's outer form: every object's keys, every value's type and
bound. What a schema cannot say (a deal checked by its game in its place in the sheet,
references by start number and club slug, numbering in order) the reader adds
(``reading``). A failure is a ``UserError`` on the JSON path of the first offending value
(``rounds[0].tables[2].deals[5].number``), its message translated.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from django.utils.translation import gettext_noop as _
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.validators import extend

from games.choices import game_keys
from games.errors import FieldError, UserError

SCHEMA_FILE = Path(__file__).with_name("event.schema.json")
MEDIA_TYPE = "application/schema+json"
ECHO_MAX = 40

TYPE_MESSAGES = {
    "integer": _("Must be a whole number."),
    "boolean": _("Must be true or false."),
    "string": _("Must be text."),
    "object": _("Must be an object."),
    "array": _("Must be a list."),
}


@cache
def _kept() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def event_schema() -> dict[str, Any]:
    """The schema as served: the kept file, with the games this server knows (the
    registry) as the tournament's ``game`` choices, so a new game needs no edit here."""
    schema = copy.deepcopy(_kept())
    schema["$defs"]["tournament"]["properties"]["game"]["enum"] = game_keys()
    return schema


def _inlined(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/…"}`` replaced by the part it names (the
    schema has no cycles): the validator then follows no reference per value, which took
    a third of the time of a large document."""
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if set(node) == {"$ref"}:
        return _inlined(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    return {key: _inlined(value, defs) for key, value in node.items() if key != "$defs"}


# Keywords whose refusal jsonschema words with ``repr`` of the value refused (``[…] is not
# of type 'object'``, every unknown key listed): for a 2.5 MB body the message took longer
# than the whole walk (issue 52). The same checks here, refusing with the keyword alone —
# ``_field_error`` words the answer from the keyword, the schema and the path, never from
# jsonschema's message. ``oneOf`` keeps each branch's first error only (what
# ``best_match`` picks among), not all of a large value's.
_CONTAINERS = (dict, list)


def _type(validator, types, instance, schema):
    types = types if isinstance(types, list) else [types]
    if not any(validator.is_type(instance, kind) for kind in types):
        yield ValidationError("type")


def _additional_properties(validator, allowed, instance, schema):
    if not isinstance(instance, dict):
        return
    known = schema.get("properties", {})
    if allowed is False and "patternProperties" not in schema:
        if any(key not in known for key in instance):
            yield ValidationError("additionalProperties")
        return
    yield from Draft202012Validator.VALIDATORS["additionalProperties"](
        validator, allowed, instance, schema)


def _counted(keyword, kind, too_many):
    def check(validator, bound, instance, schema):
        if validator.is_type(instance, kind) and (
                len(instance) > bound if too_many else len(instance) < bound):
            yield ValidationError(keyword)
    return check


def _pattern(validator, pattern, instance, schema):
    if isinstance(instance, str) and not re.search(pattern, instance):
        yield ValidationError("pattern")


def _enum(validator, choices, instance, schema):
    if isinstance(instance, _CONTAINERS) and not any(
            isinstance(choice, _CONTAINERS) for choice in choices):
        yield ValidationError("enum")  # a list or object is none of these texts
        return
    yield from Draft202012Validator.VALIDATORS["enum"](validator, choices, instance, schema)


def _one_of(validator, branches, instance, schema):
    firsts, valid = [], None
    for index, branch in enumerate(branches):
        error = next(validator.descend(instance, branch, schema_path=index), None)
        if error is None:
            valid = index
            break
        firsts.append(error)
    if valid is None:
        yield ValidationError("oneOf", context=firsts)
        return
    if any(validator.evolve(schema=branch).is_valid(instance)
           for branch in branches[valid + 1:]):
        yield ValidationError("oneOf: valid under more than one")


CheapValidator = extend(Draft202012Validator, {
    "type": _type, "additionalProperties": _additional_properties, "pattern": _pattern,
    "maxItems": _counted("maxItems", "array", True),
    "minItems": _counted("minItems", "array", False),
    "maxProperties": _counted("maxProperties", "object", True),
    "maxLength": _counted("maxLength", "string", True),
    "minLength": _counted("minLength", "string", False),
    "enum": _enum, "oneOf": _one_of})


def _validator() -> Draft202012Validator:
    return _validator_for(tuple(game_keys()))


@cache
def _validator_for(_games: tuple[str, ...]) -> Draft202012Validator:
    schema = event_schema()
    return CheapValidator(_inlined(schema, schema["$defs"]))


def json_path(parts: Iterable[Any]) -> str:
    """``("rounds", 0, "tables")`` → ``rounds[0].tables``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def dotted_to_json_path(field: str) -> str:
    """The readers' dotted path (``rounds.0.tables.2``) as a JSON path."""
    return json_path(int(p) if p.isdigit() else p for p in field.split(".") if p)


def _field_error(error: ValidationError) -> FieldError:
    path = list(error.absolute_path)
    keyword, schema, value = error.validator, error.schema, error.instance
    if keyword in ("oneOf", "anyOf") and error.context:
        return _field_error(best_match(error.context))
    if keyword == "required":
        missing = next(k for k in error.validator_value if k not in value)
        return FieldError(json_path([*path, missing]), _("This field is required."), {})
    if keyword == "additionalProperties":
        known = schema.get("properties", {})
        extra = next(k for k in value if k not in known)
        return FieldError(json_path([*path, extra]), _("Unknown field “%(name)s”."),
                          {"name": str(extra)[:ECHO_MAX]})
    where = json_path(path) or "document"
    if keyword == "type":
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        kind = next((t for t in types if t != "null"), "object")
        return FieldError(where, TYPE_MESSAGES.get(kind, _("Invalid value.")), {})
    if keyword in ("minimum", "maximum"):
        return FieldError(where, _("Must be a whole number from %(min)s to %(max)s."),
                          {"min": schema.get("minimum", "−∞"), "max": schema.get("maximum", "∞")})
    if keyword == "maxLength":
        return FieldError(where, _("Must be a text of at most %(max)s characters."),
                          {"max": schema["maxLength"]})
    if keyword == "minLength":
        return FieldError(where, _("Must not be empty."), {})
    if keyword in ("enum", "const"):
        if path == ["format"]:
            return FieldError(where, _("Not a Stichliste event document."), {})
        choices = schema["enum"] if keyword == "enum" else [schema["const"]]
        return FieldError(where, _("Must be one of: %(choices)s."),
                          {"choices": ", ".join(str(c) for c in choices)})
    if keyword == "maxItems":
        return FieldError(where, _("At most %(max)s entries."), {"max": schema["maxItems"]})
    if keyword == "minItems":
        return FieldError(where, _("At least %(min)s entries."), {"min": schema["minItems"]})
    if keyword == "maxProperties":
        return FieldError(where, _("At most %(max)s fields."), {"max": schema["maxProperties"]})
    if keyword == "pattern" and path[-1:] == ["slug"]:
        return FieldError(where, _("Must be a slug (letters, digits, “-”, “_”)."), {})
    return FieldError(where, _("Invalid value."), {})


class _Node:
    """A part of the (inlined) schema, for finding the first error fast: its own keywords
    (``own``: jsonschema with the values' schemas left out) and jsonschema-rs (Rust, the
    same draft) for each value's part — a document of 2.5 MB in 5 ms where jsonschema's
    walk takes 570 (issue 52)."""

    def __init__(self, schema: dict[str, Any]):
        own = {k: v for k, v in schema.items() if k != "items"}
        if "properties" in own:  # ``additionalProperties`` reads the known names here
            own["properties"] = dict.fromkeys(own["properties"], True)
        self.own = CheapValidator(own)
        self.properties = {key: (_rust(part), _Node(part))
                           for key, part in schema.get("properties", {}).items()}
        items = schema.get("items")
        self.items = None if items is None else (
            _rust({"type": "array", "items": items}), _Node(items))


def _rust(schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(schema)


@cache
def _tree_for(_games: tuple[str, ...]) -> tuple[jsonschema_rs.Draft202012Validator, _Node]:
    schema = event_schema()
    inlined = _inlined(schema, schema["$defs"])
    return _rust(inlined), _Node(inlined)


def _located(node: _Node, value: Any, path: list) -> ValidationError | None:
    """The first error in ``value``, which jsonschema-rs refused: the node's own keywords
    first (the schema file writes them before ``properties`` and ``items``), then the
    first value it refuses, found by halving a list, so jsonschema only ever sees one
    value's own keywords (and a ``oneOf``'s branches whole)."""
    error = next(node.own.iter_errors(value), None)
    if error is not None:
        error.path.extendleft(reversed(path))
        return error
    if isinstance(value, dict):
        for key, (rust, part) in node.properties.items():
            if key in value and not rust.is_valid(value[key]):
                return _located(part, value[key], [*path, key])
    elif isinstance(value, list) and node.items is not None:
        rust, part = node.items
        low, high = 0, len(value)  # value[:low] valid; a refused one in value[low:high]
        if rust.is_valid(value):
            return None
        while high - low > 1:
            middle = (low + high) // 2
            if rust.is_valid(value[low:middle]):
                low = middle
            else:
                high = middle
        return _located(part, value[low], [*path, low])
    return None


def _first_error(data: Any) -> ValidationError | None:
    """The first error jsonschema would name, or None. jsonschema-rs says whether there is
    one and where (``_located``); where the two differ, jsonschema's walk of the whole
    document decides (the Rust pattern ``$`` refuses a trailing newline that Python's
    lets through)."""
    rust, tree = _tree_for(tuple(game_keys()))
    try:
        if rust.is_valid(data):
            return None
        error = _located(tree, data, [])
    except (ValueError, TypeError, OverflowError):  # a value jsonschema-rs cannot take
        error = None
    if error is not None:
        return error
    return next(iter(_validator().iter_errors(data)), None)


def check_event_schema(data: Any) -> None:
    """``UserError`` on the first value of ``data`` the schema refuses (documents in
    order: the first error met, not every one — a damaged document can have thousands)."""
    error = _first_error(data)
    if error is not None:
        raise UserError([_field_error(error)])
