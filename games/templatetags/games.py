"""Template tags that ask a game's record description and presentation, so that no
template names a game and no form repeats a bound, a choice or a condition:

- ``{% load games %}{% if t.game|summary_entry %}``;
- ``{% record_field "declarer_points" label=label value=61 %}``: one field of the tablet's
  entry form, drawn by its widget with its bounds, choices and label from the description,
  shown only when it applies under the table's rules and size, and hidden while the field
  it depends on has another value (``data-show-if``; ``show_if`` overrides, ``""`` never
  hides);
- ``{% record_applies "ramsch" as on %}``, ``{% record_def "tricks" as f %}``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.choices import game_name as _game_name
from games.engines import get_engine
from games.engines.base import RecordField
from games.presentation import presentation_of
from games.presentation.grid import RESULT_CHOICES
from games.presentation.labels import label_text

register = template.Library()

PARTIALS = {"seat": "sheet/forms/_seat.html", "seats": "sheet/forms/_seats.html",
            "number": "sheet/forms/_number.html",
            "toggle": "sheet/forms/_toggle.html", "choice": "sheet/forms/_choice.html",
            "result": "sheet/forms/_choice.html"}


@register.filter
def game_name(game: str) -> str:
    """The game's name in the active language."""
    return _game_name(game)


@register.filter
def summary_entry(game: str) -> bool:
    """Whether the game's paper totals may be typed in instead of its deals."""
    return presentation_of(game).summary_entry


def _json(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _show_if(f: RecordField) -> str:
    when = f.applies
    if when is None or not when.field:
        return ""
    return f"{when.field}:{','.join(_json(v) for v in when.values)}"


def _field(state: dict[str, Any], name: str) -> RecordField:
    return get_engine(state["game"]).record_field(name)


@register.simple_tag
def record_def(state: dict[str, Any], name: str) -> RecordField:
    """The description of one record field of the table's game."""
    return _field(state, name)


@register.simple_tag
def record_applies(state: dict[str, Any], name: str) -> bool:
    """Whether the field belongs to a deal under the table's rules and size (a field of
    an object field when its object does)."""
    engine = get_engine(state["game"])
    return engine.field_applies(engine.record_field(name.split(".")[0]), state["rules"],
                                len(state["seats"]))


@register.simple_tag(takes_context=True)
def record_field(context, name: str, **options: Any) -> str:
    """One field of the entry form (see the module's docstring); ``options``: ``label``,
    ``show_if``, ``value`` (a number's start), ``exclude`` (choices left to a button,
    comma-separated), ``extra_class``, ``empty_choice`` (a nullable choice offers "—",
    not given). A dotted ``name`` is a field of an object field
    (``"announcements.re"``): the form nests it (``static/js/sheet/form.js``) and it
    shows when its object does."""
    state = context["state"]
    if not record_applies(state, name):
        return ""
    f = _field(state, name)
    if "." in name and "show_if" not in options:
        options["show_if"] = _show_if(_field(state, name.split(".")[0]))
    shown = presentation_of(state["game"])
    ctx: dict[str, Any] = {
        "state": state, "field": name, "label": options.get("label") or label_text(f.label),
        "show_if": options["show_if"] if "show_if" in options else _show_if(f),
        "extra_class": options.get("extra_class", "")}
    if f.widget == "seats":  # positional items (first the soloist …): the taps' order counts
        ctx["ordered"] = bool(f.items)
    elif f.widget == "seat":
        ctx["type"] = "seat-or-null" if f.nullable and options.get("empty", True) else "seat"
    elif f.widget == "number":
        ctx.update(min=f.low, max=f.high, value=options.get("value", ""))
    elif f.widget == "result":
        ctx.update(type="bool-choice", choices=RESULT_CHOICES)
    elif f.widget == "choice":
        left_out = set(str(options.get("exclude", "")).split(","))
        labels = shown.form_choice_labels.get(name, {})
        ctx["choices"] = [(value, labels.get(value) or label_text(label))
                          for value, label in f.choices if str(value) not in left_out]
        if f.nullable and options.get("empty_choice"):  # "not given": left out of the record
            ctx["choices"].insert(0, ("", "—"))
    return mark_safe(render_to_string(PARTIALS[f.widget], ctx))
