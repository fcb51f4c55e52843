"""The published OpenAPI schema: generated without a warning (the deploy check fails on
one) and saying what the answers really are."""

import re

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command

from api.openapi import THROTTLED
from api.parsers import DEFAULT_MAX_BODY_BYTES


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(path))
    return yaml.safe_load(path.read_text())


@pytest.mark.parametrize("path", [
    "/api/v1/tables/{table_id}/deals/",
    "/api/v1/tables/{table_id}/history/",
])
def test_deal_list_and_history_are_arrays(schema, path):
    answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    assert answer["schema"]["type"] == "array"


OPERATIONS = ("get", "post", "put", "patch", "delete")


def _free_form(schema, components, depth=0) -> bool:
    """An object without any described property: the schema tells a client nothing."""
    if "$ref" in schema:
        return depth == 0 and _free_form(components[schema["$ref"].rsplit("/", 1)[1]],
                                         components, 1)
    if schema.get("type") == "array":
        return _free_form(schema.get("items", {}), components, depth)
    return (schema.get("type") == "object" and not schema.get("properties")
            and schema.get("additionalProperties") in (None, {}, True))


def _operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in OPERATIONS:
                yield path, method, operation


def test_every_json_body_and_answer_is_typed(schema):
    components = schema["components"]["schemas"]
    loose = []
    for path, method, operation in _operations(schema):
        bodies = [("request", operation.get("requestBody", {}).get("content", {}))]
        bodies += [(code, answer.get("content", {}))
                   for code, answer in operation["responses"].items()]
        for where, content in bodies:
            json_body = content.get("application/json")
            if json_body and _free_form(json_body["schema"], components):
                loose.append((method, path, where))
    assert loose == []


def test_errors_are_documented_where_they_can_happen(schema):
    for path, method, operation in _operations(schema):
        codes = set(operation["responses"])
        public = operation.get("security") == [{}]
        assert public or "401" in codes, (method, path)
        if "{" in path:
            assert "404" in codes, (method, path)
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= codes, (method, path)
        if method != "get" and not public:
            assert "409" in codes, (method, path)
        for code in codes - {"200", "201", "204", "304"}:
            answer = operation["responses"][code]["content"]["application/json"]["schema"]
            assert answer == {"$ref": "#/components/schemas/Error"}, (method, path, code)
    correction = schema["paths"]["/api/v1/tables/{table_id}/deals/{number}/"]["put"]
    assert {"412", "428"} <= set(correction["responses"])
    # every rate-limited operation says so (the sign-up's per-address limit included)
    throttled = {op["operationId"] for _p, _m, op in _operations(schema)
                 if "429" in op["responses"]}
    assert throttled == THROTTLED
    signup = schema["paths"]["/api/v1/tournaments/{tournament_id}/registrations/"]["post"]
    assert "429" in signup["responses"]


def test_each_game_has_its_own_deal_record(schema):
    components = schema["components"]["schemas"]
    body = schema["paths"]["/api/v1/tables/{table_id}/deals/"]["post"]["requestBody"]
    choices = body["content"]["application/json"]["schema"]["oneOf"]
    names = {choice["$ref"].rsplit("/", 1)[1] for choice in choices}
    assert names == {"SkatDealEntry", "SchafkopfDealEntry", "BaptistenskatDealEntry",
                     "BaslerDealEntry", "LabatardeDealEntry", "DoppelkopfDealEntry"}
    skat = components["SkatDeal"]
    assert skat["additionalProperties"] is False
    assert skat["properties"]["matadors"]["minimum"] == -11
    assert components["SchafkopfDeal"]["required"] == ["game"]
    assert components["BaslerDealEntry"]["properties"]["number"]["minimum"] == 1


@pytest.mark.parametrize("path,name,low,high", [
    ("/api/v1/clubs/", "limit", 1, 1000),
    ("/api/v1/tournaments/", "offset", 0, 10**9),
    ("/api/v1/tournaments/{tournament_id}/standings/", "round", 1, 10_000),
    ("/api/v1/clubs/{club_id}/evenings/", "year", 1900, 2999),
    ("/api/v1/clubs/{club_id}/seasons/{year}/", "year", 1900, 2999),
])
def test_query_bounds_are_the_ones_the_server_enforces(schema, path, name, low, high):
    from api import query

    parameters = {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]}
    bounds = parameters[name]["schema"]
    assert (bounds["minimum"], bounds["maximum"]) == (low, high)
    definition = getattr(query, name.upper())
    assert (definition.low, definition.high) == (low, high)


