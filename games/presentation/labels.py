"""The record description's msgids in the reader's language.

A label is a msgid marked in the engine (``_``), or one with a context
(``pgettext``: ``context\\x04message``, as gettext stores it)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy

CONTEXT_SEPARATOR = "\x04"


def label_text(msgid: str) -> Any:
    """A lazy translation of a description's msgid (with its context, if it has one)."""
    if CONTEXT_SEPARATOR in msgid:
        context, message = msgid.split(CONTEXT_SEPARATOR, 1)
        return pgettext_lazy(context, message)
    return gettext_lazy(msgid)
