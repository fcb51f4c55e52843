"""How people's names compare: the one place that decides when two names are the same
and when they are only alike.

- ``name_key``: the *same* name as people write it — any spacing and case, composed
  umlauts, "Schwarz, Karin" for "Karin Schwarz". Two names with one key are one name
  (a list naming it twice names one person twice).
- ``loose_key``: names that are *alike*, likely one person typed two ways — also
  hyphens and spaces ("Karl-Heinz", "Karl Heinz", "Karlheinz"), umlauts spelt out
  ("Müller", "Mueller", "Muller") and "ß"/"ss". A match asks a human; it decides nothing.

Pure functions: no Django.
"""

from __future__ import annotations

import unicodedata

_SPELT_OUT = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})


def clean_name(name: str) -> str:
    """A name as stored: composed characters, single spaces, nothing around."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """The key under which two spellings are one name (see the module's docstring)."""
    name = unicodedata.normalize("NFC", name)
    if name.count(",") == 1:
        last, first = name.split(",")
        name = f"{first} {last}"
    return " ".join(name.split()).casefold()


def loose_key(name: str) -> str:
    """The key under which two names are alike (see the module's docstring)."""
    key = name_key(name)
    for spelt, umlaut in (("ae", "a"), ("oe", "o"), ("ue", "u")):
        key = key.replace(spelt, umlaut)
    key = key.translate(_SPELT_OUT)
    key = "".join(c for c in unicodedata.normalize("NFD", key)
                  if not unicodedata.combining(c))
    return "".join(c for c in key if c.isalnum())
