"""The console page of a club's ranking lists (games.md §10.2), for the club's admins:
``/clubs/<slug>/ranking-lists/`` lists them (linked to their public pages), creates one
and, after a confirmation step, deletes one. Anyone else gets a 404.

The form only reads the input; the writing and its checks are the API's service
(``ratings.ranking_lists.services``), whose errors are shown next to the fields in the
user's language. Nothing is stored when anything is wrong.
"""

from __future__ import annotations

import datetime
import re

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from clubs.models import Club
from clubs.policies import runs_club
from games.choices import game_choices
from ratings import list_models as limits
from ratings.list_models import RankingList
from ratings.ranking_lists.services import ranking_list_create, ranking_list_delete
from tournaments.forms import ClubsChoiceField
from tournaments.pages.access import allowed_if, club_by_slug
from tournaments.pages.form_errors import run_on_form

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
POINTS_TEXT_MAX = 2000  # characters of a typed points list (200 numbers of up to 6 digits)


class RankingListForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=limits.NAME_MAX)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    first = forms.DateField(label=_("First day"), widget=DATE)
    last = forms.DateField(label=_("Last day"), widget=DATE)
    clubs = ClubsChoiceField(
        label=_("Tournaments of these clubs count too"), queryset=Club.objects.none(),
        required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("The club's own tournaments always count."))
    best_n = forms.IntegerField(label=_("Best tournaments counted (empty: all)"), min_value=1,
                                max_value=limits.MAX_EVENTS, required=False)
    min_events = forms.IntegerField(label=_("Tournaments needed to be ranked"), min_value=0,
                                    max_value=limits.MAX_EVENTS, initial=1)
    points_kind = forms.ChoiceField(
        label=_("Points per place"), widget=forms.RadioSelect, initial="field",
        choices=[("field", _("Number of players minus the place plus one (the winner of 40 "
                             "gets 40)")),
                 ("list", _("A list of points, place 1 first"))])
    points = forms.CharField(label=_("Points list"), max_length=POINTS_TEXT_MAX, required=False,
                             help_text=_("For example: 25, 20, 16, 13, 11, 10. Places beyond "
                                         "the list get 0."))

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["clubs"].queryset = Club.objects.exclude(pk=club.pk).order_by("name")

    def clean_name(self) -> str:
        value = self.cleaned_data["name"].strip()
        if not value:
            raise forms.ValidationError(_("The name must not be blank."))
        return value

    def clean_clubs(self):
        value = self.cleaned_data["clubs"]
        if len(value) > limits.MAX_CLUBS - 1:
            raise forms.ValidationError(_("Choose at most %(max)s other clubs."),
                                        params={"max": limits.MAX_CLUBS - 1})
        return value

    def clean(self):
        data = super().clean()
        if data.get("points_kind") == "list":
            data["points_list"] = self._points_list(data.get("points", ""))
        return data

    def _points_list(self, text: str) -> list[int] | None:
        """The typed list ("25, 20, 16, 13, …"), checked here against the service's
        bounds so that people read a message about what they typed, not about the API."""
        parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p not in ("", "…", "...")]
        if (not parts or len(parts) > limits.MAX_POINTS
                or not all(re.fullmatch(r"[0-9]{1,9}", p) and int(p) <= limits.MAX_POINT_VALUE
                           for p in parts)):
            self.add_error("points", forms.ValidationError(
                _("Type at most %(max)s whole numbers from 0 to %(high)s, separated by "
                  "commas, for example 25, 20, 16, 13."),
                params={"max": limits.MAX_POINTS, "high": limits.MAX_POINT_VALUE}))
            return None
        return [int(p) for p in parts]

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {"name": data["name"], "game": data["game"], "first": data["first"],
                "last": data["last"],
                "clubs": [self.club.pk, *sorted(c.pk for c in data["clubs"])],
                "best_n": data["best_n"],
                "min_events": data["min_events"] if data["min_events"] is not None else 1,
                "points": data["points_list"] if data["points_kind"] == "list" else "field"}


def _initial(club: Club) -> dict:
    year = timezone.localdate().year
    return {"game": club.default_game, "first": datetime.date(year, 1, 1),
            "last": datetime.date(year, 12, 31), "min_events": 1, "points_kind": "field"}


@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug, hide=True)
def ranking_lists_console(request, club: Club, slug: str):
    """The club's ranking lists and the form for a new one."""
    form = RankingListForm(request.POST if request.method == "POST" else None, club=club,
                           initial=_initial(club))
    if request.method == "POST" and form.is_valid():
        done, ranking = run_on_form(form, lambda: ranking_list_create(
            club=club, user=request.user, **form.service_fields()))
        if done:
            messages.success(request, gettext("Ranking list “%(name)s” created.")
                             % {"name": ranking.name})
            return redirect("ratings:club-ranking-lists", club.slug)
    lists = list(club.ranking_lists.order_by("-last", "id"))
    for ranking in lists:
        ranking.game_name = ranking.get_game_display()
    return render(request, "ratings/lists_console.html",
                  {"club": club, "form": form, "lists": lists},
                  status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug, hide=True)
def ranking_list_delete_page(request, club: Club, slug: str, rid: int):
    """The confirmation step (GET, or a POST without ``confirm=yes``) and the deletion of
    one of the club's lists."""
    ranking = RankingList.objects.filter(club=club, pk=rid).first()
    if ranking is None:
        raise Http404()
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        name = ranking.name
        ranking_list_delete(ranking=ranking)
        messages.success(request, gettext("Ranking list “%(name)s” deleted.") % {"name": name})
        return redirect("ratings:club-ranking-lists", club.slug)
    return render(request, "ratings/list_delete.html", {"club": club, "ranking": ranking})
