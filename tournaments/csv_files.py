"""CSV files for spreadsheet programs: semicolon-separated UTF-8 with a byte-order mark,
and text cells a spreadsheet would run as a formula defused; and the one way every page
and API view hands such a file out (``csv_download``)."""

from __future__ import annotations

import csv
import io
import json
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


def json_download(data, filename: str) -> HttpResponse:
    """``data`` as a readable JSON file (UTF-8, indented), a download named ``filename``."""
    body = json.dumps(data, ensure_ascii=False, indent=1)
    return HttpResponse(body, content_type="application/json; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
