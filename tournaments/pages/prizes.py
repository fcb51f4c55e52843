"""The console's prize page: the entry fee and the prize list, the payout following the
standings, a lot for ties at prize places, and the payout list to print for the
prize-giving. Writes go through ``tournaments.services.prizes``."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Tournament
from tournaments.pages.access import allowed_if, staff_actor, staff_required, tournament_by_pk
from tournaments.pages.form_errors import run_on_form
from tournaments.policies import directs
from tournaments.prize_forms import LotForm, PrizeForm
from tournaments.prizes.ties import tie_notes
from tournaments.selectors import prize_answer
from tournaments.services.prizes import lot_set, prizes_set
from tournaments.templatetags.money import euros

FIELD_OF = {"entry_fee_cents": "entry_fee", "places_percent": "places",
            "places_cents": "places", "places_goods": "places"}


def _number(value) -> str:
    return formats.number_format(value, use_l10n=True)


def _initial(answer) -> dict:
    if answer is None:
        return {}
    money = (answer.get("places_percent") or [Decimal(c) / 100 for c in
                                              answer.get("places_cents", [])])
    goods = answer["places_goods"] + [""] * (len(money) - len(answer["places_goods"]))
    money = list(money) + [""] * (len(goods) - len(money))
    lines = [f"{_number(m) if m != '' else ''}{'; ' + g if g else ''}"
             for m, g in zip(money, goods, strict=True)]
    return {"entry_fee": euros(answer["entry_fee_cents"]),
            "payout_percent": _number(answer["payout_percent"]),
            "kind": "fixed" if "places_cents" in answer else "percent",
            "places": "\n".join(lines)}


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
            "form": form or PrizeForm(initial=_initial(answer)),
            "lot_form": lot_form or LotForm()}


@staff_required
@allowed_if(directs, tournament_by_pk)
def prizes_page(request, tournament: Tournament, tournament_id: int):
    if request.method == "POST":
        form = PrizeForm(request.POST)
        if form.is_valid():
            done, _config = run_on_form(form, lambda: prizes_set(
                tournament_id=tournament.pk, data=form.prize_list(),
                actor=staff_actor(request)), field_of=FIELD_OF)
            if done:
                messages.success(request, _("Prize list saved."))
                return redirect("console:prizes", tournament.pk)
        return render(request, "console/prizes.html", _context(tournament, form=form),
                      status=400)
    return render(request, "console/prizes.html", _context(tournament))


@staff_required
@require_POST
@allowed_if(directs, tournament_by_pk)
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


@staff_required
@allowed_if(directs, tournament_by_pk)
def prizes_print(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/prizes_print.html", _context(tournament))


urlpatterns = [
    path("t/<int:tournament_id>/prizes/", prizes_page, name="prizes"),
    path("t/<int:tournament_id>/prizes/lot/", prize_lot, name="prize-lot"),
    path("t/<int:tournament_id>/prizes/print/", prizes_print, name="prizes-print"),
]
