"""Bounds of what a request or an archive may name, defined once for the API, the pages
and the archive reader alike.

The API reads a bound strictly (``api.query``: 400 naming the parameter); a page reads it
leniently (a bad value shows the default), but against the same bound. Text lengths and
choices are not repeated here: they are read from the model fields
(``archive.spec``); these are the numbers no model field states.
"""

from __future__ import annotations

from tournaments.text_checks import whole_number

MAX_ROUND = 10_000  # the highest round number a request may name
MAX_TABLE = 10_000  # the highest table number of a round
MAX_SEAT = 100  # the highest seat number at a table
MAX_START_NUMBER = 100_000  # the highest start number of a participant
MAX_DEAL_NUMBER = 10_000  # the highest deal number of a sheet
MAX_ID = 2**63 - 1  # the highest id of a row (BigAutoField)
MAX_SEED = 2**63 - 1  # a round's seed is a BigIntegerField, never negative
MAX_OFFSET = 10**9  # the highest offset into a paginated list
MAX_PAGE = 1000  # the most results per page of a list
MAX_STORED_INT = 2**31 - 1  # what a PositiveIntegerField holds on every database
MAX_IP_TEXT = 45  # the longest written IP address (IPv6 with an IPv4 tail)
MAX_ARCHIVE_ITEMS = 100_000  # entries of any one list in an archive
MAX_ARCHIVE_CLUBS = 1000  # clubs named by one archive


def round_number(raw: str | None) -> int | None:
    """``raw`` as a round number ``1..MAX_ROUND`` (ASCII digits only), else None."""
    return whole_number(raw, low=1, high=MAX_ROUND)
