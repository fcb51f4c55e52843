"""A deal in words, as a paper sheet's "game" column reads: "Clubs with 2, hand, won",
"passed", "Rufspiel on the Acorn Ace, 64 points, won".

Each game's ``<game>_phrases(record)`` returns the phrases as (msgid, params) pairs; a
parameter that is text is itself a msgid (a suit, an ace, a trump). The game's
presentation (``games.presentation``) names its function; the Django side translates
the phrases and joins them (``games.words``). The record is a stored, validated record.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import _
from games.engines.doppelkopf import (
    DEDUCTION,
    EXTRA_KEYS,
    GAME_LABELS,
    GAMES,
    MINOR,
    MINOR_POINTS,
    PENALTY_KINDS,
    SERIOUS_BASE,
    SERIOUS_PER_ABSAGE,
)

Phrase = tuple[str, dict[str, Any]]


class Seat(int):
    """A seat as a phrase's parameter: the Django side writes the player's name where it
    knows it, else "seat 2"."""

# Whole phrases per suit: a suit's name alone is ambiguous in the catalogue ("Clubs" is
# also the clubs of the club pages).
SKAT_WITH = {"diamonds": _("Diamonds with %(count)s"), "hearts": _("Hearts with %(count)s"),
             "spades": _("Spades with %(count)s"), "clubs": _("Clubs with %(count)s"),
             "grand": _("Grand with %(count)s")}
SKAT_WITHOUT = {"diamonds": _("Diamonds without %(count)s"),
                "hearts": _("Hearts without %(count)s"),
                "spades": _("Spades without %(count)s"), "clubs": _("Clubs without %(count)s"),
                "grand": _("Grand without %(count)s")}
SCHAFKOPF_SUITS = {"acorns": _("Acorns"), "leaves": _("Leaves"), "hearts": _("Hearts"),
                   "bells": _("Bells")}
SCHAFKOPF_ACES = {"acorns": _("the Acorn Ace"), "leaves": _("the Leaf Ace"),
                  "bells": _("the Bell Ace")}
BAPTISTENSKAT_TRUMPS = {"red": _("%(cards)s cards, red trump"),
                        "yellow": _("%(cards)s cards, yellow trump"),
                        "green": _("%(cards)s cards, green trump"),
                        "blue": _("%(cards)s cards, blue trump")}
LABATARDE_TRUMPS = {"all": _("%(cards)s cards, all trumps"),
                    "spades": _("%(cards)s cards, spades trump"),
                    "hearts": _("%(cards)s cards, hearts trump"),
                    "diamonds": _("%(cards)s cards, diamonds trump"),
                    "clubs": _("%(cards)s cards, clubs trump"),
                    "none": _("%(cards)s cards, no trump")}


def _p(message: str, **params: Any) -> Phrase:
    return (message, params)


def _result(won: Any) -> list[Phrase]:
    if won is None:
        return []
    return [_p(_("won") if won else _("lost"))]


def skat_phrases(record: dict[str, Any]) -> list[Phrase]:
    if record.get("passed"):
        return [_p(_("Ramsch"))] if record.get("ramsch") else [_p(_("passed"))]
    if record.get("ramsch"):
        return [_p(_("Ramsch"))]
    game = record.get("game")
    phrases: list[Phrase] = []
    if game == "null":
        phrases.append(_p(_("Null ouvert") if record.get("ouvert") else _("Null")))
        if record.get("hand"):
            phrases.append(_p(_("hand")))
        return phrases + _result(record.get("won"))
    matadors = record.get("matadors") or 0
    if game not in SKAT_WITH:
        return [_p(_("passed"))]
    if matadors >= 0:
        phrases.append(_p(SKAT_WITH[game], count=matadors))
    else:
        phrases.append(_p(SKAT_WITHOUT[game], count=-matadors))
    return phrases + _marks(record, SKAT_MARKS) + _result(record.get("won"))


# a suit or grand game's marks in the order they are said: of each group only the first one
# the record holds (a Schwarz is also Schneider; only Schwarz is said)
SKAT_MARKS = (
    (("hand", _("hand")),),
    (("schwarz_announced", _("Schwarz announced")),
     ("schneider_announced", _("Schneider announced"))),
    (("ouvert", _("ouvert")),),
    (("schwarz", _("Schwarz")), ("schneider", _("Schneider"))),
    (("re", _("Re")), ("kontra", _("Kontra"))),
)


def _marks(record: dict[str, Any],
           groups: tuple[tuple[tuple[str, str], ...], ...]) -> list[Phrase]:
    """Of each group of ``(field, phrase)``, the phrase of the first field the record sets."""
    said = (next((phrase for name, phrase in group if record.get(name)), None)
            for group in groups)
    return [_p(phrase) for phrase in said if phrase is not None]


def schafkopf_phrases(record: dict[str, Any]) -> list[Phrase]:
    game = record.get("game")
    if game == "passed":
        return [_p(_("passed"))]
    if game == "rufspiel":
        phrases = [_p(_("Rufspiel on %(ace)s"),
                      ace=SCHAFKOPF_ACES.get(record.get("called_ace"), ""))]
    elif game in ("solo", "solo_tout"):
        suit = SCHAFKOPF_SUITS.get(record.get("suit"), "")
        phrases = [_p(_("%(suit)s Solo Tout") if game == "solo_tout" else _("%(suit)s Solo"),
                      suit=suit)]
    else:
        phrases = [_p({"wenz": _("Wenz"), "wenz_tout": _("Wenz Tout"),
                       "sie": _("Sie")}.get(game, _("game")))]
    points = record.get("declarer_points")
    if points is not None:
        phrases.append(_p(_("%(points)s points"), points=points))
        phrases.extend(_result(points >= 61 if game in ("rufspiel", "solo", "wenz")
                               else bool(record.get("schwarz")) and points == 120))
    if record.get("schwarz"):
        phrases.append(_p(_("Schwarz")))
    if record.get("laufende"):
        phrases.append(_p(_("%(count)s Laufende"), count=record["laufende"]))
    if record.get("doublings"):
        phrases.append(_p(_("doubled %(count)s×"), count=record["doublings"]))
    return phrases


def _bids_and_tricks(record: dict[str, Any], trumps: dict[str, str]) -> list[Phrase]:
    return [_p(trumps.get(record.get("trump"), _("%(cards)s cards")), cards=record.get("cards"))]


def baptistenskat_phrases(record: dict[str, Any]) -> list[Phrase]:
    return _bids_and_tricks(record, BAPTISTENSKAT_TRUMPS)


def labatarde_phrases(record: dict[str, Any]) -> list[Phrase]:
    phrases = _bids_and_tricks(record, LABATARDE_TRUMPS)
    if record.get("choune"):
        phrases.append(_p(_("choune")))
    elif record.get("mechoune") is not None:
        phrases.append(_p(_("méchoune")))
    return phrases


BASLER_SETS = {"king": _("kings"), "ober": _("Ober"), "seven": _("sevens"),
               "two": _("twos"), "unter": _("Unter"), "banner": _("banners")}


def basler_phrases(record: dict[str, Any]) -> list[Phrase]:
    tricks = record.get("tricks") or [0, 0]
    phrases = [_p(_("tricks %(a)s : %(b)s, last trick team %(team)s"),
                  a=tricks[0], b=tricks[1], team=record.get("last_trick", ""))]
    # the melds (Weis) and the sets in a team's tricks: what scores beside the tricks
    for meld in record.get("melds") or ():
        phrases.append(_p(_("meld of %(seat)s: %(count)s %(rank)s"), seat=Seat(meld["seat"]),
                          count=meld["count"], rank=BASLER_SETS.get(meld["rank"], "")))
    for found in record.get("captured") or ():
        phrases.append(_p(_("in the tricks of team %(team)s: %(count)s %(rank)s"),
                          team=found["team"], count=found["count"],
                          rank=BASLER_SETS.get(found["rank"], "")))
    return phrases


DOPPELKOPF_LEVELS = {"re": _("Re"), "kontra": _("Kontra"), "no90": _("keine 90"),
                     "no60": _("keine 60"), "no30": _("keine 30"), "schwarz": _("schwarz")}


def doppelkopf_phrases(record: dict[str, Any]) -> list[Phrase]:
    labels = dict(zip(GAMES, GAME_LABELS, strict=True))
    game = record.get("game")
    phrases = [_p(labels.get(game, _("game")))]
    re = record.get("re")
    if isinstance(re, list) and re:
        phrases.append(_p(_("Re: seat %(seats)s"), seats=" + ".join(str(s) for s in re)))
    if record.get("re_points") is not None:
        phrases.append(_p(_("Re %(points)s Augen"), points=record["re_points"]))
    for party, label in (("re", _("Re party: %(level)s")),
                         ("kontra", _("Kontra party: %(level)s"))):
        said = (record.get("announcements") or {}).get(party)
        if said in DOPPELKOPF_LEVELS:
            phrases.append(_p(label, level=DOPPELKOPF_LEVELS[said]))
    phrases.extend(_doppelkopf_extras(record.get("extras") or {}))
    if record.get("value") is not None:
        phrases.append(_p(_("value %(value)s"), value=record["value"]))
    for penalty in record.get("penalties") or ():
        phrases.append(_doppelkopf_penalty(penalty))
    return phrases


DOPPELKOPF_EXTRAS = {"fuchs": _("Fuchs"), "doppelkopf": _("Doppelkopf"),
                     "karlchen": _("Karlchen")}
PENALTY_LABELS = dict(zip(PENALTY_KINDS, (_("minor violation"), _("serious violation"),
                                          _("deduction")), strict=True))


def _doppelkopf_extras(extras: dict[str, Any]) -> list[Phrase]:
    """Each party's Sonderpunkte: "Re: Fuchs", "Kontra: 2× Doppelkopf", "Re: Karlchen"."""
    phrases: list[Phrase] = []
    for party in ("re", "kontra"):
        row = extras.get(party)
        if not isinstance(row, dict):
            continue
        for key in EXTRA_KEYS:
            count = int(row.get(key) or 0)
            if count == 1:
                phrases.append(_p(_("%(party)s: %(extra)s"), party=DOPPELKOPF_LEVELS[party],
                                  extra=DOPPELKOPF_EXTRAS[key]))
            elif count > 1:
                phrases.append(_p(_("%(party)s: %(count)s× %(extra)s"),
                                  party=DOPPELKOPF_LEVELS[party], count=count,
                                  extra=DOPPELKOPF_EXTRAS[key]))
    return phrases


def _doppelkopf_penalty(penalty: dict[str, Any]) -> Phrase:
    """A penalty with its offender, its reason and the points the offender loses (games.md
    8.7): "penalty for Anna: minor violation, −3 points"."""
    kind = penalty.get("kind")
    if kind == DEDUCTION:
        points = penalty.get("points") or 0
    elif kind == MINOR:
        points = MINOR_POINTS
    else:
        points = SERIOUS_BASE + SERIOUS_PER_ABSAGE * (penalty.get("absagen") or 0)
    return _p(_("penalty for %(seat)s: %(kind)s, −%(points)s points"),
              seat=Seat(penalty.get("seat") or 0),
              kind=PENALTY_LABELS.get(kind, ""), points=points)


def declarer_of(record: dict[str, Any]) -> int | None:
    """The seat that declared the game, where the game has one."""
    seat = record.get("declarer") if isinstance(record, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
