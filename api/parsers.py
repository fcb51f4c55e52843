"""A JSON parser that turns every malformed body into a 400, never a 500.

Python's ``json`` accepts ``NaN``/``Infinity`` (not JSON) and raises ``RecursionError``
on very deep nesting; both would otherwise escape DRF's ``ParseError`` handling.
"""

import json

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
            return json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError, UnicodeDecodeError) as exc:
            raise ParseError(_("The body is not valid JSON: %(reason)s") % {"reason": exc}) \
                from None
