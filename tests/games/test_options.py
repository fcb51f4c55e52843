"""Every engine's options are described once (games.md "Common conventions"): label and
help in German and English, a type, bounds for every number, labelled choices, and the
validation reads the same description."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines import EngineUserError, all_engines, get_engine
from games.engines.base import Option


def every_option():
    for engine in all_engines():
        for name, option in engine.OPTIONS.items():
            yield engine, name, option
            for sub, field in (option.fields or {}).items():
                yield engine, f"{name}.{sub}", field


OPTIONS = list(every_option())
IDS = [f"{engine.key}.{name}" for engine, name, _option in OPTIONS]
INTS = [(e, n, o) for e, n, o in OPTIONS if o.kind == "int" and o.choices is None]
INT_IDS = [f"{e.key}.{n}" for e, n, _o in INTS]


def rules_with(name: str, value, engine) -> dict:
    """Rules setting option ``name`` (``tariff.base_solo`` sets one custom number)."""
    if "." not in name:
        return {name: value}
    top, sub = name.split(".")
    custom = {key: field.default for key, field in engine.OPTIONS[top].fields.items()}
    return {top: dict(custom, **{sub: value})}


@pytest.mark.parametrize("engine, name, option", OPTIONS, ids=IDS)
def test_every_option_has_a_label_and_help_in_both_languages(engine, name, option):
    for text in (option.label_en, option.label_de, option.help_en, option.help_de):
        assert text.strip() and "_" not in text.split("(")[0]  # no raw key as a label
    assert option.label("de") == option.label_de and option.label("en") == option.label_en


@pytest.mark.parametrize("engine, name, option", OPTIONS, ids=IDS)
def test_choices_carry_labels_in_both_languages(engine, name, option):
    for choice in option.choices or ():
        assert choice.label_en.strip() and choice.label_de.strip()
    if option.kind in ("str", "preset"):
        assert option.choices


@pytest.mark.parametrize("engine, name, option", INTS, ids=INT_IDS)
def test_every_number_has_bounds_named_in_its_help(engine, name, option):
    assert option.min is not None and option.max is not None
    assert option.min <= option.default <= option.max
    for text in (option.help_en, option.help_de):
        assert str(option.max) in text


@pytest.mark.parametrize("value", [10**15, 10**30, 1e30, -(10**15), 2.5, "7", True, None])
@pytest.mark.parametrize("engine, name, option", INTS, ids=INT_IDS)
def test_out_of_range_numbers_are_refused_naming_the_field(engine, name, option, value):
    with pytest.raises(EngineUserError) as exc:
        engine.options(rules_with(name, value, engine))
    assert [e.field for e in exc.value.errors] == [f"rules.{name}"]


@pytest.mark.parametrize("engine, name, option", INTS, ids=INT_IDS)
def test_both_bounds_are_accepted(engine, name, option):
    for value in (option.min, option.max):
        rules = engine.options(rules_with(name, value, engine))
        top = name.split(".")[0]
        assert rules[top] == rules_with(name, value, engine)[top]


@given(st.data())
def test_any_value_within_the_description_is_accepted(data):
    engine, name, option = data.draw(st.sampled_from(OPTIONS))
    if option.choices:
        value = data.draw(st.sampled_from(option.values))
    elif option.kind == "bool":
        value = data.draw(st.booleans())
    elif option.kind == "int":
        value = data.draw(st.integers(option.min, option.max))
    else:
        return
    engine.options(rules_with(name, value, engine))


def test_describe_is_json_and_lists_choices_with_labels():
    for engine in all_engines():
        described = json.loads(json.dumps(engine.describe()))
        for option in described["options"].values():
            assert option["label"]["de"] and option["label"]["en"]
            for choice in option.get("choices", []):
                assert set(choice) == {"value", "label"}
    tariff = get_engine("schafkopf").describe()["options"]["tariff"]
    assert tariff["type"] == "preset"
    assert [c["value"] for c in tariff["choices"]] == ["tournament", "money_10_50",
                                                       "money_20_50"]
    assert tariff["fields"]["base_rufspiel"]["max"] == 1000
    assert tariff["choices"][0]["label"]["de"] == "Turnier (1/2/1/1/1 Punkte)"


def test_a_huge_series_is_refused_before_any_deal_is_scored():
    """Bounded series lengths bound the anonymous scorer's work: a series beyond the bound
    is refused on the option, and a sheet never scores more deals than the bound."""
    skat = get_engine("skat")
    with pytest.raises(EngineUserError) as exc:
        skat.score_sheet([{"passed": True}] * 10, 4, {"series_deals_4": 10**30})
    assert [e.field for e in exc.value.errors] == ["rules.series_deals_4"]
    result = skat.score_sheet([{"passed": True}] * 96, 4, {"series_deals_4": 96})
    assert result.complete and len(result.deals) == 96


def test_an_int_option_without_bounds_cannot_be_declared():
    with pytest.raises(Exception, match="min and max"):
        Option(1, "int", label_en="x", label_de="x", help_en="x", help_de="x")
