"""Reading a club's member list from CSV: one member per line, name and member number.

Terms: a *line* is one data line of the file, numbered as a spreadsheet numbers it (the
header, when there is one, is line 1). The file may be separated by semicolons (German
spreadsheets), commas or tabs; a first line naming the columns (``Name``/``name`` and
``Mitgliedsnummer``/``member_number``/``Nr``) is a header and is skipped. Every line's
problems are collected, each with the column it concerns (``name``, ``member_number``
or ``line``); nothing here touches the database. A *suspect* is a line whose name is
alike another line's or a member's (``clubs.names.loose_key``): not an error, but the
import asks about it first.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.base import fill
from games.errors import FieldError, UserError

MAX_LINES = 5000
MAX_BYTES = 1_000_000
# the highest line number a file can have: every line (a blank one too) takes a byte
MAX_LINE_NUMBER = MAX_BYTES
MAX_NAME = 120
MAX_NUMBER = 40
NAME_HEADERS = {"name", "namen", "spieler", "player", "mitglied", "member"}
NUMBER_HEADERS = {"member_number", "member number", "mitgliedsnummer", "mitglieds-nr",
                  "mitglieds-nr.", "nr", "nr.", "nummer", "number"}


@dataclass
class Line:
    number: int
    name: str = ""
    member_number: str = ""
    errors: list[tuple[str, Any, dict]] = field(default_factory=list)
    status: str = "new"  # new, unchanged, exists (a member of that name: ask), error
    match: Any = None    # the existing member a line with status "exists" may be
    # Near-duplicates (``clubs.names.loose_key``): ``(message, params)`` per line or member
    # alike; a line with any is a *suspect*, imported only when the director says so.
    alike: list[tuple[Any, dict]] = field(default_factory=list)

    @property
    def suspect(self) -> bool:
        return bool(self.alike) and not self.errors

    @property
    def alike_messages(self) -> list[str]:
        return [fill(str(message), params) for message, params in self.alike]

    @property
    def messages(self) -> list[tuple[str, str]]:
        """``(column, message)`` per error, in the active language."""
        return [(column, fill(str(message), params)) for column, message, params in self.errors]

    def error(self, column: str, message, **params: Any) -> None:
        self.errors.append((column, message, params))
        self.status = "error"


class FileProblem(UserError):
    """The file as a whole cannot be read (not text, too big, empty): a user error on
    the field ``csv``."""

    def __init__(self, message, **params: Any):
        super().__init__([FieldError("csv", message, params)])

    def render(self) -> str:
        return fill(str(self.message), self.params)


def decode(data: bytes) -> str:
    """UTF-8 (with or without byte-order mark), else Windows-1252 as older Excel writes."""
    if len(data) > MAX_BYTES:
        raise FileProblem(_("The file is larger than %(max)s bytes."), max=MAX_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _dialect(text: str) -> str:
    first = text.split("\n", 1)[0]
    return max((";", ",", "\t"), key=first.count) if any(d in first for d in ";,\t") else ";"


def _is_header(cells: list[str]) -> bool:
    lowered = [c.strip().casefold() for c in cells]
    return bool(lowered) and lowered[0] in NAME_HEADERS and (
        len(lowered) < 2 or lowered[1] in NUMBER_HEADERS or not lowered[1])


def parse_members(text: str) -> list[Line]:
    """The file's data lines with their problems (blank lines are skipped)."""
    if not isinstance(text, str):
        raise FileProblem(_("The member list must be text."))
    if len(text) > MAX_BYTES:
        raise FileProblem(_("The file is larger than %(max)s bytes."), max=MAX_BYTES)
    if "\x00" in text:
        raise FileProblem(_("This is not a text file."))
    text = text.lstrip("\ufeff")
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=_dialect(text)))
    except csv.Error as exc:
        raise FileProblem(_("The file is not valid CSV: %(reason)s"), reason=str(exc)) from None
    lines: list[Line] = []
    seen: dict[str, int] = {}
    for index, cells in enumerate(rows, start=1):
        if not any(c.strip() for c in cells):
            continue
        if index == 1 and _is_header(cells):
            continue
        line = Line(number=index)
        lines.append(line)
        if len(lines) > MAX_LINES:
            raise FileProblem(_("At most %(max)s members can be imported at once."),
                              max=MAX_LINES)
        if len([c for c in cells[2:] if c.strip()]):
            line.error("line", _("Only two columns are read: name and member number."))
        line.name = cells[0].strip()
        line.member_number = cells[1].strip() if len(cells) > 1 else ""
        if not line.name:
            line.error("name", _("The name is missing."))
        elif len(line.name) > MAX_NAME:
            line.error("name", _("At most %(max)s characters."), max=MAX_NAME)
        if len(line.member_number) > MAX_NUMBER:
            line.error("member_number", _("At most %(max)s characters."), max=MAX_NUMBER)
        elif line.member_number:
            if line.member_number in seen:
                line.error("member_number",
                           _("Member number %(number)s is already on line %(line)s."),
                           number=line.member_number, line=seen[line.member_number])
            else:
                seen[line.member_number] = index
    if not lines:
        raise FileProblem(_("The file holds no members."))
    return lines
