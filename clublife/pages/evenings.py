"""Club-life pages: the club with its evenings, a new club evening in a few taps, the
season ranking and table money for the treasurer. (A player's page and the merge are
``clublife.pages.players``', a tournament's downloads and table money
``clublife.pages.tournaments``', the member import and the club's defaults
``clublife.pages.club``'.)

Anyone sees a club, its season rankings and the evenings as far as
``visible_tournaments`` lets him (the published ones; those he directs); the club's
admins do the rest. Every change goes through a service, whose errors
are shown next to the form in the user's language; playing the evening happens in the
director's console (``console:tournament``).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clublife.forms import EveningForm, SeasonRulesForm
from clublife.models import SeasonRow
from clublife.selectors import (
    returning_guests,
    season_find,
    season_pending,
)
from clublife.services.evenings import club_evening_create
from clublife.services.seasons import MAX_YEAR, MIN_YEAR, season_get_or_create, season_update
from clublife.table_money import (
    season_evenings_csv,
    season_table_money,
    season_totals_csv,
)
from clubs.models import Club
from clubs.policies import runs_club, sees_full_names_in_club
from games.choices import game_choices, game_keys, game_name
from games.engines import get_engine
from tournaments.csv_files import csv_download
from tournaments.pages.access import (
    allowed_if,
    club_by_slug,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.pages.panels import panels
from tournaments.policies import (
    visible_tournaments,
)

# service field → form field, for showing a service's errors next to the right field
FIELD_OF = {"player_ids": "players"}


def _year(year: int) -> int:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise Http404()
    return year


def club_page(request, slug: str):
    club = club_by_slug(slug=slug)
    admin = runs_club(request.user, club)
    evenings = (club.tournaments.filter(club_evening=True)
                .filter(visible_tournaments(request.user))
                .annotate(n=Count("participants")).order_by("-date", "-id"))
    seasons = sorted({(d.year, g) for d, g in evenings.exclude(date=None)
                      .values_list("date", "game")}, reverse=True)
    return render(request, "clublife/club.html", {
        "club": club, "admin": admin, "evenings": evenings[:100],
        "seasons": [(year, game, game_name(game)) for year, game in seasons],
        "this_year": timezone.localdate().year, "panels": panels("club", request, club),
        "fee": club.loss_fee_cents, "game_name": game_name(club.default_game)})


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug)
def evening_new(request, club: Club, slug: str):
    members = list(club.players.order_by("name", "pk"))
    guests = returning_guests(club=club)
    initial = {"date": timezone.localdate(), "game": club.default_game}
    form = EveningForm(request.POST or None, initial=initial, members=members + guests)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        done, evening = run_on_form(form, lambda: club_evening_create(
            club=club, date=data["date"], player_ids=[int(p) for p in data["players"]],
            guests=data["guests"], game=data["game"], director=request.user,
            method=data["method"]), field_of=FIELD_OF)
        if done:
            messages.success(request, _("The club evening is drawn: print the table cards or "
                                        "hand out the tablets."))
            return redirect("console:tournament", evening.pk)
    return render(request, "clublife/evening_new.html", {
        "club": club, "form": form, "guest_ids": {str(p.pk) for p in guests}},
        status=400 if form.errors else 200)


def _season_context(request, club: Club, year: int, game: str) -> dict:
    season = season_find(club=club, game=game, year=year)
    rows = []
    if season is not None:
        rows = list(SeasonRow.objects.filter(season=season).select_related("player")
                    .order_by("position"))
    figures = get_engine(game).figures
    return {
        "club": club, "year": year, "game": game, "game_name": game_name(game),
        "games": game_choices(), "season": season,
        "rows": [{"row": r, "figures": [(f, r.figures.get(f, "")) for f in figures]} for r in rows],
        "figures": figures, "stale": bool(season_pending(season, club_id=club.pk, game=game,
                                                          year=year)),
        "admin": runs_club(request.user, club),
        "full_names": sees_full_names_in_club(request.user, club),
    }


@require_http_methods(["GET", "POST"])
def season_page(request, slug: str, year: int):
    club = club_by_slug(slug=slug)
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in game_keys():
        raise Http404()
    context = _season_context(request, club, year, game)
    season = context["season"]
    initial = {"best_n": season.best_n if season else club.season_best_n,
               "min_evenings": season.min_evenings if season else club.season_min_evenings,
               "ranked_by": season.ranked_by if season else "sum"}
    form = SeasonRulesForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if not context["admin"]:
            raise PermissionDenied(_("Only the club's admins may do this."))
        if form.is_valid():
            season = season_get_or_create(club=club, game=game, year=year)
            season_update(season=season, **form.cleaned_data)
            messages.success(request, _("Saved; the ranking is being recomputed."))
            return redirect(f"{request.path}?game={game}")
    context["form"] = form
    return render(request, "clublife/season.html", context, status=400 if form.errors else 200)


@login_required
@allowed_if(runs_club, club_by_slug)
def table_money_page(request, club: Club, slug: str, year: int):
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in game_keys():
        raise Http404()
    return render(request, "clublife/table_money.html", {
        "club": club, "year": year, "game": game, "game_name": game_name(game),
        "money": season_table_money(club, game, year)})


@login_required
@allowed_if(runs_club, club_by_slug)
def table_money_csv(request, club: Club, slug: str, year: int, kind: str):
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in game_keys():
        raise Http404()
    money = season_table_money(club, game, year)
    if kind == "evenings":
        return csv_download(season_evenings_csv(money), f"{club.slug}-{year}-{game}-evenings.csv")
    return csv_download(season_totals_csv(money), f"{club.slug}-{year}-{game}-totals.csv")
