"""Query parameters, read strictly: a whole number is ASCII digits only, within bounds.

``str.isdigit`` accepts "²" (which ``int`` refuses) and ``int`` reads "٣" as 3; neither is
a number a client means, so both are a 400 naming the parameter.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_int(raw: str | None, name: str, *, low: int, high: int) -> int | None:
    """``raw`` as an int in ``low..high``; None when absent or empty; else a 400."""
    if raw is None or raw == "":
        return None
    if _DIGITS.fullmatch(raw) is None or not low <= int(raw) <= high:
        raise ValidationError({name: [
            _("Must be a whole number from %(low)s to %(high)s (digits 0-9 only).")
            % {"low": low, "high": high}]})
    return int(raw)


def int_param(request, name: str, *, low: int, high: int, default: int | None = None):
    value = parse_int(request.query_params.get(name), name, low=low, high=high)
    return default if value is None else value
