"""The JSON parser's checks of what JSON allows and the API does not (``api.parsers``):
found anywhere in a body, named in the answer, and never mistaken where the text only
looks like it (a long digit run inside a string). The checks run level by level in C
(issue 52: a maximal body with credentials took six times its parsing); these pin what
they refuse. orjson reads a body first (``json.loads`` alone took longer than the 100 ms
a maximal body may take): what it reads must be what the standard reader reads, and
every refusal must stay worded and placed as the standard reader's."""

import io
import json
import math

import pytest
from django.utils import translation
from hypothesis import assume, given, settings
from hypothesis import strategies as st
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


@pytest.mark.parametrize("number", [2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1,
                                    9 * 10**18, 10**39, -(10**40) + 1])
def test_an_integer_stays_whole_up_to_the_bound_of_digits(number):
    """orjson reads an integer beyond 64 bits as a float; the parser keeps it whole, as
    before, with texts around it or without."""
    for body in ({"n": number}, {"a": "x", "b": "y", "c": "z", "n": [number, 0.5]}):
        data = parse(json.dumps(body))
        value = data["n"] if "a" not in data else data["n"][0]
        assert value == number and type(value) is int


@pytest.mark.parametrize("text, message", [
    # the standard reader's line and column, where orjson would place the fault otherwise
    ("[1,]", "The body is not valid JSON (line 1, column 4)."),
    ("  ", "The body is not valid JSON (line 1, column 3)."),
    ("[01]", "The body is not valid JSON (line 1, column 3)."),
    ("[1.]", "The body is not valid JSON (line 1, column 3)."),
    ('\n\n  "üüü", x', "The body is not valid JSON (line 3, column 8)."),
    ("\ufeff[1]", "The body is not valid JSON (line 1, column 1)."),
    ("[NaN]", "NaN is not valid JSON."),
    ('{"a": Infinity}', "Infinity is not valid JSON."),
    ('{"a": -Infinity}', "-Infinity is not valid JSON."),
    ('{"a": [1e400]}', "The number 1e400 is too large."),
    ('{"a": ["\\ud800"]}',
     "The body holds text that is not valid Unicode (a lone surrogate) in $.a[0]."),
])
def test_every_refusal_is_worded_and_placed_as_the_standard_readers(text, message):
    assert refusal(text) == message


NUMBER_LITERALS = st.from_regex(
    r"-?(0|[1-9][0-9]{0,45})(\.[0-9]{1,30})?([eE][-+]?[0-9]{1,3})?", fullmatch=True)


def refused_by_the_checks(value) -> bool:
    """What the checks refuse of what ``json.loads`` reads: a number too large, a lone
    surrogate, nesting beyond MAX_DEPTH."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                return True
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((item, depth + 1) for pair in items for item in pair)
        elif isinstance(node, float) and not math.isfinite(node):
            return True
        elif isinstance(node, int) and len(str(abs(node))) > 40:
            return True
        elif isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def assert_read_as_json_loads_reads(text: str) -> None:
    expected = json.loads(text)
    if refused_by_the_checks(expected):
        refusal(text)
    else:  # repr tells 1 from 1.0 and 0.0 from -0.0
        assert repr(parse(text)) == repr(expected)


@given(literals=st.lists(NUMBER_LITERALS, min_size=1, max_size=6), texts=st.booleans())
@settings(max_examples=300, deadline=None, database=None)
def test_every_number_is_read_as_the_standard_reader_reads_it(literals, texts):
    tail = ',"' + "1" * 20 + '","a","b","c","d"' if texts else ""
    assert_read_as_json_loads_reads("[" + ",".join(literals) + tail + "]")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**45), 10**45) | st.floats()
    | st.text(st.characters(exclude_categories=()), max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(exclude_categories=()), max_size=4), inner,
                      max_size=4), max_leaves=30)


@given(value=json_values, ascii_only=st.booleans())
@settings(max_examples=300, deadline=None, database=None)
def test_any_body_is_read_or_refused_as_the_standard_reader_and_the_checks_do(
        value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assume(ascii_only or not refused_by_the_checks(value))  # else no UTF-8 body
    assert_read_as_json_loads_reads(text)


@pytest.mark.parametrize("body", [
    {"a": '5" floppy', "n": 2**64},  # a quote escaped before the number
    {"a": "1" * 30, "n": [2**64, -(2**63) - 1], "b": "2" * 30},  # long runs in texts
    {"a": "x\\", "n": 10**30},  # an escaped backslash before a closing quote
    {"k" + "1" * 20: 10**25, "a": "1" * 25},
])
def test_an_integer_beyond_64_bits_is_found_among_texts(body):
    text = json.dumps(body)
    assert repr(parse(text)) == repr(json.loads(text))


def test_digits_in_texts_are_not_numbers():
    body = {"a": "1" * 30, "b": ["2" * 19] * 150, "c": 'say "hi" 3' + "3" * 20, "n": 5}
    assert parse(json.dumps(body)) == body


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "latin-1"])
def test_a_body_in_another_charset_is_checked_as_in_utf8(encoding):
    def parse_in(text: str):
        with translation.override("en"):
            return StrictJSONParser().parse(io.BytesIO(text.encode(encoding)),
                                            parser_context={"encoding": encoding})

    with pytest.raises(ParseError) as caught:
        parse_in('{"n": [0.5, 1e400]}')
    assert str(caught.value.detail) == "The number 1e400 is too large."
    assert parse_in('{"n": 123456789012345678901234567890}') == {
        "n": 123456789012345678901234567890}
