"""Basler Kartenspiel, 48 cards (``basler``): deal checks and scoring per games.md §4.

Terms:

- team: A = seats 1 and 3, B = seats 2 and 4 (partners sit opposite); per-team lists
  are ``[A, B]`` and their fields are named by list index (``card_points.1`` is team B).
- rank: one of the twelve ranks of a suit; the six *set ranks* are king, ober, seven,
  two, unter and banner (*Fahne*), and the four *point ranks* king, ober, unter, banner.
- set: three or four cards of one set rank; its value is the rank's value (king 8,
  ober 7, seven 6, two 5, unter 4, banner 3), doubled for four.
- meld: a set in one player's own hand, shown before the first trick (never made of
  two partners' cards).
- captured set: a set found in a team's won tricks (both partners' tricks together).
- card points: king 4, ober 3, unter 2, banner 1 in a team's tricks (40 in the deck).
- team score: tricks + 3 for the last trick (it counts 4) + card points + the
  team's melds + its captured sets; both partners score it.

Where the spec is silent this module decides:

- ``melds`` and ``captured`` may be left out (no sets), and are then complete: every
  set in a team's tricks is listed, because it scores.
- A rank may be melded and captured in the same deal: melded cards are shown, then
  played, so the same four cards can make a meld before play and a set in tricks.
- Card points are checked only as games.md §4 says (sum 40, at least the captured
  point-rank sets). A stricter check — that card points equal the team's share of the
  point ranks implied by ``captured`` — would refuse sheets the rule book accepts, so
  the rule book's checks are the whole of it.
- A seat's melds use at most its 12 cards.
- The cards of all a team's captured sets fit in its tricks (at most 4 × tricks); the
  error names the count of the team's last listed set.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from games.engines.base import (
    DealContext,
    Engine,
    Errors,
    Part,
    RecordField,
    ScoredDeal,
    _,
    is_int,
    register,
    round_deals_option,
)

TEAMS = ("A", "B")
TEAM_OF_SEAT = {1: 0, 2: 1, 3: 0, 4: 1}
SET_VALUES = {"king": 8, "ober": 7, "seven": 6, "two": 5, "unter": 4, "banner": 3}
RANKS = tuple(SET_VALUES)
CARD_VALUES = {"king": 4, "ober": 3, "unter": 2, "banner": 1}
SET_SIZES = (3, 4)
COPIES = 4  # cards of each rank in the deck
TRICKS = 12
HAND = 12
CARD_POINTS = 40
LAST_TRICK_BONUS = 3
MAX_ROUND_DEALS = 48
PAPER_SLOTS = 3  # rows of melds and of captured sets on a paper grid
REQUIRED = ("tricks", "last_trick", "card_points")
OPTIONAL = ("melds", "captured")
MELD_KEYS = ("seat", "rank", "count")
CAPTURE_KEYS = ("team", "rank", "count")


def set_value(entry: dict[str, Any]) -> int:
    return SET_VALUES[entry["rank"]] * (2 if entry["count"] == 4 else 1)


# --------------------------------------------------------------------------- checks


def _check_pair(errors: Errors, deal: dict[str, Any], name: str, total: int) -> list[int] | None:
    """A ``[A, B]`` list of whole numbers 0..total adding up to ``total``; a missing
    field gives None without an error, since ``check_keys`` reports it."""
    if name not in deal:
        return None
    value = deal[name]
    if not isinstance(value, list) or len(value) != 2:
        errors.add(name, _("Must be a list of two numbers: team A, team B."))
        return None
    first, second = value
    if type(first) is int and type(second) is int and 0 <= first <= total \
            and 0 <= second <= total:  # the usual case, without the general check below
        bad = []
    else:
        bad = [i for i, v in enumerate(value) if not is_int(v) or not 0 <= v <= total]
    for i in bad:
        errors.add(f"{name}.{i}", _("Must be a whole number from 0 to %(high)s."), high=total)
    if bad:
        return None
    if sum(value) != total:
        errors.add(name, _("Must add up to %(total)s, not %(sum)s."), total=total, sum=sum(value))
        return None
    return list(value)


def _is_choice(value: Any, choices: tuple[Any, ...]) -> bool:
    # a JSON true equals 1 and 3.0 equals 3 in Python; neither is a seat or a count
    return (isinstance(value, str) or is_int(value)) and value in choices


def _check_entries(errors: Errors, deal: dict[str, Any], name: str, keys: tuple[str, ...],
                   owner: str, owners: tuple[Any, ...]) -> list[dict[str, Any]] | None:
    """A list of sets ``{owner, "rank", "count"}``, each rank at most once."""
    value = deal.get(name, [])
    if not isinstance(value, list):
        errors.add(name, _("Must be a list of sets."))
        return None
    entries, seen, ok = [], set(), True
    for i, entry in enumerate(value):
        where = f"{name}.{i}"
        if not isinstance(entry, dict):
            errors.add(where, _("Must be an object with %(keys)s."), keys=", ".join(keys))
            ok = False
            continue
        for key in entry:
            if key not in keys:
                errors.add(f"{where}.{key}", _("Unknown field “%(name)s”."), name=str(key))
                ok = False
        for key, choices in ((owner, owners), ("rank", RANKS), ("count", SET_SIZES)):
            if key not in entry:
                errors.add(f"{where}.{key}", _("This field is required."))
                ok = False
            elif not _is_choice(entry[key], choices):
                errors.add(f"{where}.{key}", _("Must be one of: %(choices)s."),
                           choices=", ".join(map(str, choices)))
                ok = False
        rank = entry.get("rank")
        if isinstance(rank, str) and rank in RANKS:
            if rank in seen:
                # only four cards of a rank exist: two sets of one rank need six
                errors.add(f"{where}.rank", _("This rank is already listed in this deal."))
                ok = False
            seen.add(rank)
        entries.append({key: entry.get(key) for key in keys})
    return entries if ok else None


def _check_meld_hands(errors: Errors, melds: list[dict[str, Any]]) -> None:
    used = dict.fromkeys(TEAM_OF_SEAT, 0)
    for i, meld in enumerate(melds):
        used[meld["seat"]] += meld["count"]
        if used[meld["seat"]] > HAND:
            errors.add(f"melds.{i}.count", _("Seat %(seat)s holds only %(hand)s cards."),
                       seat=meld["seat"], hand=HAND)


def _check_tricks(errors: Errors, tricks: list[int], last: Any,
                  captured: list[dict[str, Any]] | None) -> None:
    if isinstance(last, str) and last in TEAMS and tricks[TEAMS.index(last)] == 0:
        errors.add("last_trick",
                   _("Team %(team)s won no trick, so it cannot have won the last one."),
                   team=last)
    if captured is None:
        return
    over = False
    for i, entry in enumerate(captured):
        cards = COPIES * tricks[TEAMS.index(entry["team"])]
        if entry["count"] > cards:
            over = True
            errors.add(f"captured.{i}.count",
                       _("Team %(team)s won only %(cards)s cards."),
                       team=entry["team"], cards=cards)
    if over:
        return
    # every set is made of different cards, so all of a team's sets share its tricks
    for team, name in enumerate(TEAMS):
        entries = [i for i, e in enumerate(captured) if e["team"] == name]
        in_sets = sum(captured[i]["count"] for i in entries)
        cards = COPIES * tricks[team]
        if in_sets > cards:
            errors.add(f"captured.{entries[-1]}.count",
                       _("The sets captured by team %(team)s hold %(count)s cards, but its "
                         "%(tricks)s tricks hold only %(cards)s."),
                       team=name, count=in_sets, tricks=tricks[team], cards=cards)


def _check_card_points(errors: Errors, points: list[int],
                       captured: list[dict[str, Any]]) -> None:
    for team, name in enumerate(TEAMS):
        in_sets = sum(CARD_VALUES.get(e["rank"], 0) * e["count"]
                      for e in captured if e["team"] == name)
        if points[team] < in_sets:
            errors.add(f"card_points.{team}",
                       _("The sets captured by team %(team)s alone are worth "
                         "%(points)s card points."),
                       team=name, points=in_sets)


# --------------------------------------------------------------------------- the engine


# games.md §4, "Deal record"
RANK_LABELS = (_("kings"), _("Ober"), _("sevens"), _("twos"), _("Unter"), _("banners"))


def _set_fields(owner: RecordField) -> tuple[RecordField, ...]:
    return (owner,
            RecordField("rank", "enum", "The rank of the set.", values=RANKS, label=_("rank"),
                        choice_labels=RANK_LABELS),
            RecordField("count", "enum", "Three or four of the rank.", values=SET_SIZES,
                        label=_("count")))


RECORD = (
    RecordField("tricks", "ints", "Tricks of team A and team B; they add up to 12.", low=0,
                high=TRICKS, min_items=2, max_items=2, required=True, widget="pair",
                label=_("Tricks"), items=(("a", _("Tricks A")), ("b", _("Tricks B")))),
    RecordField("last_trick", "enum", "The team that took the last trick.", values=TEAMS,
                required=True, label=_("Last trick")),
    RecordField("card_points", "ints", "Card points of team A and team B; they add up to "
                "40.", low=0, high=CARD_POINTS, min_items=2, max_items=2, required=True,
                widget="pair", label=_("Card points"), input="points",
                items=(("a", _("Card points A")), ("b", _("Card points B")))),
    RecordField("melds", "objects", "Sets held in a player's own hand.",
                max_items=len(RANKS), input="meld", slots=PAPER_SLOTS,
                label=_("Melds (three or four of a rank in one hand)"),
                fields=_set_fields(RecordField("seat", "seat", "The player who melded.",
                                               label=_("Meld: player")))),
    RecordField("captured", "objects", "Sets found in a team's won tricks.",
                max_items=len(RANKS), input="cap", slots=PAPER_SLOTS,
                label=_("Sets captured in the team's tricks"),
                fields=_set_fields(RecordField("team", "enum", "The team that won them.",
                                               values=TEAMS,
                                               label=_("Set in tricks: team")))),
)


@register
class BaslerEngine(Engine):
    key = "basler"
    name_de = "Basler Kartenspiel"
    name_en = "Basler (48 cards)"
    table_sizes = (4,)
    RECORD = RECORD
    preferred_table_size = 4
    rounds_planned = 4  # rounds of 8 deals: more of them in an evening
    OPTIONS = {
        "round_deals": round_deals_option(8, MAX_ROUND_DEALS),
    }

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return rules["round_deals"]

    def deal_place(self, number: int, players: int) -> Hashable:
        return (number, players)  # all of a deal's place but the deals before it

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        errors = Errors()
        if not self.check_keys(deal, errors):
            errors.raise_if_any()
        tricks = _check_pair(errors, deal, "tricks", TRICKS)
        points = _check_pair(errors, deal, "card_points", CARD_POINTS)
        last = deal.get("last_trick")
        if "last_trick" in deal:
            errors.extend(self.record_field("last_trick").check(last))
        melds = _check_entries(errors, deal, "melds", MELD_KEYS, "seat", tuple(TEAM_OF_SEAT))
        captured = _check_entries(errors, deal, "captured", CAPTURE_KEYS, "team", TEAMS)
        if melds is not None:
            _check_meld_hands(errors, melds)
        if tricks is not None:
            _check_tricks(errors, tricks, last, captured)
        if points is not None and captured is not None:
            _check_card_points(errors, points, captured)
        errors.raise_if_any()
        return {"tricks": tricks, "last_trick": last, "card_points": points,
                "melds": melds, "captured": captured}

    INSIGHT_LABELS = {"team": _("Deals as a team")}

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        """Every deal is played by both teams: won by the team of the higher score."""
        a, b = self.score_deal(record, ctx).extra["teams"]
        return {seat: Part(kind="team", counted_as="played",
                           won=None if a == b else (a > b) == (TEAM_OF_SEAT[seat] == 0))
                for seat in active}

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        teams = [tricks + points for tricks, points
                 in zip(record["tricks"], record["card_points"], strict=True)]
        teams[TEAMS.index(record["last_trick"])] += LAST_TRICK_BONUS
        for meld in record["melds"]:
            teams[TEAM_OF_SEAT[meld["seat"]]] += set_value(meld)
        for entry in record["captured"]:
            teams[TEAMS.index(entry["team"])] += set_value(entry)
        scores = [teams[TEAM_OF_SEAT[seat]] for seat in range(1, ctx.players + 1)]
        return ScoredDeal(record, scores, {"teams": teams})
