"""CSV files for spreadsheet programs: semicolon-separated UTF-8 with a byte-order mark,
and text cells a spreadsheet would run as a formula defused; and the one way every page
and API view hands such a file out (``csv_download``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import HttpResponse


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


def csv_download(text: str, filename: str) -> HttpResponse:
    """The file as a download named ``filename``."""
    return HttpResponse(text, content_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
