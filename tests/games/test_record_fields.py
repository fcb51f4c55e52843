"""Each engine's deal-record fields (``RECORD``, the API schema's source) name exactly the
keys the engine accepts, and every deal the engine accepts — as sent and as stored —
fits the schema made from them."""

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import (
    DealContext,
    EngineUserError,
    basler,
    doppelkopf,
    get_engine,
    labatarde,
    schafkopf,
    skat,
)
from games.engines import baptistenskat as bapt
from tests.games.test_baptistenskat_labatarde_properties import (
    baptistenskat_deal,
    batarde_deal,
)
from tests.games.test_doppelkopf_properties import doppelkopf_deals
from tests.games.test_schafkopf_basler_properties import basler_deals, schafkopf_deals
from tests.games.test_skat_properties import RULES as SKAT_RULES
from tests.games.test_skat_properties import deals_at

SOME = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def names(engine_module, required=None):
    fields = engine_module.RECORD
    if required is None:
        return {f.name for f in fields}
    return {f.name for f in fields if f.required is required}


def test_record_fields_are_the_keys_each_engine_accepts():
    assert names(skat) == skat.DECLARER_FIELDS | skat.RAMSCH_FIELDS | skat.PASSED_FIELDS
    assert names(schafkopf) == set(schafkopf.ALL_FIELDS)
    assert names(schafkopf, required=True) == {"game"}
    assert names(bapt) == names(bapt, required=True) == set(bapt.FIELDS)
    assert names(basler) == set(basler.REQUIRED + basler.OPTIONAL)
    assert names(basler, required=True) == set(basler.REQUIRED)
    items = {f.name: {g.name for g in f.fields} for f in basler.RECORD if f.fields}
    assert items == {"melds": set(basler.MELD_KEYS), "captured": set(basler.CAPTURE_KEYS)}
    assert names(labatarde) == set(labatarde.REQUIRED + labatarde.OPTIONAL)
    assert names(labatarde, required=True) == set(labatarde.REQUIRED)
    assert names(doppelkopf) == set(doppelkopf.FIELDS)
    assert names(doppelkopf, required=True) == {"game"}
    items = {f.name: {g.name for g in f.fields} for f in doppelkopf.RECORD if f.fields}
    assert items == {"announcements": set(doppelkopf.PARTIES),
                     "extras": set(doppelkopf.PARTIES),
                     "penalties": set(doppelkopf.PENALTY_FIELDS)}


def json_schema(openapi: dict) -> dict:
    """OpenAPI 3.0's ``nullable`` as JSON Schema's ``null`` type."""
    if isinstance(openapi, list):
        return [json_schema(v) for v in openapi]
    if not isinstance(openapi, dict):
        return openapi
    out = {k: json_schema(v) for k, v in openapi.items() if k != "nullable"}
    if openapi.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


def check(game: str, deal: dict, ctx: DealContext) -> None:
    engine = get_engine(game)
    schema = json_schema(engine.record_schema())
    jsonschema.validate(deal, schema)
    jsonschema.validate(engine.validate_deal(deal, ctx), schema)


@SOME
@given(data=st.data(), players=st.sampled_from([3, 4]))
def test_skat_deals_fit_the_schema(data, players):
    number = data.draw(st.integers(1, 12))
    deal = data.draw(deals_at(number, players))
    check("skat", deal, DealContext(number, players, SKAT_RULES))


@SOME
@given(data=st.data(), players=st.sampled_from([4, 5]))
def test_schafkopf_deals_fit_the_schema(data, players):
    ctx = DealContext(data.draw(st.integers(1, 10)), players,
                      get_engine("schafkopf").options({}))
    check("schafkopf", data.draw(schafkopf_deals(ctx)), ctx)


@SOME
@given(deal=basler_deals())
def test_basler_deals_fit_the_schema(deal):
    check("basler", deal, DealContext(1, 4, get_engine("basler").options({})))


@SOME
@given(data=st.data(), players=st.integers(3, 6))
def test_baptistenskat_deals_fit_the_schema(data, players):
    deal = data.draw(baptistenskat_deal(players, 1))
    check("baptistenskat", deal, DealContext(1, players, get_engine("baptistenskat")
                                             .options({})))


@SOME
@given(data=st.data(), players=st.sampled_from(sorted(labatarde.SCHEDULES)))
def test_labatarde_deals_fit_the_schema(data, players):
    number = data.draw(st.integers(1, len(labatarde.SCHEDULES[players])))
    deal = data.draw(batarde_deal(players, number))
    check("labatarde", deal, DealContext(number, players, get_engine("labatarde")
                                         .options({})))


@SOME
@given(data=st.data(), players=st.sampled_from([4, 5]))
def test_doppelkopf_deals_fit_the_schema(data, players):
    ctx = DealContext(data.draw(st.integers(1, 10)), players,
                      get_engine("doppelkopf").options({}))
    check("doppelkopf", data.draw(doppelkopf_deals(ctx)), ctx)
    penalty = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}
    check("doppelkopf", penalty, DealContext(1, 4, ctx.rules))


@pytest.mark.parametrize("game", ["skat", "schafkopf", "baptistenskat", "basler",
                                  "labatarde", "doppelkopf"])
def test_an_unknown_key_is_outside_the_schema_and_refused_by_the_engine(game):
    engine = get_engine(game)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"bogus": 1}, json_schema(engine.record_schema()))
    ctx = DealContext(1, engine.preferred_table_size, engine.options({}))
    with pytest.raises(EngineUserError) as refused:
        engine.validate_deal({"bogus": 1}, ctx)
    assert "bogus" in {error.field for error in refused.value.errors}
