"""Checks of free text before it is stored (pure Python, no Django)."""

from __future__ import annotations

import re
import unicodedata

# tab, line feed and carriage return: the control characters a multi-line text may hold
_LINE_BREAKS = frozenset("\t\n\r")
_DIGITS = re.compile(r"[0-9]{1,19}")


def storable(text: str) -> bool:
    """False for text a database cannot store: a NUL character or a lone surrogate."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def control_characters(text: str, *, multiline: bool = False) -> str:
    """The control characters (Unicode category Cc) in ``text``, in order; a multi-line
    text may hold tabs and line breaks. Empty when there are none."""
    return "".join(c for c in text if unicodedata.category(c) == "Cc"
                   and not (multiline and c in _LINE_BREAKS))


def whole_number(raw: str | None, *, low: int = 0, high: int = 2**63 - 1) -> int | None:
    """``raw`` as an int in ``low..high`` when it is ASCII digits only, else None.

    ``str.isdigit`` accepts "²" (which ``int`` refuses) and ``int`` reads "٣" as 3; neither
    is a number a client means."""
    if raw is None or _DIGITS.fullmatch(raw) is None:
        return None
    value = int(raw)
    return value if low <= value <= high else None