@pytest.mark.parametrize("method,path,anonymous", [
    ("get", "/api/v1/tournaments/", True),
    ("get", "/api/v1/tournaments/{id}/", True),
    ("get", "/api/v1/tournaments/{tournament_id}/standings/", True),
    ("get", "/api/v1/tournaments/{tournament_id}/rounds/", True),
    ("get", "/api/v1/clubs/", True),
    ("get", "/api/v1/games/", True),
    ("post", "/api/v1/games/{game}/score/", True),
    ("post", "/api/v1/tournaments/", False),
    ("post", "/api/v1/tournaments/{id}/finish/", False),
    ("get", "/api/v1/players/", False),
    ("get", "/api/v1/tables/{table_id}/", False),
    ("get", "/api/v1/tournaments/{tournament_id}/cash/", False),
    ("get", "/api/v1/tournaments/{id}/participants/{participant_id}/", False),
])
def test_operations_say_whether_anonymous_callers_may(schema, method, path, anonymous):
    operation = schema["paths"][path][method]
    assert ({} in operation["security"]) is anonymous
    assert "**Who may call:**" in operation["description"]
    assert ("401" not in operation["responses"]) is (operation["security"] == [{}])


def test_every_operation_says_who_may_call_it(schema):
    for path, method, operation in _operations(schema):
        assert "**Who may call:**" in operation.get("description", ""), (method, path)


def _request_schemas(schema):
    """Each operation's JSON request body schema, its ``$ref`` followed."""
    components = schema["components"]["schemas"]
    for path, method, operation in _operations(schema):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body:
            found = body["schema"]
            if "$ref" in found:
                found = components[found["$ref"].rsplit("/", 1)[1]]
            yield path, method, found


def test_request_bodies_refuse_other_keys_and_say_so(schema):
    """api.strict refuses unknown keys: every object a request body is says
    ``additionalProperties: false`` (issue 52)."""
    loose = [(method, path) for path, method, body in _request_schemas(schema)
             if body.get("type") == "object" and body.get("additionalProperties") is not False]
    assert loose == []


def test_texts_of_requests_state_the_control_character_rule(schema):
    sign_up = schema["components"]["schemas"]["RegistrationRequest"]["properties"]
    assert sign_up["name"]["pattern"] == r"^[^\u0000-\u001f\u007f-\u009f]*$"
    csv = schema["components"]["schemas"]["MemberListRequest"]["properties"]["csv"]
    assert "\\u000a" not in csv["pattern"] and "\\u0000-\\u0008" in csv["pattern"]


def test_a_blank_email_is_in_the_schema(schema):
    email = schema["components"]["schemas"]["RegistrationRow"]["properties"]["email"]
    assert {"type": "string", "maxLength": 0} in email["oneOf"]


def test_body_bounds_are_stated(schema):
    sign_up = schema["paths"]["/api/v1/tournaments/{tournament_id}/registrations/"]["post"]
    assert "**Body:** at most 8,192 bytes" in sign_up["description"]
    login = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert "16,384 without credentials" in login["description"]


def test_every_write_states_its_body_bound(schema):
    """Each write's bound for every caller: 64 KB unless its view declares more (whole
    files and documents, an evening's guests) or less (the sign-up form)."""
    def bound(path, method="post"):
        found = re.search(r"\*\*Body:\*\* at most ([\d,]+) bytes",
                          schema["paths"][path][method]["description"])
        return int(found.group(1).replace(",", "")) if found else None

    writes = [(path, method) for path, operations in schema["paths"].items()
              for method in operations if method in ("post", "put", "patch")]
    assert [w for w in writes if bound(*w) is None] == []
    assert bound("/api/v1/tables/{table_id}/deals/") == DEFAULT_MAX_BODY_BYTES
    assert bound("/api/v1/tables/{table_id}/summary/", "put") == DEFAULT_MAX_BODY_BYTES
    assert bound("/api/v1/tournaments/{id}/participants/") == DEFAULT_MAX_BODY_BYTES
    assert bound("/api/v1/clubs/{club_id}/evenings/") == 524_288
    for large in ("/api/v1/tournaments/import/", "/api/v1/clubs/{club_id}/members/import/"):
        assert bound(large) == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert bound("/api/v1/games/{game}/score/") == settings.SCORER_MAX_BODY_BYTES
