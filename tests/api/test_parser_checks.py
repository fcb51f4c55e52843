"""The JSON parser's checks of what JSON allows and the API does not (``api.parsers``):
found anywhere in a body, named in the answer, and never mistaken where the text only
looks like it (a long digit run inside a string). The checks run level by level in C
(issue 52: a maximal body with credentials took six times its parsing); these pin what
they refuse."""

import io
import json

import pytest
from django.utils import translation
from rest_framework.exceptions import ParseError

from api.parsers import MAX_DEPTH, StrictJSONParser


def parse(text: str):
    with translation.override("en"):
        return StrictJSONParser().parse(io.BytesIO(text.encode()), parser_context={})


def refusal(text: str) -> str:
    with pytest.raises(ParseError) as caught:
        parse(text)
    return str(caught.value.detail)


LONG = "1" + "0" * 40  # 41 digits


@pytest.mark.parametrize("text, named", [
    ("[" + "0," * 1000 + LONG + "]", LONG[:40] + "…"),
    ('{"a": [1, 2, {"b": -' + LONG + '}]}', "-" + LONG[:39] + "…"),
    ('{"a": [0.5, 1.5, [2.5, 1e999]]}', "1e999"),
    ('{"a": "2e999 in a text", "b": [1.5e400]}', "1.5e400"),
    ('{"a": "1e999 in a text", "b": [-1.5e400]}', "-1.5e400"),
    ('{"a": 1' + "0" * 400 + '.5}', "1" + "0" * 39 + "…"),
])
def test_a_number_too_large_is_named_wherever_it_is(text, named):
    assert refusal(text) == f"The number {named} is too large."


def test_what_only_looks_like_a_large_number_is_taken():
    text = json.dumps({"iban": LONG * 2, "note": "1e999", "n": 10**39, "x": 1.5e300,
                       "deep": [[["e-0001"]]]})
    assert parse(text) == json.loads(text)


def test_nesting_is_bounded_by_containers():
    assert parse("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)) is not None
    assert "nested" in refusal("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2))
    assert "nested" in refusal('{"a": [' + '{"b": [' * 20 + "]}" * 20 + "]}")
    # braces in texts are not nesting
    assert parse(json.dumps({"a": "[{" * 100})) == {"a": "[{" * 100}


def test_a_lone_surrogate_is_named_by_where_it_is():
    message = refusal('{"a": [1, {"b": "x\\ud800"}]}')
    assert "surrogate" in message and "$.a[1].b" in message
    assert "surrogate" in refusal('{"\\udc00": 1}')
    assert parse('{"a": "\\ud83c\\udca1"}') == {"a": "\U0001f0a1"}
