"""Engine errors in the language of the request.

Engines speak English msgids with ``%(name)s`` parameters; here they are translated
with Django's gettext and shaped like DRF's own validation errors: a field maps to a
list of messages, a list entry (deal ``i``) to a dict keyed by ``i``.
"""

from __future__ import annotations

from typing import Any

from games.errors import FieldError, UserError
from games.forms import rules_field_name
from games.words import say


def render(error: FieldError) -> str:
    """The message in the request's language. Text parameters are engine msgids too
    (``Must be %(type)s.`` with ``type="true or false"``): they are translated as well;
    any other text (a name, a value) has no catalog entry and stays as it is."""
    return say(error.message, error.params or {})


def nested_detail(exc: UserError, *, deals_key: str = "deals") -> dict[str, Any]:
    """``{"deals": {"3": {"matadors": ["…"]}}, "rules": {"tariff": ["…"]}}``."""
    detail: dict[str, Any] = {}
    for error in exc.errors:
        path = [part for part in error.field.split(".") if part] or ["non_field_errors"]
        if error.deal is not None:
            path = [deals_key, str(error.deal), *([] if path == [deals_key] else path)]
        node = detail
        for part in path[:-1]:
            child = node.setdefault(part, {})
            if isinstance(child, list):  # a message already sits at this level
                child = node[part] = {"non_field_errors": child}
            node = child
        leaf = node.setdefault(path[-1], [])
        if isinstance(leaf, dict):
            leaf = leaf.setdefault("non_field_errors", [])
        leaf.append(render(error))
    return detail


def flat_errors(exc: UserError) -> list[dict[str, Any]]:
    """Every error as ``{"field", "message", "deal"?, "number"?}`` for clients that
    prefer a flat list."""
    out = []
    for error in exc.errors:
        item: dict[str, Any] = {"field": error.field, "message": render(error)}
        if error.deal is not None:
            item["deal"] = error.deal
            item["number"] = error.number
        out.append(item)
    return out


def add_to_form(form, exc: UserError, *, field_of: dict[str, str] | None = None) -> None:
    """Show an engine or service error next to the form field it names.

    A dotted path names its field whole, as a generated rules form spells it
    (``rules.tariff.base_solo`` → ``tariff__base_solo``), by its last part
    (``rules.kontra_re`` → ``kontra_re``) or, failing that, its first (``player_ids.3`` →
    ``player_ids``); ``field_of`` maps a service's field name to the form's. Anything
    else becomes a non-field error.
    """
    field_of = field_of or {}
    for error in exc.errors:
        parts = error.field.split(".")
        candidates = (rules_field_name(error.field), field_of.get(parts[-1], parts[-1]),
                      field_of.get(parts[0], parts[0]))
        name = next((c for c in candidates if c in form.fields), None)
        form.add_error(name, render(error))
