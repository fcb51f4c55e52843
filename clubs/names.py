"""How people's names compare: the one place that decides when two names are the same
and when they are only alike.

- ``name_key``: the *same* name as people write it — any spacing and case, composed
  umlauts, "Schwarz, Karin" for "Karin Schwarz". Two names with one key are one name
  (a list naming it twice names one person twice).
- ``loose_key``: names that are *alike*, likely one person typed two ways — also
  hyphens and spaces ("Karl-Heinz", "Karl Heinz", "Karlheinz"), umlauts spelt out
  ("Müller", "Mueller", "Muller") and "ß"/"ss". A match asks a human; it decides nothing.
- ``public_name``: how a name appears to the public under the player's *publication*
  choice (DSGVO): the full name, "Anna B." or "Nr. 17" (see its docstring for the rules).

Pure functions: no Django (the words "Nr."/"No." come from the caller, translated at the
edge: ``clubs.publication``).
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


# Lower-case words that begin a surname ("Hans von der Heide"): they belong to the
# surname, which the "initial" form shortens to its first capitalised word's letter.
_PARTICLES = frozenset({"von", "vom", "van", "der", "den", "de", "di", "da", "del", "du",
                        "zu", "zum", "zur", "ten", "ter", "la", "le", "y"})

FULL, INITIAL, NUMBER = "full", "initial", "number"


def initial_form(name: str) -> str:
    """"Anna Maria Berger" → "Anna Maria B.": the given names in full, the surname as its
    first letter and a dot.

    - Spaces anywhere are ignored; "Berger, Anna" (one comma) is "Anna Berger".
    - The surname is the last word, together with the lower-case particles before it
      ("von der Heide" → "H."); a hyphenated surname keeps one letter ("Berger-Lutz" →
      "B."), a hyphenated given name stays whole ("Karl-Heinz M.").
    - A name of one word is a surname: "Berger" → "B.". An empty name stays empty.
    - The letter is upper case ("anna berger" → "anna B.").
    """
    name = " ".join(name.split())
    if name.count(",") == 1:
        last, first = (part.strip() for part in name.split(","))
        name = f"{first} {last}".strip()
    words = name.split()
    if not words:
        return ""
    given, surname = words[:-1], [words[-1]]
    while len(given) > 1 and given[-1].casefold() in _PARTICLES:
        surname.insert(0, given.pop())
    letters = [c for c in surname[-1] if c.isalnum()] or [surname[-1][0]]
    return " ".join([*given, f"{letters[0].upper()}."])


def public_name(name: str, publication: str, start_number: int | None, *,
                number_label: str = "No. {n}", anonymous_label: str = "Player") -> str:
    """The name as the public sees it under ``publication`` ("full" | "initial" |
    "number"; anything else counts as "number", the most private).

    "number" shows the start number in ``number_label`` (the caller's translated "Nr.
    {n}"); where no tournament gives a start number (a club's season list, a player's
    profile) it shows ``anonymous_label`` — the caller adds a stable label of its own
    (never the member number)."""
    if publication == FULL:
        return name
    if publication == INITIAL:
        return initial_form(name)
    if start_number is None:
        return anonymous_label
    return number_label.format(n=start_number)
