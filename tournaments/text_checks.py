"""Checks of free text before it is stored (pure Python, no Django)."""

from __future__ import annotations


def storable(text: str) -> bool:
    """False for text a database cannot store: a NUL character or a lone surrogate."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
