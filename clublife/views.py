"""Club-life pages: the club with its evenings, a new club evening in a few taps, the
season ranking, table money for the treasurer, a player's history and the merge of a
duplicate, and a tournament's downloads. (The member import and the club's defaults are
``clublife.club_pages``'.)

Anyone sees a club, its season rankings, and the evenings and a player's history as far as
``visible_tournaments`` lets him (the published ones; those he directs); the club's
admins do the rest. Every change goes through a service, whose errors
are shown next to the form in the user's language; playing the evening happens in the
director's console (``console:tournament``).
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from archive.export import tournament_export
from archive.standings_file import standings_csv
from clublife.forms import EveningForm, MergeForm, SeasonRulesForm, TableMoneyForm
from clublife.models import SeasonRow, TableMoneyChange
from clublife.selectors import (
    merge_candidates,
    merge_summary,
    player_profile,
    returning_guests,
    season_find,
    season_pending,
)
from clublife.services.evenings import club_evening_create, tournament_table_money_update
from clublife.services.players import player_merge
from clublife.services.seasons import MAX_YEAR, MIN_YEAR, season_get_or_create, season_update
from clublife.table_money import (
    evening_table_money,
    season_evenings_csv,
    season_table_money,
    season_totals_csv,
)
from clubs.models import Club, Player
from clubs.policies import is_staff, may_change_player, runs_club, sees_full_names_in_club
from games.choices import game_choices, game_keys, game_name
from games.engines import get_engine
from tournaments.csv_files import csv_download, json_download
from tournaments.models import Tournament
from tournaments.pages.access import (
    allowed_if,
    club_by_slug,
    player_by_pk,
    tournament_by_pk,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.pages.panels import panels
from tournaments.policies import (
    can_see_tournament,
    directs,
    handles_data_of,
    sees_full_names,
    visible_tournaments,
)
from tournaments.score_changes import public_changes
from tournaments.templatetags.money import euros
from tournaments.text_checks import whole_number

# service field → form field, for showing a service's errors next to the right field
FIELD_OF = {"player_ids": "players"}
MONEY_FIELD_OF = {"loss_fee_cents": "loss_fee", "loss_fee_high_cents": "loss_fee_high"}


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


def player_page(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    profile = player_profile(player=player, viewer=request.user)
    if not profile["events"] and not is_staff(request.user):
        raise Http404()
    for game in profile["games"]:
        game["name"] = game_name(game["game"])
    for event in profile["events"]:  # the profile's ISO day, shown as the language writes it
        event["day"] = datetime.date.fromisoformat(event["date"]) if event["date"] else None
    # the changes to his scores after they were shown, in the tournaments the viewer sees
    changes = public_changes(player, visible_tournaments(request.user,
                                                         via="table__round__tournament__"))
    return render(request, "clublife/player.html", {
        "player": player, "profile": profile, "changes": changes,
        "panels": panels("player", request, player),
        "may_merge": may_change_player(request.user, player),
        "may_handle_data": handles_data_of(request.user, player),
        "publication_choices": Player.Publication.choices})


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(may_change_player, player_by_pk)
def player_merge_page(request, keep: Player, pk: int):
    """Merge a duplicate into ``keep`` in three steps: find the duplicate by name, read
    what moves, confirm (a merge cannot be undone)."""
    query = request.GET.get("q", "").strip()[:120]
    form = MergeForm(request.POST or None,
                     initial={"remove": request.GET.get("remove")} if request.method == "GET"
                     else None)
    remove = None
    raw = request.POST.get("remove") if request.method == "POST" else request.GET.get("remove")
    if whole_number(raw) is not None:
        remove = Player.objects.filter(pk=whole_number(raw)).exclude(pk=keep.pk).first()
    if remove is not None and not may_change_player(request.user, remove):
        form.add_error(None, _("You may only merge players you may change."))
        remove = None
    if request.method == "POST" and form.is_valid():
        if remove is None:
            form.add_error("remove", _("Unknown player."))
        else:
            done, _merged = run_on_form(
                form, lambda: player_merge(keep=keep, remove=remove, by=request.user),
                field_of=FIELD_OF)
            if done:
                messages.success(request, _("Merged: every result now belongs to %(name)s.")
                                 % {"name": keep.name})
                return redirect("clubs:player", keep.pk)
    return render(request, "clublife/merge.html", {
        "player": keep, "form": form, "query": query, "remove": remove,
        "candidates": (merge_candidates(keep=keep, query=query, viewer=request.user)
                       if remove is None else []),
        "summary": (merge_summary(keep=keep, remove=remove, viewer=request.user)
                    if remove else None),
    }, status=400 if form.errors else 200)


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
