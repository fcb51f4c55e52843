"""The one description of each game's deal record carries what people see (labels,
widgets, when a field applies), and the engine base checks from it."""

import pytest

from games.engines import DealContext, EngineUserError, all_engines, get_engine


def every_field(fields):
    for f in fields:
        yield f
        yield from every_field(f.fields)


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.key)
def test_every_record_field_has_a_label_and_labelled_choices(engine):
    for f in every_field(engine.RECORD):
        assert f.label, f"{engine.key}.{f.name} has no label"
        assert f.widget
        if f.choice_labels:
            assert len(f.choice_labels) == len(f.values)


def test_kontra_and_re_apply_only_with_the_house_rule():
    skat = get_engine("skat")
    assert {"kontra", "re"} <= {f.name for f in skat.record_fields({"kontra_re": True}, 3)}
    assert not {"kontra", "re"} & {f.name for f in skat.record_fields({}, 3)}
    assert not {"points", "skat_points"} & {f.name for f in skat.record_fields({}, 4)}
    assert {"points", "skat_points"} <= {f.name for f in skat.record_fields({"ramsch": True}, 4)}


def test_preference_applies_only_with_two_packs():
    batarde = get_engine("labatarde")
    assert "preference" not in {f.name for f in batarde.record_fields({}, 4)}
    assert "preference" in {f.name for f in batarde.record_fields({}, 5)}


def test_a_field_given_where_it_does_not_apply_is_refused_with_its_message():
    skat = get_engine("skat")
    ctx = DealContext(1, 3, skat.options({}))
    deal = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True, "kontra": True}
    with pytest.raises(EngineUserError) as refused:
        skat.validate_deal(deal, ctx)
    assert [(e.field, e.message) for e in refused.value.errors] == [
        ("kontra", "Kontra and Re are not played under these rules.")]
    skat.validate_deal({**deal, "kontra": False}, ctx)


def test_every_engine_has_a_presentation():
    from games.presentation import all_presentations

    assert sorted(p.key for p in all_presentations()) == sorted(e.key for e in all_engines())


def test_every_label_of_the_description_has_a_german_translation():
    from django.utils.translation import trans_real

    catalog = trans_real.translation("de")._catalog
    missing = []
    for engine in all_engines():
        for f in every_field(engine.RECORD):
            for label in (f.label, *f.choice_labels, *(text for _s, text in f.items)):
                if label not in catalog:
                    missing.append(f"{engine.key}.{f.name}: {label!r}")
    assert not missing
