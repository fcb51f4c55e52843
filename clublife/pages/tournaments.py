"""A tournament's downloads (its standings as CSV, its archive as JSON) and its table
money: what each player owes and the director's correction of the fee schedule."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from archive.export import tournament_export
from archive.standings_file import standings_csv
from clublife.forms import TableMoneyForm
from clublife.models import TableMoneyChange
from clublife.services.evenings import tournament_table_money_update
from clublife.table_money import (
    evening_table_money,
)
from tournaments.csv_files import csv_download, json_download
from tournaments.models import Tournament
from tournaments.pages.access import (
    allowed_if,
    tournament_by_pk,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.policies import (
    can_see_tournament,
    directs,
    sees_full_names,
)
from tournaments.templatetags.money import euros

MONEY_FIELD_OF = {"loss_fee_cents": "loss_fee", "loss_fee_high_cents": "loss_fee_high"}


@allowed_if(can_see_tournament, tournament_by_pk, hide=True)
def tournament_standings_csv(request, tournament: Tournament, pk: int):
    category = request.GET.get("category")
    if category not in (tournament.categories or []):
        category = None  # a page reads leniently: the whole list
    return csv_download(standings_csv(tournament, full=sees_full_names(request.user, tournament),
                                      category=category),
                        f"{tournament.slug}-standings.csv")


@login_required
@allowed_if(directs, tournament_by_pk)
def tournament_archive(request, tournament: Tournament, pk: int):
    return json_download(tournament_export(tournament=tournament), f"{tournament.slug}.json")


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(directs, tournament_by_pk)
def tournament_table_money(request, tournament: Tournament, pk: int):
    """What each player owes, and the director's correction of the fee schedule (also
    after the evening was played; every change is kept and listed)."""
    form = TableMoneyForm(request.POST or None, initial=TableMoneyForm.initial_of(tournament))
    if request.method == "POST" and form.is_valid():
        done, _saved = run_on_form(form, lambda: tournament_table_money_update(
            tournament=tournament, **form.service_fields(), by=request.user),
            field_of=MONEY_FIELD_OF)
        if done:
            messages.success(request, _("Table money saved; the amounts below follow it."))
            return redirect("clubs:tournament-table-money", tournament.pk)
    changes = (TableMoneyChange.objects.filter(tournament=tournament)
               .select_related("by").order_by("-at", "-id"))
    return render(request, "clublife/evening_money.html", {
        "tournament": tournament, "money": evening_table_money(tournament), "form": form,
        "changes": [{"change": c, "before": schedule_text(c.before),
                     "after": schedule_text(c.after)} for c in changes]},
        status=400 if form.errors else 200)


def schedule_text(fields: dict) -> str:
    """A stored schedule in words: "0,50 € · ab dem 4. verlorenen Spiel 1,00 €"."""
    if fields.get("loss_fee_cents") is None:
        return _("the club's table money")
    text = _("%(fee)s € per lost game") % {"fee": euros(fields["loss_fee_cents"])}
    if fields.get("loss_fee_from"):
        text += " · " + _("%(high)s € from lost game no. %(n)s on") % {
            "high": euros(fields.get("loss_fee_high_cents") or 0), "n": fields["loss_fee_from"]}
    return text
