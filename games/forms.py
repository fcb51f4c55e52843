"""House-rule forms generated from the engines' option descriptions.

The engines describe every option once (``games.engines.base.Option``: label, help,
type, bounds, labelled choices); this module turns a description into Django form
fields, so that a page never shows a raw option key or asks for JSON:

- ``bool`` → a checkbox; ``int`` → a number input with the option's bounds, or a
  choice list when the option has choices; ``str`` → a choice list with labels;
- ``preset`` (Schafkopf's tariff) → a choice list of the presets plus "custom", and one
  number input per custom value (``<option>__<field>``), shown and used only when
  "custom" is chosen.

``RulesForm.rules()`` gives the rules object the services store (only options that
differ from the defaults); the engine validates it again, as for the API.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

CUSTOM = "custom"
SEP = "__"


def _language() -> str:
    return "de" if (get_language() or "de").startswith("de") else "en"


def option_fields(engine) -> dict[str, forms.Field]:
    """One form field per option of ``engine`` (and per custom value of a preset)."""
    language = _language()
    fields: dict[str, forms.Field] = {}
    for name, option in engine.OPTIONS.items():
        fields.update(_fields_of(name, option, language))
    return fields


def _fields_of(name: str, option, language: str) -> dict[str, forms.Field]:
    label, help_text = option.label(language), option.help(language)
    choices = [(c.value, c.label_de if language == "de" else c.label_en)
               for c in option.choices or ()]
    if option.kind == "bool":
        return {name: forms.BooleanField(label=label, help_text=help_text, required=False)}
    if option.kind == "int" and choices:
        return {name: forms.TypedChoiceField(label=label, help_text=help_text, coerce=int,
                                             choices=choices)}
    if option.kind == "int":
        return {name: forms.IntegerField(label=label, help_text=help_text,
                                         min_value=option.min, max_value=option.max)}
    if option.kind == "str":
        return {name: forms.ChoiceField(label=label, help_text=help_text, choices=choices)}
    fields: dict[str, forms.Field] = {name: forms.ChoiceField(
        label=label, help_text=help_text, choices=[*choices, (CUSTOM, _("Custom values"))],
        widget=forms.Select(attrs={"data-preset": name}))}
    # the page shows the custom values only while "custom" is chosen (static/js/page.js)
    shown_when = {"data-custom-of": name, "data-custom-value": CUSTOM}
    for sub, field in option.fields.items():
        fields[f"{name}{SEP}{sub}"] = forms.IntegerField(
            label=field.label(language), help_text=field.help(language), required=False,
            min_value=field.min, max_value=field.max,
            widget=forms.NumberInput(attrs=shown_when))
    return fields


def initial_of(engine, rules: dict[str, Any] | None) -> dict[str, Any]:
    """Form initial values for stored (or default) rules."""
    merged = {**engine.default_options(), **(rules or {})}
    initial: dict[str, Any] = {}
    for name, option in engine.OPTIONS.items():
        value = merged[name]
        if option.kind != "preset":
            initial[name] = value
            continue
        custom = value if isinstance(value, dict) else None
        initial[name] = CUSTOM if custom is not None else value
        for sub, field in option.fields.items():
            initial[f"{name}{SEP}{sub}"] = (custom or {}).get(sub, field.default)
    return initial


class RulesForm(forms.Form):
    """Base of a generated house-rules form; ``engine`` is set by ``rules_form_class``."""

    engine: Any = None

    def clean(self):
        data = super().clean()
        for name, option in self.engine.OPTIONS.items():
            if option.kind == "preset" and data.get(name) == CUSTOM:
                for sub in option.fields:
                    key = f"{name}{SEP}{sub}"
                    if data.get(key) is None and key not in self.errors:
                        self.add_error(key, _("Enter a value for the custom choice."))
        return data

    def rules(self) -> dict[str, Any]:
        """The rules object of a valid form: every option differing from its default."""
        data, out = self.cleaned_data, {}
        for name, option in self.engine.OPTIONS.items():
            value = data.get(name)
            if option.kind == "preset" and value == CUSTOM:
                value = {sub: data[f"{name}{SEP}{sub}"] for sub in option.fields}
            if value != option.default:
                out[name] = value
        return out


def rules_form_class(engine) -> type[RulesForm]:
    """A form with the fields of every house-rule option of ``engine``'s game."""
    return type("RulesForm", (RulesForm,), {"engine": engine, **option_fields(engine)})


def rules_field_name(path: str) -> str:
    """The form field an engine error path names: ``rules.tariff.base_solo`` (or a club's
    ``default_rules.tariff.base_solo``) → ``tariff__base_solo``, ``rules.rounds`` →
    ``rounds``."""
    parts = path.split(".")
    if len(parts) > 1 and parts[0] in ("rules", "default_rules"):
        parts = parts[1:]
    return SEP.join(parts)


def rules_in_words(engine, rules: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Every option of ``engine`` as (label, value) in the active language, e.g.
    ("Kontra und Re", "ja"), ("Tarif", "Turnier") — how a person reads stored rules."""
    language = _language()
    merged = {**engine.default_options(), **(rules or {})}
    lines = []
    for name, option in engine.OPTIONS.items():
        value = merged.get(name)
        labels = {c.value: (c.label_de if language == "de" else c.label_en)
                  for c in option.choices or ()}
        if option.kind == "bool":
            text = str(_("yes") if value else _("no"))
        elif isinstance(value, dict):  # a preset's custom values
            text = ", ".join(f"{field.label(language)} {value.get(sub, field.default)}"
                             for sub, field in option.fields.items())
        else:
            text = str(labels.get(value, value))
        lines.append((option.label(language), text))
    return lines
