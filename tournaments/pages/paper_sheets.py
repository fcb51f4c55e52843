"""Blank paper sheets per game, laid out like the lists clubs use, for a table whose
tablet fails: per deal the number, the dealer (where known in advance), the game's own
columns and a column per player, and the foot its game's presentation gives (e.g. Skat's
Seeger-Fabian rows); with the table's seats, round and the QR code of its tablet sheet.

Terms: a *sheet* is one table's series (Skat) or round (the other games): the deals the
engine plans for it (``Engine.sheet_room``/``deal_plan``), plus the presentation's spare
rows where the engine fixes no number (Doppelkopf replays annulled games). A *writing
column* is one a player writes into by hand.

One sheet is one A4 page: the columns get printed widths in millimetres (as percentages of
the page's content width, ``<col width>``: the Content-Security-Policy forbids inline
styles) and the rows the tallest height class of ``static/css/app.css`` ("paper sheets")
under which all of them and the foot fit. A sheet longer than a page at the smallest
height (a 96-deal series) goes on over pages, with its head repeated and its foot once.
"""

from __future__ import annotations

from typing import Any

from games.engines import get_engine
from games.presentation import presentation_of
from tournaments.templatetags.short_names import short_names

# A4 less the 7 mm margins of ``@page paper`` in app.css
CONTENT_WIDTH_MM = 196.0
CONTENT_HEIGHT_MM = 283.0
# what a page holds besides the rows (app.css): the head with the QR code (20 mm), the
# column heads (at most three lines, 11 mm), the signatures (12 mm) and the gaps (5 mm);
# a third line of seats in the head takes another 3.5 mm, a note under the rows 5 mm
FIXED_MM = 48.0
NOTE_MM = 5.0
SEAT_LINE_MM = 3.5
# the row heights app.css has a class for ("rows-42" is 4.2 mm), tallest first; the
# last one is the least a hand can write in
ROW_HEIGHTS_MM = (12.0, 10.0, 8.0, 7.0, 6.0, 5.5, 5.0, 4.5, 4.2)

# printed widths (mm) of a column by what is written in it: the ideal and the least
NUMBER_MM = 7.0
IDEAL_MM = {"name": 26.0, "word": 20.0, "number": 14.0}
LEAST_MM = {"name": 20.0, "word": 14.0, "number": 12.0}
SEAT_LEAST_MM = 13.0
# names are printed whole where they fit, else short ("Ingrid B."); a seat's column
# head breaks between words only and takes the initials ("IB", spelt out in the head of
# the page) where a short name's word does not fit. Letters are about this wide at the
# 7.5 pt of the heads and the 8 pt of the dealers (app.css), cells have 2 mm of padding.
HEAD_LETTER_MM = 1.5
CELL_LETTER_MM = 1.55
PADDING_MM = 2.0
HEAD_LINES = 3


def column_widths(kinds: tuple[str, ...], players: int) -> tuple[list[float], float]:
    """The widths (mm) of the number, dealer and game columns, and of each seat's
    column: the game's columns as wide as their kind asks while the seats get at least
    ``SEAT_LEAST_MM`` each; where they do not, the game's columns give up their room
    down to their least width, evenly."""
    ideal = [NUMBER_MM, IDEAL_MM["name"], *(IDEAL_MM[k] for k in kinds)]
    least = [NUMBER_MM, LEAST_MM["name"], *(LEAST_MM[k] for k in kinds)]
    room = CONTENT_WIDTH_MM - sum(ideal)
    if room >= SEAT_LEAST_MM * players:
        return ideal, room / players
    slack = sum(ideal) - sum(least)
    share = min(1.0, (SEAT_LEAST_MM * players - room) / slack) if slack else 0.0
    widths = [i - (i - m) * share for i, m in zip(ideal, least, strict=True)]
    return widths, (CONTENT_WIDTH_MM - sum(widths)) / players


def row_height(rows: int, noted: bool, players: int = 4) -> tuple[float, bool]:
    """The tallest row height (mm) at which ``rows`` rows fit on the page beside its
    head, column heads and signatures, and True; the smallest and False when none does.
    The head lists the seats about three to a line: from the seventh on they take a
    third line."""
    seat_lines = max(0, -(-players // 3) - 2)
    room = (CONTENT_HEIGHT_MM - FIXED_MM - (NOTE_MM if noted else 0.0)
            - SEAT_LINE_MM * seat_lines)
    fitting = next((h for h in ROW_HEIGHTS_MM if h * rows <= room), None)
    return (ROW_HEIGHTS_MM[-1], False) if fitting is None else (fitting, True)


def _head_fits(name: str, width_mm: float) -> bool:
    """Whether ``name`` fits a column head ``width_mm`` wide, a line per word at most."""
    words = name.split()
    return (len(words) <= HEAD_LINES
            and all(len(w) * HEAD_LETTER_MM <= width_mm - PADDING_MM for w in words))


def _percent(mm: float) -> str:
    return f"{100 * mm / CONTENT_WIDTH_MM:.2f}%"


def paper_sheet(state: dict[str, Any]) -> dict[str, Any]:
    """One table's blank sheet: its rows (number, dealer where known, cards where the
    game deals a varying number), the game's own columns, the seats' column heads, the
    foot rows of its game and the printed layout (column widths, row height class)."""
    engine = get_engine(state["game"])
    shown = presentation_of(state["game"])
    players = len(state["seats"])
    rules = state["rules"]
    # a blank sheet: nothing is played yet; the presentation knows its rows (a dealer
    # only where the engine's plan knows him before anything is played)
    blank = shown.blank_rows(state)
    room = engine.sheet_room([], players, rules)
    columns = list(shown.sheet_columns)
    after = list(shown.sheet_columns_after)
    declared = tuple(shown.sheet_column_kinds)
    kinds = declared + ("word",) * (len(columns) - len(declared)) + ("word",) * len(after)
    widths, seat_mm = column_widths(kinds, players)
    before_widths, after_widths = widths[:2 + len(columns)], widths[2 + len(columns):]
    heads = short_names(state["seats"])
    use_initials = not all(_head_fits(h["short"], seat_mm) for h in heads)
    for h in heads:
        h["label"] = (h["initials"] if use_initials
                      else h["name"] if _head_fits(h["name"], seat_mm) else h["short"])
    # the dealer's cell: one line
    fits = (widths[1] - PADDING_MM) / CELL_LETTER_MM
    labels = {h["seat"]: h["name"] if len(h["name"]) <= fits else h["short"] for h in heads}
    rows = [{"number": row["number"], "dealer": labels.get(row["dealer"], ""),
             "cards": row["cards"]} for row in blank]
    foot = shown.sheet_foot(state)
    notes = [n for n in (shown.seat_cell_hint, shown.sheet_note if room is None else None)
             if n]
    note = " ".join(str(n) for n in notes) or None
    height, one_page = row_height(len(rows) + len(foot), note is not None, players)
    return {"state": state, "rows": rows, "columns": columns, "after": after, "foot": foot,
            "note": note, "span": 2 + len(columns), "heads": heads, "initials": use_initials,
            "one_page": one_page, "columns_all": 2 + len(columns) + players + len(after),
            "widths": ([_percent(w) for w in before_widths] + [_percent(seat_mm)] * players
                       + [_percent(w) for w in after_widths]),
            "row_class": f"rows-{round(height * 10)}"}
