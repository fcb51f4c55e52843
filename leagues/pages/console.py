"""The director's console of a league: create a season, its divisions, teams (rosters as
names) and matchdays, and a matchday's group (``group_console``: its line-ups, the next
series' draw and substitutions between series); the tables of a series are the group
tournament's console.

Staff create a league (and direct it); the rest is for those who run it
(``runs_league``). Every change goes through a service; its errors are shown next to the
form's fields in the reader's language.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from clubs.models import Club
from clubs.policies import is_staff
from clubs.publication import shown_player
from games.choices import league_game_choices
from leagues.models import Division, Group, League, LeagueTeam, Matchday
from leagues.policies import runs_league
from leagues.services.matchdays import (
    lineup_set,
    matchday_create,
    matchday_reopen,
    series_draw,
    substitution_add,
)
from leagues.services.seasons import (
    division_create,
    league_create,
    team_create_from_names,
    team_update_from_names,
)
from tournaments.forms import ClubChoiceField
from tournaments.pages.form_errors import run_on_form, run_or_say
from tournaments.text_checks import whole_number

SCORING = [("dskv", _("DSkV: 3/2/1/0 per series")), ("ispa", _("ISPA: 6/4/2/0 per series")),
           ("ddv", _("DDV: 4/3/2/1 per day"))]



class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    game = forms.ChoiceField(label=_("Game"), choices=league_game_choices)
    year = forms.IntegerField(label=_("Year"), min_value=1900, max_value=2999)
    scoring = forms.ChoiceField(label=_("Scoring"), choices=SCORING)


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    level = forms.IntegerField(label=_("Level (1 = top)"), min_value=1, max_value=99,
                               initial=1)
    series_per_matchday = forms.IntegerField(label=_("Series per matchday"), min_value=1,
                                             max_value=8, initial=3)
    team_size = forms.IntegerField(label=_("Players per team"), min_value=2, max_value=8,
                                   initial=4)
    matchdays = forms.IntegerField(label=_("Matchdays"), min_value=1, max_value=30, initial=5)


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120)
    club = ClubChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"))
    regulars = forms.CharField(label=_("Regular players"), widget=forms.Textarea(
        attrs={"rows": 4}), help_text=_("One name per line."))
    substitutes = forms.CharField(label=_("Substitutes"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}),
                                  help_text=_("One name per line."))


class TeamEditForm(TeamForm):
    captain = forms.CharField(label=_("Captain"), max_length=120, required=False,
                              help_text=_("One of the players above; empty: none."))
    withdrawn_on = forms.DateField(
        label=_("Withdrawn on"), required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("A withdrawn team is left out of the groups from then on; empty: "
                    "the team plays."))


class MatchdayForm(forms.Form):
    number = forms.IntegerField(label=_("Matchday number"), min_value=1, max_value=30)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    kind = forms.ChoiceField(label=_("Kind"), choices=[("decentral", _("decentral")),
                                                       ("central", _("central"))])
    venue_name = forms.CharField(label=_("Venue"), max_length=160, required=False)
    venue_address = forms.CharField(label=_("Address"), max_length=300, required=False)
    groups = forms.CharField(
        label=_("Groups"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One group per line, the team names separated by commas; left empty: "
                    "the schedule for 4, 16, 64… teams."))


def _groups(text: str, division: Division, form) -> list[list[int]] | None:
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return None
    by_name = {t.name.casefold(): t.pk for t in division.teams.all()}
    groups = []
    for line in lines:
        group = []
        for name in (part.strip() for part in line.split(",")):
            if name.casefold() not in by_name:
                form.add_error("groups", _("There is no team “%(name)s” in this division.")
                               % {"name": name})
                return []
            group.append(by_name[name.casefold()])
        groups.append(group)
    return groups


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request):
    if not is_staff(request.user):
        raise Http404()
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done, league = run_on_form(
            form, lambda: league_create(user=request.user, **form.cleaned_data))
        if done:
            return redirect("leagues:console", league.pk)
    return render(request, "leagues/console_new.html", {"form": form})


def _league_run_by(request, pk: int) -> League:
    league = get_object_or_404(League, pk=pk)
    if not runs_league(request.user, league):
        raise Http404()
    return league


@login_required
@require_http_methods(["GET", "POST"])
def league_console(request, pk: int):
    league = _league_run_by(request, pk)
    form = DivisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done, division = run_on_form(
            form, lambda: division_create(league=league, **form.cleaned_data))
        if done:
            return redirect("leagues:division-console", division.pk)
    return render(request, "leagues/console_league.html", {
        "league": league, "divisions": league.divisions.all(), "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def division_console(request, pk: int):
    division = get_object_or_404(Division.objects.select_related("league"), pk=pk)
    if not runs_league(request.user, division.league):
        raise Http404()
    team_form = TeamForm(request.POST if "add_team" in request.POST else None, prefix="team")
    day_form = MatchdayForm(request.POST if "add_matchday" in request.POST else None,
                            prefix="day")
    if request.method == "POST" and "reopen" in request.POST:
        return _reopen(request, division)
    field_of = {"roster": "regulars", "player": "regulars", "hosts": "groups"}
    if request.method == "POST" and team_form.is_bound and team_form.is_valid():
        if run_on_form(team_form, lambda: team_create_from_names(
                division=division, user=request.user, **team_form.cleaned_data),
                field_of=field_of, conflicts_to=request)[0]:
            messages.success(request, _("The team is saved."))
            return redirect(request.path)
    elif request.method == "POST" and day_form.is_bound and day_form.is_valid():
        data = dict(day_form.cleaned_data)
        groups = _groups(data.pop("groups"), division, day_form)
        if groups != [] and run_on_form(day_form, lambda: matchday_create(
                division=division, groups=groups, **data),
                field_of=field_of, conflicts_to=request)[0]:
            messages.success(request, _("The matchday is saved."))
            return redirect(request.path)
    teams = LeagueTeam.objects.filter(division=division).select_related("club")
    matchdays = division.matchday_set.prefetch_related("groups")
    return render(request, "leagues/console_division.html", {
        "division": division, "league": division.league, "teams": teams,
        "matchdays": matchdays, "team_form": team_form, "day_form": day_form})


def _reopen(request, division: Division):
    """Reopen a matchday's binding results for corrections, or make them binding again."""
    matchday = get_object_or_404(Matchday, division=division, pk=request.POST.get("matchday")
                                 if str(request.POST.get("matchday", "")).isdigit() else 0)
    reopened = request.POST["reopen"] == "1"
    if run_or_say(request, lambda: matchday_reopen(matchday=matchday, reopened=reopened))[0]:
        messages.success(request, (_("Matchday %(number)s is reopened for corrections.")
                                   if reopened else _("Matchday %(number)s is closed again."))
                         % {"number": matchday.number})
    return redirect("leagues:division-console", division.pk)


