"""The console's categories page (games.md §10.3, §10.4): the tournament's categories
(one label per line), the club ranking's K and "one prize per player", and a tick list
of who belongs to which category. Every change goes through
``tournaments.services`` (``tournament_update``, ``categories_assign``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import MAX_CLUB_RANKING_K, MIN_CLUB_RANKING_K, Tournament
from tournaments.pages.access import (
    console_page,
    console_post,
)
from tournaments.pages.form_errors import run_or_say, saved_or_again
from tournaments.services import tournament_update
from tournaments.services.categories import categories_assign


class CategoriesForm(forms.Form):
    categories = forms.CharField(
        label=gettext_lazy("Categories, one per line"), required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("For example Damen, Senioren, Jugend, Gäste (at most 10)."))
    club_ranking_k = forms.IntegerField(
        label=gettext_lazy("Club ranking: players counted per club"), required=False,
        min_value=MIN_CLUB_RANKING_K, max_value=MAX_CLUB_RANKING_K,
        help_text=gettext_lazy("Empty: no club ranking."))
    one_prize_per_player = forms.BooleanField(
        label=gettext_lazy("One prize per player (the overall list pays first)"),
        required=False)

    def labels(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["categories"].splitlines()
                if line.strip()]


def _context(tournament: Tournament, form: CategoriesForm | None = None) -> dict:
    labels = list(tournament.categories or [])
    people = list(tournament.participants.select_related("player").order_by("start_number"))
    return {
        "tournament": tournament, "labels": labels,
        "form": form or CategoriesForm(initial={
            "categories": "\n".join(labels), "club_ranking_k": tournament.club_ranking_k,
            "one_prize_per_player": tournament.one_prize_per_player}),
        "rows": [{"p": p, "ticks": [(label, label in (p.categories or []))
                                    for label in labels]} for p in people],
    }


@console_page
def categories_page(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/categories.html", _context(tournament))


@console_post
def categories_save(request, tournament: Tournament, tournament_id: int):
    form = CategoriesForm(request.POST)
    return saved_or_again(
        request, form, lambda: tournament_update(
            tournament=tournament, categories=form.labels(),
            club_ranking_k=form.cleaned_data["club_ranking_k"],
            one_prize_per_player=form.cleaned_data["one_prize_per_player"]),
        said=_("Categories saved."),
        back=reverse("console:categories", args=[tournament.pk]),
        template="console/categories.html", context=lambda: _context(tournament, form))


@console_post
def categories_tick(request, tournament: Tournament, tournament_id: int):
    ids = tournament.participants.values_list("pk", flat=True)
    members = {pid: request.POST.getlist(f"c{pid}") for pid in ids}
    if run_or_say(request, lambda: categories_assign(tournament=tournament, members=members))[0]:
        messages.success(request, _("Categories saved."))
    return redirect("console:categories", tournament.pk)


urlpatterns = [
    path("t/<int:tournament_id>/categories/", categories_page, name="categories"),
    path("t/<int:tournament_id>/categories/save/", categories_save, name="categories-save"),
    path("t/<int:tournament_id>/categories/tick/", categories_tick, name="categories-tick"),
]
