"""Bounds of what a request may name, defined once for the API and the pages alike.

The API reads a bound strictly (``api.query``: 400 naming the parameter); a page reads it
leniently (a bad value shows the default), but against the same bound.
"""

from __future__ import annotations

from tournaments.text_checks import whole_number

MAX_ROUND = 10_000  # the highest round number a request may name


def round_number(raw: str | None) -> int | None:
    """``raw`` as a round number ``1..MAX_ROUND`` (ASCII digits only), else None."""
    return whole_number(raw, low=1, high=MAX_ROUND)
