"""The console's prize page: the entry fee and the prize list, the payout following the
standings, a lot for ties at prize places, and the payout list to print for the
prize-giving. Writes go through ``prizes.services``."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext as _

from prizes.forms import LotForm, PrizeForm
from prizes.selectors import prize_answer
from prizes.services import lot_set, prizes_set
from prizes.ties import tie_notes
from tournaments.models import Tournament
from tournaments.pages.access import (
    console_page,
    console_post,
    staff_actor,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.templatetags.money import euros

FIELD_OF = {"entry_fee_cents": "entry_fee", "places_percent": "places",
            "places_cents": "places", "places_goods": "places"}


def _number(value, decimals=None) -> str:
    return formats.number_format(value, decimal_pos=decimals, use_l10n=True)


def _lines(money, goods, decimals=None) -> str:
    goods = list(goods) + [""] * (len(money) - len(goods))
    money = list(money) + [""] * (len(goods) - len(money))
    return "\n".join(f"{_number(m, decimals) if m != '' else ''}{'; ' + g if g else ''}"
                     for m, g in zip(money, goods, strict=True))


def _initial(answer, categories) -> dict:
    if answer is None:
        return {}
    money = (answer.get("places_percent") or [Decimal(c) / 100 for c in
                                              answer.get("places_cents", [])])
    initial = {"entry_fee": euros(answer["entry_fee_cents"]),
               "payout_percent": _number(answer["payout_percent"]),
               "kind": "fixed" if "places_cents" in answer else "percent",
               "places": _lines(money, answer["places_goods"])}
    stored = answer.get("categories") or {}
    for index, label in enumerate(categories):
        prizes = stored.get(label) or {}
        initial[f"category_{index}"] = _lines(
            [Decimal(c) / 100 for c in prizes.get("places_cents") or []],
            prizes.get("places_goods") or [], decimals=2)  # euros and cents
    return initial


def _category_field(form, name: str) -> str:
    """A refusal naming a category's list (``categories.<label>.…``) is shown next to
    that category's field (any other as it is)."""
    if not name.startswith("categories."):
        return name
    rest = name.removeprefix("categories.")
    for label in form.categories:
        if rest == label[:40] or rest.startswith(label[:40] + "."):
            return form.field_of_category(label)
    return name


def _context(tournament, *, form=None, lot_form=None):
    answer = prize_answer(tournament, full=True)  # the console
    numbers = {p.pk: p for p in tournament.participants.select_related("player")}
    ties = []
    if answer:
        ties = [[numbers[pid] for pid in group] for group in answer["ties"]]
    notes = tie_notes(answer) if answer else []
    return {"tournament": tournament, "answer": answer, "ties": ties,
            "tie_notes": notes,
            # a goods prize among tied players, handed out by start number until a lot is
            # drawn (the tie notes say so): marked in its row and explained once under the
            # list, so a row stays one line on paper
            "goods_by_number": any(n["decided"] == "shared" and n["goods"] for n in notes),
            "form": form or PrizeForm(initial=_initial(answer, tournament.categories or []),
                                      categories=tournament.categories or []),
            "lot_form": lot_form or LotForm()}


@console_page
def prizes_page(request, tournament: Tournament, tournament_id: int):
    if request.method == "POST":
        form = PrizeForm(request.POST, categories=tournament.categories or [])
        if form.is_valid():
            done, _config = run_on_form(
                form, lambda: prizes_set(tournament_id=tournament.pk, data=form.prize_list(),
                                         actor=staff_actor(request)),
                field_of=FIELD_OF, rename=lambda name: _category_field(form, name))
            if done:
                messages.success(request, _("Prize list saved."))
                return redirect("console:prizes", tournament.pk)
        return render(request, "console/prizes.html", _context(tournament, form=form),
                      status=400)
    return render(request, "console/prizes.html", _context(tournament))


@console_post
def prize_lot(request, tournament: Tournament, tournament_id: int):
    form = LotForm(request.POST)
    if form.is_valid():
        by_number = dict(tournament.participants.values_list("start_number", "pk"))
        unknown = [n for n in form.cleaned_data["order"] if n not in by_number]
        if unknown:
            form.add_error("order", _("No participant has the start number %(numbers)s.")
                           % {"numbers": ", ".join(str(n) for n in unknown)})
        else:
            done, _lot = run_on_form(form, lambda: lot_set(
                tournament_id=tournament.pk,
                order=[by_number[n] for n in form.cleaned_data["order"]]))
            if done:
                messages.success(request, _("The lot is recorded."))
                return redirect("console:prizes", tournament.pk)
    return render(request, "console/prizes.html", _context(tournament, lot_form=form),
                  status=400)


@console_page
def prizes_print(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/prizes_print.html", _context(tournament))
