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
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_noop as _
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

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


def _validator() -> Draft202012Validator:
    return _validator_for(tuple(game_keys()))


@cache
def _validator_for(_games: tuple[str, ...]) -> Draft202012Validator:
    schema = event_schema()
    return Draft202012Validator(_inlined(schema, schema["$defs"]))


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


def check_event_schema(data: Any) -> None:
    """``UserError`` on the first value of ``data`` the schema refuses (documents in
    order: the first error met, not every one — a damaged document can have thousands)."""
    error = next(iter(_validator().iter_errors(data)), None)
    if error is not None:
        raise UserError([_field_error(error)])
