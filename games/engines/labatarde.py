"""La Bâtarde (``labatarde``): penalties for tricks bid wrong (games.md §5, rules/la-batarde.txt).

Terms:

- partie: the sheet; its deals follow a fixed schedule of cards per seat (``SCHEDULES``),
  rising to the most the pack allows and falling back again.
- pack: one pack of 36 cards for 3–4 players, both packs (72) for 5–7.
- auction (*Ankündigung*): opened by the seat left of the dealer, clockwise; each bid
  names tricks and a trump, and a stronger bid may change the trump until all agree.
  The record keeps the outcome: the ``trump`` and one ``bids`` entry per seat.
- trump: ``all`` (every suit is trump), a suit, or ``none`` — the source's six options.
- preference: with two packs each card exists twice; the auction says whether the
  ``marked`` (underlined) or the ``simple`` copy wins when both fall in one trick.
- méchoune: any seat may méchoune another seat's announcement; it closes the auction and
  doubles the deal's penalties. ``mechoune`` records the seat that called it.
- choune: the méchouned seat may answer with a choune before the first card; penalties
  are then quadrupled instead. Only ever after a méchoune.

Scoring: penalty per seat = ``|bid − tricks| × m`` with m = 1, 2 after a méchoune, 4 after
a choune. Standings: the sum, lowest wins (``standing_order`` ``asc``).

Decisions where games.md and the source are silent:

1. Options: none. The source describes no house-rule variant: the schedules, packs,
   last-bidder restriction, méchoune and choune are the rule, and its 6–8-player
   "mini tournament" of two small tables is a matter of seating, not of scoring.
2. The first dealer is drawn by lot (source); the seating draw puts that player in seat 1,
   so the common convention holds: seat 1 deals deal 1, then clockwise.
3. The last bidder is the dealer: the auction opens left of the dealer and runs
   clockwise. A trump change may reopen it and end at another seat, which the record does
   not show, so the error that the bids add up to the cards names ``bids.<dealer − 1>`` and
   its message speaks of "the last bidder".
4. ``mechoune`` defaults to null and ``choune`` to false: most deals have neither. The
   méchouning seat is any seat (it may not méchoune itself, but whose announcement it
   méchouned is not recorded, so that cannot be checked).
5. ``preference`` with one pack: absent or null (normalised away); with two packs it is
   required, also without trump (identical cards still meet in a trick).
6. Range and sum checks use the scheduled card count, not the entered ``cards``.
7. Field paths are JSON paths, list entries by 0-based index as in every engine:
   ``bids.0`` is seat 1's bid.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from games.engines.base import (
    BID_LABELS,
    DealContext,
    Engine,
    Errors,
    Part,
    RecordField,
    ScoredDeal,
    When,
    _,
    bid_deal_errors,
    bid_parts,
    bidding_order,
    bids_and_tricks,
    is_int,
    pgettext,
    register,
    user_error,
)

TRUMPS = ("all", "spades", "hearts", "diamonds", "clubs", "none")
PREFERENCES = ("marked", "simple")
REQUIRED = ("cards", "trump", "bids", "tricks")
OPTIONAL = ("preference", "mechoune", "choune")


def _up_and_down(first: int, last: int) -> tuple[int, ...]:
    rising = tuple(range(first, last + 1))
    return rising + rising[::-1]


# Cards per seat in each deal, by table size (games.md §5, the source's "Verteilen").
SCHEDULES = {
    3: _up_and_down(7, 12),
    4: _up_and_down(5, 9),
    5: _up_and_down(9, 14),
    6: _up_and_down(7, 12),
    7: _up_and_down(5, 10),
}


def pack_size(players: int) -> int:
    return 36 if players <= 4 else 72


def multiplier(record: dict[str, Any]) -> int:
    if record["choune"]:
        return 4
    return 2 if record["mechoune"] is not None else 1


def penalties(bids: list[int], tricks: list[int], factor: int) -> list[int]:
    return [abs(bid - took) * factor for bid, took in zip(bids, tricks, strict=True)]


MAX_CARDS = max(max(schedule) for schedule in SCHEDULES.values())
# games.md §5, "Deal record"
RECORD = (
    RecordField("cards", "int", "Cards per seat in this deal (the schedule's).", low=1,
                high=MAX_CARDS, required=True, label=_("Cards"), widget="hint"),
    RecordField("trump", "enum", "The trump the auction decided.", values=TRUMPS,
                required=True, label=_("Trump"),
                choice_labels=(_("all trumps"), _("spades"), _("hearts"), _("diamonds"),
                               pgettext("card suit", "clubs"), _("no trump"))),
    RecordField("preference", "enum", "72-card games only (and required there).",
                values=PREFERENCES, nullable=True, label=_("Preference"),
                choice_labels=(_("marked"), _("simple")),
                applies=When(min_players=5, message=_("Only with two packs (5 to 7 "
                                                      "players)."))),
    RecordField("bids", "ints", "Each seat's bid, in seat order.", low=0, high=MAX_CARDS,
                min_items=3, max_items=7, required=True, label=_("Bids"), widget="counts"),
    RecordField("tricks", "ints", "Each seat's tricks, in seat order; they add up to "
                "cards.", low=0, high=MAX_CARDS, min_items=3, max_items=7, required=True,
                label=_("Tricks"), widget="counts"),
    RecordField("mechoune", "seat", "The seat that called a méchoune.", nullable=True,
                label=_("méchoune by")),
    RecordField("choune", "bool", "The méchouned seat answered with a choune.",
                nullable=True, label=_("choune"),
                applies=When(field="mechoune", values=(1, 2, 3, 4, 5, 6, 7))),
)


@register
class LaBatarde(Engine):
    key = "labatarde"
    name_de = "La Bâtarde"
    name_en = "La Bâtarde"
    table_sizes = (3, 4, 5, 6, 7)
    RECORD = RECORD
    preferred_table_size = 4
    standing_order = "asc"

    def sheet_length(self, players: int, rules: dict[str, Any]) -> int:
        return len(SCHEDULES[players])

    def deal_place(self, number: int, players: int) -> Hashable:
        return (number, players)  # all of a deal's place but the deals before it

    def validate_deal(self, deal: Any, ctx: DealContext) -> dict[str, Any]:
        cards = self._scheduled_cards(ctx)
        errors = bid_deal_errors(self, deal, ctx, cards)
        preference = self._preference(deal, ctx, errors)
        bids, tricks = bids_and_tricks(deal, ctx.players, cards, errors)
        if bids is not None and sum(bids) == cards:
            errors.add(f"bids.{ctx.dealer - 1}",
                       _("The bids must not add up to %(cards)s; the last bidder must bid "
                         "more or fewer."), cards=cards)
        mechoune, choune = self._mechoune(deal, ctx.players, errors)
        errors.raise_if_any()
        record = {"cards": cards, "trump": deal["trump"], "bids": bids, "tricks": tricks,
                  "mechoune": mechoune, "choune": choune}
        if preference is not None:
            record["preference"] = preference
        return record

    def deal_hints(self, ctx: DealContext) -> dict[str, Any]:
        cards = self._scheduled_cards(ctx)
        return {**super().deal_hints(ctx), "cards": cards, "bidding_order": bidding_order(ctx),
                "forbidden_total": cards, "two_packs": ctx.players >= 5}

    def _scheduled_cards(self, ctx: DealContext) -> int:
        """The cards of deal ``ctx.number``; refuses a deal outside the partie."""
        self.check_table(ctx.players, ctx.rules)
        schedule = SCHEDULES[ctx.players]
        if not is_int(ctx.number) or not 1 <= ctx.number <= len(schedule):
            raise user_error("number", _("Deal numbers in this partie run from 1 to %(length)s."),
                             length=len(schedule))
        return schedule[ctx.number - 1]

    def _preference(self, deal: dict[str, Any], ctx: DealContext,
                    errors: Errors) -> str | None:
        value = deal.get("preference")
        field = self.record_field("preference")
        if not self.field_applies(field, ctx.rules, ctx.players):  # one pack
            self.check_applies(deal, ctx, errors, ("preference",))
            return None
        if value is None:
            errors.add("preference", _("Required with two packs: %(choices)s."),
                       choices=", ".join(PREFERENCES))
        else:
            errors.extend(field.check(value))
        return value

    @staticmethod
    def _mechoune(deal: dict[str, Any], players: int,
                  errors: Errors) -> tuple[int | None, bool]:
        mechoune = deal.get("mechoune")
        choune = deal.get("choune", False)
        if mechoune is not None and not (is_int(mechoune) and 1 <= mechoune <= players):
            errors.add("mechoune", _("Must be a seat from 1 to %(players)s, or empty."),
                       players=players)
        problems = LaBatarde.record_field("choune").check(choune)
        errors.extend(problems)
        if not problems and choune and mechoune is None:
            errors.add("choune", _("A choune needs a méchoune: name the méchouning seat."))
        return mechoune, choune

    INSIGHT_LABELS = BID_LABELS

    def deal_parts(self, record: dict[str, Any], ctx: DealContext,
                   active: Sequence[int]) -> dict[int, Part]:
        return bid_parts(record, active)

    def score_deal(self, record: dict[str, Any], ctx: DealContext) -> ScoredDeal:
        factor = multiplier(record)
        return ScoredDeal(record, penalties(record["bids"], record["tricks"], factor),
                          {"multiplier": factor})
