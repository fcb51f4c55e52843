"""A federation list as a PDF (fpdf2): A4 portrait (landscape for wide lists), one page
per 30 rows, the tournament's name, the list's title and the header on every page, and
"page n of m" at the foot. The text is set in DejaVu Sans where the system has it (every
script a name may use; the image installs ``fonts-dejavu-core``), else in the PDF's
built-in Helvetica with the characters outside Latin-1 replaced."""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext as _
from fpdf import FPDF

from tournaments.federation_lists import FederationList

ROWS_PER_PAGE = 30
MINUS = "\u2212"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def _pdf(landscape: bool) -> tuple[FPDF, str, bool]:
    pdf = FPDF(orientation="L" if landscape else "P", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(12, 12, 12)
    if FONT.exists() and BOLD.exists():
        pdf.add_font("DejaVu", "", str(FONT))
        pdf.add_font("DejaVu", "B", str(BOLD))
        return pdf, "DejaVu", True
    return pdf, "Helvetica", False


def cell_text(value, unicode: bool) -> str:
    """A cell's text: a negative number with the minus sign (U+2212), never a hyphen that
    reads as a dash; without a Unicode font Latin-1 only."""
    shown = "" if value is None else str(value)
    if unicode and isinstance(value, int) and value < 0:
        return MINUS + shown[1:]
    return shown if unicode else shown.encode("latin-1", "replace").decode("latin-1")


def title_size(pdf: FPDF, family: str, title: str, column: float, size: float) -> float:
    """The bold font size at which a column's title fits its column: ``size``, or smaller
    (to 5 pt) instead of cutting the word ("Gewonn…")."""
    while size > 5:
        pdf.set_font(family, "B", size)
        if pdf.get_string_width(title) <= column - 2:
            break
        size -= 0.5
    return size


def list_pdf(listing: FederationList, heading: str) -> bytes:
    """The list as PDF bytes; ``heading`` names the tournament (name and date)."""
    landscape = len(listing.header) > 7
    pdf, family, unicode = _pdf(landscape)

    def text(value) -> str:
        return cell_text(value, unicode)

    ellipsis = "…" if unicode else "."
    width = pdf.w - pdf.l_margin - pdf.r_margin
    total = sum(listing.widths)
    columns = [width * w / total for w in listing.widths]
    numeric = [all(isinstance(row[i], int) or row[i] == "" for row in listing.rows)
               for i in range(len(listing.header))]

    def cell(column: float, height: float, value, *, right: bool, border: str) -> None:
        shown = text(value)
        while len(shown) > 1 and pdf.get_string_width(shown) > column - 2:
            shown = shown[:-2] + ellipsis  # never runs into the next column
        pdf.cell(column, height, shown, border=border, align="R" if right else "L")

    pages = [listing.rows[i:i + ROWS_PER_PAGE]
             for i in range(0, len(listing.rows), ROWS_PER_PAGE)] or [[]]
    for number, rows in enumerate(pages, 1):
        pdf.add_page()
        pdf.set_font(family, "B", 13)
        pdf.cell(width, 7, text(heading), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(family, "", 11)
        pdf.cell(width, 6, text(listing.title), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        size = 8 if landscape or len(listing.header) > 7 else 9
        for column, title, right in zip(columns, listing.header, numeric, strict=True):
            pdf.set_font(family, "B", title_size(pdf, family, text(title), column, size))
            cell(column, 6, title, right=right, border="B")
        pdf.ln()
        pdf.set_font(family, "", size)
        height = (pdf.h - pdf.get_y() - 20) / ROWS_PER_PAGE
        for row in rows:
            for column, value, right in zip(columns, row, numeric, strict=True):
                cell(column, height, value, right=right, border="B")
            pdf.ln()
        pdf.set_y(pdf.h - 14)
        pdf.set_font(family, "", 8)
        pdf.cell(width, 5, text(_("Page %(page)s of %(pages)s") % {
            "page": number, "pages": len(pages)}), align="R")
    return bytes(pdf.output())
