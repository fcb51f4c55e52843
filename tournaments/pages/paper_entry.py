"""Typing in a paper sheet's totals from the console, for a game whose presentation has a
summary entry (Skat): per seat the game points and the won and lost declarer games,
checked by the engine like the API's summary (every offending seat and field named at
once), replacing any deals the tablet entered (kept in the history). The director's
totals count at once: the sheet is submitted with them (the players signed the paper),
the history saying they came from paper."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.presentation import presentation_of
from tournaments.models import Table
from tournaments.pages.access import allowed_if, staff_actor, staff_required, table_by_pk
from tournaments.pages.form_errors import run_on_form
from tournaments.policies import directs_table
from tournaments.selectors import table_state
from tournaments.services import sheet_submit, summary_record


class SummaryForm(forms.Form):
    """One number per seat and figure of the game's summary entry: ``seat1_game_points``,
    ``seat1_won``, …"""

    def __init__(self, *args, seats, figures, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.figures = seats, figures
        for seat in seats:
            for key, label, low, high in figures:
                self.fields[f"seat{seat['seat']}_{key}"] = forms.IntegerField(
                    label=f"{seat['name']}: {label}", min_value=low, max_value=high)

    def entries(self) -> list[dict[str, int]]:
        return [{key: self.cleaned_data[f"seat{s['seat']}_{key}"] for key, *_rest in self.figures}
                for s in self.seats]

    def rows(self):
        """The form's fields as one row per seat, for the template."""
        return [{"seat": s, "fields": [self[f"seat{s['seat']}_{key}"]
                                       for key, *_rest in self.figures]}
                for s in self.seats]


def _seat_field(form: SummaryForm, field: str) -> str:
    """The engine's ``seats.<i>.<figure>`` as the form's ``seat<n>_<figure>`` (any other
    field as it is: shown above the form)."""
    parts = field.split(".")
    if len(parts) == 3 and parts[0] == "seats" and parts[1].isdigit() \
            and int(parts[1]) < len(form.seats):
        return f"seat{form.seats[int(parts[1])]['seat']}_{parts[2]}"
    return field


def _summary_enter(table: Table, form: SummaryForm, actor):
    with transaction.atomic():
        summary_record(table_id=table.pk, seats=form.entries(), actor=actor)
        if not table.submitted:
            sheet_submit(table_id=table.pk, actor=actor, unconfirmed_reason=_(
                "Totals typed in from the paper sheet by the tournament director."))


@staff_required
@allowed_if(directs_table, table_by_pk)
def summary_page(request, table: Table, table_id: int):
    state = table_state(table)
    shown = presentation_of(state["game"])
    if not shown.summary_entry:
        raise Http404()
    initial = {}
    for total in state["totals"] if state["summary"] is not None else ():
        for key, *_rest in shown.summary_figures:
            initial[f"seat{total['seat']}_{key}"] = total.get(key)
    form = SummaryForm(request.POST or None, seats=state["seats"],
                       figures=shown.summary_figures, initial=initial)
    if request.method == "POST" and form.is_valid():
        actor = staff_actor(request)
        if run_on_form(form, lambda: _summary_enter(table, form, actor),
                       rename=lambda name: _seat_field(form, name))[0]:
            messages.success(request, _("The totals of table %(number)s are entered and count.")
                             % {"number": table.number})
            return redirect("console:tournament", table.round.tournament_id)
    return render(request, "console/summary.html", {"table": table, "state": state,
                                                    "form": form},
                  status=400 if form.errors else 200)