@login_required
@require_http_methods(["GET", "POST"])
def team_console(request, pk: int):
    """Change a team: name, club, roster (names), captain and withdrawal."""
    team = get_object_or_404(LeagueTeam.objects.select_related(
        "division__league", "club", "captain"), pk=pk)
    if not runs_league(request.user, team.division.league):
        raise Http404()
    roster = list(team.roster.select_related("player").order_by("id"))
    initial = {
        "name": team.name, "club": team.club_id,
        "regulars": "\n".join(e.player.name for e in roster if e.role == "regular"),
        "substitutes": "\n".join(e.player.name for e in roster if e.role == "substitute"),
        "captain": team.captain.name if team.captain else "",
        "withdrawn_on": team.withdrawn_on}
    form = TeamEditForm(request.POST or None, initial=initial)
    for field in ("regulars", "substitutes"):  # the whole roster in view
        form.fields[field].widget.attrs["rows"] = max(
            2, initial[field].count("\n") + 2)
    if request.method == "POST" and form.is_valid():
        done, _saved = run_on_form(
            form, lambda: team_update_from_names(team=team, user=request.user,
                                                 **form.cleaned_data),
            field_of={"roster": "regulars", "player": "regulars"})
        if done:
            messages.success(request, _("The team is saved."))
            return redirect("leagues:division-console", team.division_id)
    return render(request, "leagues/console_team.html", {
        "team": team, "division": team.division, "league": team.division.league,
        "form": form})


def _group_post(request, division: Division, group: Group, teams: list[LeagueTeam]) -> str:
    """Draw the next series, add a substitution or save a team's line-up; what was done,
    in words."""
    if request.POST.get("draw"):
        rnd = series_draw(group=group)
        return gettext("Series %(number)s is drawn.") % {"number": rnd.number}
    if request.POST.get("substitute"):
        sub = substitution_add(
            group=group, team=whole_number(request.POST.get("team", "")),
            position=whole_number(request.POST.get("position", ""), low=1, high=99),
            player=whole_number(request.POST.get("player", "")))
        return gettext("From series %(number)s the substitute plays at position "
                       "%(position)s.") % {"number": sub.from_series, "position": sub.position}
    team = next((t for t in teams if str(t.pk) == request.POST.get("team", "")), None)
    if team is None:
        raise Http404()
    positions = [whole_number(request.POST.get(f"position-{n}", ""), low=1, high=2**63 - 1)
                 for n in range(1, division.team_size + 1)]
    lineup_set(group=group, team=team, positions=positions)
    return gettext("The line-up of %(team)s is saved.") % {"team": team.name}


@login_required
@require_http_methods(["GET", "POST"])
def group_console(request, pk: int, g: int):
    matchday = get_object_or_404(Matchday.objects.select_related("division__league"), pk=pk)
    division = matchday.division
    if not runs_league(request.user, division.league):
        raise Http404()
    group = get_object_or_404(Group, matchday=matchday, number=g)
    teams = [m.team for m in group.members.select_related("team")]
    if request.method == "POST":
        done, said = run_or_say(request, lambda: _group_post(request, division, group, teams))
        if done:
            messages.success(request, said)
        return redirect(request.path)
    lineups = {lu.team_id: lu.positions for lu in group.lineups.all()}
    forms = []
    for team in teams:
        roster = [(e.player_id, shown_player(e.player, full=True))
                  for e in team.roster.select_related("player")]
        chosen = lineups.get(team.pk, []) + [None] * division.team_size
        forms.append({"team": team, "roster": roster,
                      "positions": [(n, chosen[n - 1])
                                    for n in range(1, division.team_size + 1)]})
    drawn = group.tournament.rounds.count() if group.tournament_id else 0
    return render(request, "leagues/group_console.html", {
        "matchday": matchday, "division": division, "group": group, "forms": forms,
        "drawn": drawn, "series": division.series_per_matchday})
