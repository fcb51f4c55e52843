"""CSV files for spreadsheet programs: semicolon-separated UTF-8 with a byte-order mark,
and text cells a spreadsheet would run as a formula defused."""

from __future__ import annotations

import csv
import io
from typing import Any


def safe_cell(value: Any) -> Any:
    """Defuse text a spreadsheet would run as a formula (a guest named ``=HYPERLINK…``)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def write_csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
