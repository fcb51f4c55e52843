"""``{% with heads=state.seats|short_names %}``: the seats of a table with two shorter
forms of each name for narrow screens, so a column head never breaks inside a word.

- ``short``: the first name and the initial of the last word ("Ingrid B.");
- ``initials``: the initials of the name's words ("IB"); two equal initials at one
  table get the seat number ("MO1", "MO2"), and a legend under the table spells them out.
"""

import re
from collections import Counter

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

BREAKS_INSIDE = re.compile(r"[-/\u2010\u2013\u2014]")


def _words(name: str) -> list[str]:
    return [w for w in str(name or "").replace("-", " ").split() if w]


def short_form(name: str) -> str:
    words = str(name or "").split()
    if len(words) < 2:
        return str(name or "")
    return f"{words[0]} {words[-1][0]}."


def initials(name: str) -> str:
    words = _words(name)
    if not words:
        return "?"
    letters = [w if w.isdigit() else w[0] for w in words]  # "Spieler 10" → "S10"
    # first and last word: "Maximiliane Oberhuber-Schwarzenbach" → "MO", not "MOS"
    return (letters[0] + letters[1] if len(letters) > 1 else words[0][:2]).upper()


@register.filter
def short_names(seats) -> list[dict]:
    rows = [{**seat, "short": short_form(seat.get("name")),
             "initials": initials(seat.get("name"))} for seat in seats or []]
    seen = Counter(row["initials"] for row in rows)
    shorts = Counter(row["short"] for row in rows)
    for row in rows:
        if seen[row["initials"]] > 1:
            row["initials"] = f"{row['initials']}{row['seat']}"
        if shorts[row["short"]] > 1:
            row["short"] = f"{row['short']} ({row['seat']})"
    return rows


@register.filter(is_safe=True)
def keep_words(text) -> str:
    """A word that a browser could break inside (after a hyphen or a slash, as in
    "Seeger-Fabian" or "Oberhuber-Schwarzenbach") goes in a span that does not break;
    lines break between words only. Other words stay plain text."""
    return mark_safe(" ".join(
        format_html('<span class="w">{}</span>', word) if BREAKS_INSIDE.search(word)
        else conditional_escape(word) for word in str(text or "").split()))
