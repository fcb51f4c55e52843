"""A short free text a person writes to the director (an objection's note, a call's
reason, a resolution): one check for all of them.

Runs of white space become one space; the text must be storable (no NUL, no lone
surrogate) and free of control characters, and within its bound.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop as _

from games.errors import user_error
from tournaments.text_checks import control_characters, storable


def clean_note(value: Any, *, field: str, max_length: int, required: bool) -> str:
    """``value`` as stored: a string of at most ``max_length`` characters, empty only
    when not ``required``; ``UserError`` naming ``field`` otherwise."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise user_error(field, _("Write a text."))
    if not storable(value) or control_characters(value, multiline=True):
        raise user_error(field, _("The text holds characters that cannot be stored."))
    text = " ".join(value.split())
    if required and not text:
        raise user_error(field, _("Write a few words."))
    if len(text) > max_length:
        raise user_error(field, _("The text may be at most %(max)s characters long."),
                         max=max_length)
    return text
