"""What the OpenAPI schema says beyond the views' own annotations.

- **Deal records, one schema per game**, made from each engine's ``RECORD`` (the fields
  of games.md's tables): ``SkatDeal``, ``SchafkopfDeal``, ``LabatardeDeal`` … and
  ``<Game>DealEntry`` (the record plus its ``number``, as a table posts it). A table's
  game decides which one a body must be; the body carries no game of its own, so the
  request and the stored record are ``oneOf`` the five (their fields and values are
  disjoint, so exactly one fits) — ``DEAL_RECORD`` and ``DEAL_ENTRY`` for the views'
  annotations.
- **The open event document**: ``EventDocument`` and its parts (``EventTable`` …), made
  from the document's JSON Schema (``archive/event.schema.json``) in
  OpenAPI 3.0's dialect, with every bound of the schema.
- **Error answers on every operation that can give them** (api.md, "Errors"): 400 with
  the flat ``errors`` list where a body or a query parameter is read, 401 everywhere
  (a wrong token), 403 where the caller's role matters, 404 where the path names
  something, 409 on every write, 412 and 428 where ``If-Match`` is read, 413 and 415
  where a body is read, 429 where a throttle applies. All share the ``Error`` schema.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

from api.parsers import anonymous_capped, view_body_bytes
from archive.event_schema import event_schema
from games.engines import all_engines
from tournaments.bounds import MAX_DEAL_NUMBER
from tournaments.models import REASON_MAX

READS = {"get", "head"}
WRITES = {"post", "put", "patch", "delete"}
# operations a throttle guards (api.md: too many failed logins; the anonymous scorer;
# objections and calls per token)
THROTTLED = {"v1_auth_token_create", "v1_games_score_create", "v1_tables_objections_create",
             "v1_tables_calls_create", "v1_tournaments_registrations_create"}

DESCRIPTIONS = {
    "400": "Invalid input: every offending field is named in ``errors``; nothing stored.",
    "401": "No or wrong credentials.",
    "403": "The credentials do not allow this.",
    "404": "Not found, or not visible to the caller.",
    "409": "The state forbids it now (round closed, sheet submitted, number taken …).",
    "412": "If-Match names an older version.",
    "413": "The body is larger than the limit.",
    "415": "The body is not JSON.",
    "428": "A correction needs If-Match.",
    "429": "Too many requests; see Retry-After.",
}

ERROR = {
    "type": "object",
    "description": "Every error answer (api.md, \"Errors\"); a 400 also nests the "
                   "messages under the offending fields, as DRF does.",
    "properties": {
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "errors": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "field": {"type": "string", "description": "dotted path, '' for the "
                                                           "whole body"},
                "message": {"type": "string"},
                "deal": {"type": "integer", "description": "0-based index in a list "
                                                            "of deals"},
                "number": {"type": "integer", "description": "the deal's number"},
            },
            "required": ["field", "message"],
        }},
    },
    "required": ["detail"],
}


def callers(view, method: str) -> tuple[bool, str]:
    """Whether anonymous callers may call ``method`` on ``view``, and who may: asked of
    the view's permission classes (``api.permissions``: ``who``); a class without ``who``
    (DRF's) is asked ``has_permission`` for an anonymous request."""
    anonymous, texts = True, []
    for permission in view.get_permissions():
        if hasattr(permission, "who"):
            allowed, text = permission.who(method, view)
        else:
            nobody = SimpleNamespace(method=method, user=AnonymousUser(), auth=None)
            allowed = permission.has_permission(nobody, view)
            text = "anyone, also without credentials" if allowed else "authenticated callers"
        anonymous = anonymous and allowed
        texts.append(text)
    return anonymous, " and ".join(texts) or "anyone, also without credentials"


# api.strict: no control character (Unicode category Cc) in a text; a multi-line one
# (the member CSV) keeps tab, line feed and carriage return
NO_CONTROL = r"^[^\u0000-\u001f\u007f-\u009f]*$"
NO_CONTROL_MULTILINE = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"


class ApiAutoSchema(AutoSchema):
    """Says in every operation who may call it: in ``security`` (``{}`` beside the
    credentials where anonymous callers may) and in the description; and what
    ``api.strict`` refuses: a request body's object takes no other keys
    (``additionalProperties: false``), a text no control character (``pattern``)."""

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and schema.get("type") == "object":
            schema["additionalProperties"] = False
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if not isinstance(schema, dict) or not isinstance(field, serializers.CharField):
            return schema
        if direction == "request" and schema.get("type") == "string" \
                and "pattern" not in schema and "format" not in schema:
            schema["pattern"] = (NO_CONTROL_MULTILINE if getattr(field, "multiline", False)
                                 else NO_CONTROL)
        return schema

    def _callers(self) -> tuple[bool, str]:
        return callers(self.view, self.method.upper())

    def get_auth(self):
        auths = super().get_auth()
        if self._callers()[0] and {} not in auths:
            auths.append({})
        return auths

    def get_description(self) -> str:
        own = super().get_description() or ""
        anonymous, text = self._callers()
        who = f"**Who may call:** {text}."
        if not anonymous:
            who += " Anonymous callers get 401."
        if self.method.lower() in WRITES - {"delete"}:
            who += f" {self._body_bound(anonymous)}"
        return f"{own}\n\n{who}" if own else who

    def _body_bound(self, anonymous: bool) -> str:
        """The body's bound (``api.parsers.body_limit``): beyond it 413."""
        most = view_body_bytes(self.view)
        fewer = settings.ANONYMOUS_MAX_BODY_BYTES
        if anonymous and anonymous_capped(self.view) and fewer < most:
            return (f"**Body:** at most {most:,} bytes, {fewer:,} without credentials "
                    "(413 beyond).")
        return f"**Body:** at most {most:,} bytes (413 beyond)."


def _component(engine) -> str:
    return engine.key.capitalize()


def record_name(engine) -> str:
    return f"{_component(engine)}Deal"


def entry_name(engine) -> str:
    return f"{_component(engine)}DealEntry"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _engines() -> list:
    return sorted(all_engines(), key=lambda engine: engine.key)


DEAL_RECORD: dict[str, Any] = {"oneOf": [_ref(record_name(e)) for e in _engines()]}
DEAL_ENTRY: dict[str, Any] = {"oneOf": [_ref(entry_name(e)) for e in _engines()]}
DEAL_CORRECTION: dict[str, Any] = {"oneOf": [_ref(f"{entry_name(e)}Correction")
                                             for e in _engines()]}


def deal_components() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for engine in _engines():
        record = engine.record_schema()
        out[record_name(engine)] = record
        entry = {**record, "properties": {
            "number": {"type": "integer", "minimum": 1, "maximum": MAX_DEAL_NUMBER,
                       "description": "The deal's number in the sheet (required when "
                                      "posting; a correction keeps it)."},
            **record["properties"]}}
        out[entry_name(engine)] = entry
        out[f"{entry_name(engine)}Correction"] = {**entry, "properties": {
            **entry["properties"],
            "reason": {"type": "string", "maxLength": REASON_MAX,
                       "description": "Why the deal is corrected, in a few words "
                                      "(optional); kept in the history and shown to the "
                                      "deal's players (GET /me/ changes)."}}}
    return out


EVENT_PREFIX = "Event"


def _event_name(key: str) -> str:
    return EVENT_PREFIX + "".join(part.capitalize() for part in key.split("_"))


def _as_openapi(node: Any) -> Any:
    """A part of the event document's JSON Schema (draft 2020-12) in OpenAPI 3.0's
    dialect: ``$defs`` references become components, a type list with ``null``
    becomes ``nullable``, ``const`` a one-value ``enum``; every bound stays."""
    if isinstance(node, list):
        return [_as_openapi(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$schema", "$id", "$defs", "version"):
            continue
        if key == "$ref":
            out[key] = f"#/components/schemas/{_event_name(value.rsplit('/', 1)[-1])}"
        elif key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            out["type"] = kinds[0]
            if len(kinds) < len(value):
                out["nullable"] = True
        elif key in ("properties", "patternProperties"):
            out[key] = {name: _as_openapi(child) for name, child in value.items()}
        else:
            out[key] = _as_openapi(value)
    if out.get("oneOf") and {"type": "null"} in node["oneOf"]:  # null or one shape
        rest = [item for item in out.pop("oneOf") if item != {"type": "null"}]
        out.update({"allOf": rest, "nullable": True})
    if "enum" in out and "const" in node and "type" not in out:
        out["type"] = "string" if isinstance(node["const"], str) else "integer"
    return out


def event_components(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``EventDocument`` and one ``Event<Part>`` per part of the event document's JSON
    Schema (``GET /api/v1/formats/event/``), as OpenAPI components."""
    out = {_event_name(key): _as_openapi(part) for key, part in schema["$defs"].items()}
    out[f"{EVENT_PREFIX}Document"] = _as_openapi(schema)
    return out


EVENT_DOCUMENT = _ref(f"{EVENT_PREFIX}Document")


def _codes(method: str, operation: dict[str, Any]) -> list[str]:
    parameters = operation.get("parameters", [])
    where = {p["in"] for p in parameters}
    headers = {p["name"].lower() for p in parameters if p["in"] == "header"}
    has_body = "requestBody" in operation
    # no authentication at all (the games and the scorer): no 401, no 403
    public = operation.get("security", []) == [{}]
    codes = [] if public else ["401"]
    if has_body or "query" in where:
        codes.append("400")
    if not public:
        codes.append("403")
    if "path" in where:
        codes.append("404")
    if method in WRITES and not public:
        codes.append("409")
    if "if-match" in headers:
        codes += ["412", "428"]
    if has_body:
        codes += ["413", "415"]
    if operation.get("operationId") in THROTTLED:
        codes.append("429")
    return codes


def add_components_and_errors(result: dict[str, Any], generator, request, public):
    """drf-spectacular postprocessing hook (``POSTPROCESSING_HOOKS``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(deal_components())
    schemas.update(event_components(event_schema()))
    schemas["Error"] = ERROR
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in READS | WRITES:
                continue
            responses = operation.setdefault("responses", {})
            for code in _codes(method, operation):
                responses[code] = ({
                    "description": DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": _ref("Error")}}})
    return result
