"""Baptistenskat (``baptistenskat``): tricks bid exactly; games.md §3, rules/baptistenskat.txt.

Terms:

- partie: the sheet; deal ``r`` of it is played with ``players + r`` cards per seat
  (*Handkarten*), so deal ``r`` has that many tricks.
- bid (*Ansage*): the tricks a seat announces; met when it takes exactly that many.
- M: the highest bid of the deal, met or not.
- bonus: the met bids ``b > 0`` that are the highest among the met bids ``b > 0``
  score double; when the top bidder misses the bonus "moves down" to the highest met bid.
- deck: 80 Elfer-Raus cards; one stays to be turned up for trump, so a deal needs
  ``players × cards ≤ 79``.

Scoring (games.md §3, decided by the seed's worked examples): a met bid ``b > 0`` scores
``+10·b`` (``+20·b`` with the bonus); a missed one ``−10·|b − tricks|``; a bid of 0 scores
``+10·M`` when met and ``−10·M`` when missed, whatever the tricks taken. Standings: the sum,
higher is better.

Decisions where games.md and the source are silent:

1. Partie length. ``rounds`` (default 10) is how many deals every table of a round plays
   (games.md §3: one partie for every table). Draws seat only table sizes whose deck
   allows ``rounds`` deals (``seating_sizes``: with 10 rounds tables of 3, 4 or 5; the
   preferred size 4 while it is allowed, else the allowed size nearest to it); a field
   those sizes cannot seat is refused with the reason. A tournament is created before its
   tables are drawn, so creation refuses only a ``rounds`` that no table can play, not
   even a 3-table: more than 23 is refused on ``rules.rounds`` (the option's maximum).
2. The stateless scorer knows no draw: it scores a sheet at any table size of the game,
   ``sheet_length = min(rounds, max_deals(players))`` (23, 15, 10, 7 for 3, 4, 5, 6
   players), and refuses a sheet longer than its table's deck allows.
3. All bids 0: M = 0, so every seat scores 0 (met or missed: ±10·0).
4. A bid of 0 never takes the double bonus: the bonus is for the highest met bid
   ``b > 0``; the 0-bid has its own risk bonus/malus (``±10·M``).
5. The last bidder under ``profi_rule`` is the dealer (source: "Für den letzten Spieler
   (Geber)"); the error that the bids add up names the dealer's entry ``bids.<dealer − 1>``.
6. Range and sum checks use the scheduled card count, not the entered ``cards``, so a
   mistyped ``cards`` does not hide or invent other errors.
7. Field paths are JSON paths, list entries by 0-based index as in every engine:
   ``bids.0`` is seat 1's bid.
8. ``trump`` is required although scoring ignores it: the sheet records the deal as
   played, and nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from games.engines.base import (
    BID_LABELS,
    DealContext,
    Engine,
    Option,
    Part,
    RecordField,
    ScoredDeal,
    TableSizes,
    _,
    bid_deal_errors,
    bid_parts,
    bidding_order,
    bids_and_tricks,
    is_int,
    register,
    user_error,
)

DECK = 80
TRUMPS = ("red", "yellow", "green", "blue")
FIELDS = ("cards", "trump", "bids", "tricks")


def cards_in_deal(number: int, players: int) -> int:
    """Cards per seat in deal ``number`` (1-based) of a partie."""
    return players + number


def max_deals(players: int) -> int:
    """The most deals a table can play: the last one still leaves a card for trump."""
    return (DECK - 1) // players - players


# A 3-table has the most cards to spare; past its limit no table can play the partie.
MAX_ROUNDS = max_deals(3)


def score_bids(bids: list[int], tricks: list[int]) -> list[int]:
    """Each seat's points for one deal, from its bid and its tricks (seat order)."""
    highest = max(bids)
    met = [b for b, t in zip(bids, tricks, strict=True) if b == t and b > 0]
    bonus_bid = max(met, default=None)
    scores = []
    for bid, took in zip(bids, tricks, strict=True):
        if bid == 0:
            scores.append(10 * highest if took == 0 else -10 * highest)
        elif bid == took:
            scores.append(10 * bid * (2 if bid == bonus_bid else 1))
        else:
            scores.append(-10 * abs(bid - took))
    return scores


MAX_CARDS = DECK // 3
# games.md §3, "Deal record"
RECORD = (
    RecordField("cards", "int", "Cards per seat in this deal (the schedule's).", low=1,
                high=MAX_CARDS, required=True, label=_("Cards"), widget="hint"),
    RecordField("trump", "enum", "The trump colour.", values=TRUMPS, required=True,
                label=_("Trump"),
                choice_labels=(_("red"), _("yellow"), _("green"), _("blue"))),
    RecordField("bids", "ints", "Each seat's bid, in seat order.", low=0, high=MAX_CARDS,
                min_items=3, max_items=6, required=True, label=_("Bids"), widget="counts"),
    RecordField("tricks", "ints", "Each seat's tricks, in seat order; they add up to "
                "cards.", low=0, high=MAX_CARDS, min_items=3, max_items=6, required=True,
                label=_("Tricks"), widget="counts"),
)


