"""The console's teams page: the team ranking, creating, renaming, changing and removing
teams, and pasting ``team;player`` lines. Every change goes through
``tournaments.services.teams``; its errors are shown next to the form."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.pages.access import (
    console_page,
    console_post,
    staff_actor,
)
from tournaments.pages.console import ask_first
from tournaments.pages.form_errors import run_on_form, run_or_say, saved_or_again
from tournaments.selectors import team_results
from tournaments.services.teams import team_create, team_delete, team_update, teams_import
from tournaments.team_forms import TeamForm, TeamImportForm

FIELD_OF = {"members": "members", "name": "name"}


def _participants(tournament):
    return list(tournament.participants.select_related("player", "team")
                .order_by("start_number"))


def _context(tournament, *, create_form=None, import_form=None, edit_forms=None):
    people = _participants(tournament)
    free = [p for p in people if p.team_id is None]
    teams = list(tournament.teams.order_by("id"))
    edit_forms = edit_forms or {}
    rows = []
    for team in teams:
        members = [p for p in people if p.team_id == team.pk]
        form = edit_forms.get(team.pk) or TeamForm(
            prefix=f"team{team.pk}", participants=members + free,
            initial={"name": team.name, "members": [str(p.pk) for p in members]})
        rows.append({"team": team, "members": members, "form": form})
    return {
        "tournament": tournament, "rows": rows, "free": free,
        "results": team_results(tournament, full=True),  # the console
        "create_form": create_form or TeamForm(participants=free),
        "import_form": import_form or TeamImportForm(),
        "drawn": tournament.rounds.exists(),
    }


@console_page
def teams_page(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/teams.html", _context(tournament))


@console_post
def team_new(request, tournament: Tournament, tournament_id: int):
    free = [p for p in _participants(tournament) if p.team_id is None]
    form = TeamForm(request.POST, participants=free)
    if form.is_valid():
        done, team = run_on_form(form, lambda: team_create(
            tournament_id=tournament.pk, name=form.cleaned_data["name"],
            members=form.member_ids(), actor=staff_actor(request)), field_of=FIELD_OF)
        if done:
            messages.success(request, _("Team “%(name)s” created.") % {"name": team.name})
            return redirect("console:teams", tournament.pk)
    return render(request, "console/teams.html", _context(tournament, create_form=form),
                  status=400)


@console_post
def team_edit(request, tournament: Tournament, tournament_id: int, team_id: int):
    team = get_object_or_404(tournament.teams, pk=team_id)
    people = _participants(tournament)
    choices = [p for p in people if p.team_id in (None, team.pk)]
    form = TeamForm(request.POST, prefix=f"team{team.pk}", participants=choices)
    if form.is_valid():
        done, _team = run_on_form(form, lambda: team_update(
            team_id=team.pk, fields={"name": form.cleaned_data["name"],
                                     "members": form.member_ids()},
            actor=staff_actor(request)), field_of=FIELD_OF)
        if done:
            messages.success(request, _("Team saved."))
            return redirect("console:teams", tournament.pk)
    return render(request, "console/teams.html",
                  _context(tournament, edit_forms={team.pk: form}), status=400)


@console_post
def team_remove(request, tournament: Tournament, tournament_id: int, team_id: int):
    team = get_object_or_404(tournament.teams, pk=team_id)
    if request.POST.get("confirm") != "yes":  # hard to undo: asked first (console._ask)
        return ask_first(request, tournament,
                         title=_("Remove team “%(name)s”?") % {"name": team.name},
                         what=_("The team and its member list are gone; its players stay "
                                "registered and play on without a team."),
                         button=_("Yes, remove team “%(name)s”") % {"name": team.name},
                         back=reverse("console:teams", args=[tournament.pk]))
    if run_or_say(request, lambda: team_delete(team_id=team.pk, actor=staff_actor(request)))[0]:
        messages.success(request, _("Team “%(name)s” removed.") % {"name": team.name})
    return redirect("console:teams", tournament.pk)


@console_post
def team_lines(request, tournament: Tournament, tournament_id: int):
    form = TeamImportForm(request.POST)
    return saved_or_again(
        request, form, lambda: teams_import(tournament_id=tournament.pk,
                                            text=form.cleaned_data["lines"],
                                            actor=staff_actor(request)),
        said=lambda teams: _("%(count)s teams filled in.") % {"count": len(teams)},
        back=reverse("console:teams", args=[tournament.pk]),
        template="console/teams.html", context=lambda: _context(tournament, import_form=form))


urlpatterns = [
    path("t/<int:tournament_id>/teams/", teams_page, name="teams"),
    path("t/<int:tournament_id>/teams/new/", team_new, name="team-new"),
    path("t/<int:tournament_id>/teams/lines/", team_lines, name="team-lines"),
    path("t/<int:tournament_id>/teams/<int:team_id>/", team_edit, name="team-edit"),
    path("t/<int:tournament_id>/teams/<int:team_id>/remove/", team_remove,
         name="team-remove"),
]