@register
class Baptistenskat(Engine):
    key = "baptistenskat"
    name_de = "Baptistenskat"
    name_en = "Baptistenskat"
    table_sizes = (3, 4, 5, 6)
    RECORD = RECORD
    preferred_table_size = 4
    OPTIONS = {
        "rounds": Option(
            default=10, kind="int", min=1, max=MAX_ROUNDS,
            label_en="Deals per partie", label_de="Runden pro Partie",
            help_en=("Deals per partie, 1 to 23: the first with players + 1 cards, one more "
                     "each deal. Every table plays the whole partie, so draws seat only "
                     "tables whose 80 cards allow it: up to 7 deals tables of 3 to 6, up to "
                     "10 of 3 to 5, up to 15 of 3 or 4, up to 23 of 3."),
            help_de=("Runden pro Partie, 1 bis 23: die erste mit Spielerzahl + 1 Karten, "
                     "jede weitere mit einer Karte mehr. Jeder Tisch spielt die ganze "
                     "Partie, daher lost die Auslosung nur Tische aus, für die die 80 Karten "
                     "reichen: bis 7 Runden Tische zu 3 bis 6, bis 10 zu 3 bis 5, bis 15 "
                     "zu 3 oder 4, bis 23 zu dritt."),
        ),
        "profi_rule": Option(
            default=False, kind="bool", label_en="Pro rule 1", label_de="Profiregel 1",
            help_en="Pro rule 1: the dealer, bidding last, may not make the bids add up "
                    "to the number of cards.",
            help_de="Profiregel 1: Der Geber sagt als Letzter an und darf die Ansagen "
                    "nicht auf die Kartenzahl aufgehen lassen.",
        ),
    }

    def seating_sizes(self, rules: dict[str, Any]) -> TableSizes:
        rounds = rules.get("rounds", self.OPTIONS["rounds"].default)
        sizes = tuple(s for s in self.table_sizes if max_deals(s) >= rounds)
        if sizes == self.table_sizes:
            return TableSizes(sizes, self.preferred_table_size)
        preferred = min(sizes, key=lambda s: (abs(s - self.preferred_table_size), -s))
        return TableSizes(sizes, preferred, _(
            "A partie of %(rounds)s deals is played only at tables of %(sizes)s players: "
            "larger tables would run out of the 80 cards."),
            {"rounds": rounds, "sizes": ", ".join(str(s) for s in sizes)})

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return min(rules.get("rounds", self.OPTIONS["rounds"].default), max_deals(players))

    def deal_place(self, number: int, players: int) -> Hashable:
        return (number, players)  # all of a deal's place but the deals before it

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        cards = self._scheduled_cards(ctx)
        errors = bid_deal_errors(self, deal, ctx, cards)
        bids, tricks = bids_and_tricks(deal, ctx.players, cards, errors)
        profi = ctx.rules.get("profi_rule", self.OPTIONS["profi_rule"].default)
        if profi and bids is not None and sum(bids) == cards:
            errors.add(f"bids.{ctx.dealer - 1}",
                       _("Pro rule: the bids must not add up to %(cards)s; the dealer "
                         "bids last and must bid more or fewer."), cards=cards)
        errors.raise_if_any()
        return {"cards": cards, "trump": deal["trump"], "bids": bids, "tricks": tricks}

    def deal_hints(self, ctx: DealContext) -> dict[str, Any]:
        cards = self._scheduled_cards(ctx)
        return {**super().deal_hints(ctx), "cards": cards,
                "bidding_order": bidding_order(ctx),
                "forbidden_total": cards if ctx.rules.get("profi_rule") else None}

    def _scheduled_cards(self, ctx: DealContext) -> int:
        """The cards of deal ``ctx.number``; refuses a deal outside the partie."""
        self.check_table(ctx.players, ctx.rules)
        length = self.sheet_length(ctx.players, ctx.rules)
        if not is_int(ctx.number) or not 1 <= ctx.number <= length:
            raise user_error("number", _("Deal numbers in this partie run from 1 to %(length)s."),
                             length=length)
        return cards_in_deal(ctx.number, ctx.players)

    INSIGHT_LABELS = BID_LABELS

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        return bid_parts(record, active)

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        return ScoredDeal(record, score_bids(record["bids"], record["tricks"]),
                          {"highest_bid": max(record["bids"])})
