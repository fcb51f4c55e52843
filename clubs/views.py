"""Club pages: the club with its evenings, a new club evening in a few taps, the season
ranking, table money for the treasurer, the member list import, the club's defaults, a
player's history and the merge of a duplicate, and a tournament's downloads.

Anyone sees a club, its published evenings, its season rankings and a player's published
history; the club's admins do the rest. Every change goes through a service, whose errors
are shown next to the form in the user's language; playing the evening happens in the
director's console (``console:tournament``).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from api.club_helpers import GAMES, may_change_player
from api.permissions import directs, is_staff, runs_club
from clubs.forms import (
    ClubSettingsForm,
    EveningForm,
    MembersForm,
    MergeForm,
    SeasonRulesForm,
)
from clubs.member_csv import FileProblem, decode
from clubs.models import Club, Player, SeasonRow
from clubs.services import MembersInvalid, members_import, members_preview
from games.choices import GAME_CHOICES
from games.engines import EngineUserError, get_engine
from games.messages import add_to_form
from tournaments.errors import StateConflict
from tournaments.models import Tournament
from tournaments.services.archive import standings_csv, tournament_export
from tournaments.services.club_evenings import club_defaults_update, club_evening_create
from tournaments.services.players import player_merge, player_profile
from tournaments.services.seasons import (
    MAX_YEAR,
    MIN_YEAR,
    season_find,
    season_get_or_create,
    season_pending,
    season_update,
)
from tournaments.services.table_money import (
    evening_table_money,
    season_evenings_csv,
    season_table_money,
    season_totals_csv,
)

GAME_NAMES = dict(GAME_CHOICES)
# service field → form field, for showing a service's errors next to the right field
FIELD_OF = {"player_ids": "players", "loss_fee_cents": "loss_fee",
            "loss_fee_high_cents": "loss_fee_high"}


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _run_club(request, slug: str) -> Club:
    club = _club(slug)
    if not runs_club(request.user, club):
        raise PermissionDenied(_("Only the club's admins may do this."))
    return club


def _year(year: int) -> int:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise Http404()
    return year


def _csv(text: str, filename: str) -> HttpResponse:
    return HttpResponse(text, content_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def club_list(request):
    clubs = Club.objects.annotate(n=Count("players")).order_by("name")[:500]
    return render(request, "clubs/list.html", {"clubs": clubs})


def club_page(request, slug: str):
    club = _club(slug)
    admin = runs_club(request.user, club)
    evenings = club.tournaments.filter(club_evening=True).annotate(
        n=Count("participants")).order_by("-date", "-id")
    if not admin:
        evenings = evenings.filter(published=True)
    seasons = sorted({(d.year, g) for d, g in evenings.exclude(date=None)
                      .values_list("date", "game")}, reverse=True)
    return render(request, "clubs/club.html", {
        "club": club, "admin": admin, "evenings": evenings[:100],
        "seasons": [(year, game, GAME_NAMES.get(game, game)) for year, game in seasons],
        "this_year": timezone.localdate().year,
        "fee": club.loss_fee_cents, "game_name": GAME_NAMES.get(club.default_game)})


@login_required
@require_http_methods(["GET", "POST"])
def evening_new(request, slug: str):
    club = _run_club(request, slug)
    members = club.players.order_by("name")
    initial = {"date": timezone.localdate(), "game": club.default_game}
    form = EveningForm(request.POST or None, initial=initial, members=members)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            evening = club_evening_create(
                club=club, date=data["date"], player_ids=[int(p) for p in data["players"]],
                guests=data["guests"], game=data["game"], director=request.user,
                method=data["method"])
        except EngineUserError as exc:
            add_to_form(form, exc, field_of=FIELD_OF)
        else:
            messages.success(request, _("The club evening is drawn: print the table cards or "
                                        "hand out the tablets."))
            return redirect("console:tournament", evening.pk)
    return render(request, "clubs/evening_new.html", {"club": club, "form": form},
                  status=400 if form.errors else 200)


def _season_context(request, club: Club, year: int, game: str) -> dict:
    season = season_find(club=club, game=game, year=year)
    rows = []
    if season is not None:
        rows = list(SeasonRow.objects.filter(season=season).select_related("player")
                    .order_by("position"))
    figures = get_engine(game).figures
    return {
        "club": club, "year": year, "game": game, "game_name": GAME_NAMES.get(game, game),
        "games": [(key, name) for key, name in GAME_CHOICES], "season": season,
        "rows": [{"row": r, "figures": [r.figures.get(f, "") for f in figures]} for r in rows],
        "figures": figures, "stale": bool(season_pending(season, club_id=club.pk, game=game,
                                                          year=year)),
        "admin": runs_club(request.user, club),
    }


@require_http_methods(["GET", "POST"])
def season_page(request, slug: str, year: int):
    club = _club(slug)
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in GAMES:
        raise Http404()
    context = _season_context(request, club, year, game)
    season = context["season"]
    initial = {"best_n": season.best_n if season else club.season_best_n,
               "min_evenings": season.min_evenings if season else club.season_min_evenings}
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
    return render(request, "clubs/season.html", context, status=400 if form.errors else 200)


@login_required
def table_money_page(request, slug: str, year: int):
    club = _run_club(request, slug)
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in GAMES:
        raise Http404()
    return render(request, "clubs/table_money.html", {
        "club": club, "year": year, "game": game, "game_name": GAME_NAMES.get(game, game),
        "money": season_table_money(club, game, year)})


@login_required
def table_money_csv(request, slug: str, year: int, kind: str):
    club = _run_club(request, slug)
    year = _year(year)
    game = request.GET.get("game") or club.default_game
    if game not in GAMES:
        raise Http404()
    money = season_table_money(club, game, year)
    if kind == "evenings":
        return _csv(season_evenings_csv(money), f"{club.slug}-{year}-{game}-evenings.csv")
    return _csv(season_totals_csv(money), f"{club.slug}-{year}-{game}-totals.csv")


@login_required
@require_http_methods(["GET", "POST"])
def members_page(request, slug: str):
    club = _run_club(request, slug)
    form = MembersForm(request.POST or None, request.FILES or None)
    context = {"club": club, "form": form, "lines": None, "text": ""}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("file")
        try:
            text = decode(upload.read()) if upload else form.cleaned_data["csv"]
            if request.POST.get("confirm"):
                created = members_import(club=club, text=text, created_by=request.user)
                messages.success(request, _("%(count)s members imported.")
                                 % {"count": len(created)})
                return redirect("clubs:club", club.slug)
            lines = members_preview(club=club, text=text)
            context.update(lines=lines, text=text,
                           valid=not any(line.errors for line in lines),
                           new=sum(line.status == "new" for line in lines))
        except FileProblem as exc:
            form.add_error(None, exc.render())
        except MembersInvalid as exc:
            form.add_error(None, _("Nothing was imported: some lines have errors."))
            context.update(lines=exc.lines, text=text, valid=False)
    return render(request, "clubs/members.html", context,
                  status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request, slug: str):
    club = _run_club(request, slug)
    form = ClubSettingsForm(request.POST or None, initial=ClubSettingsForm.initial_of(club))
    if request.method == "POST" and form.is_valid():
        try:
            club_defaults_update(club=club, **form.service_fields())
        except EngineUserError as exc:
            add_to_form(form, exc, field_of=FIELD_OF)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("clubs:club", club.slug)
    return render(request, "clubs/settings.html", {"club": club, "form": form},
                  status=400 if form.errors else 200)


def player_page(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    staff = is_staff(request.user)
    profile = player_profile(player=player, published_only=not staff)
    if not profile["events"] and not staff:
        raise Http404()
    for game in profile["games"]:
        game["name"] = GAME_NAMES.get(game["game"], game["game"])
    return render(request, "clubs/player.html", {
        "player": player, "profile": profile, "game_names": GAME_NAMES,
        "may_merge": may_change_player(request.user, player)})


@login_required
@require_http_methods(["GET", "POST"])
def player_merge_page(request, pk: int):
    keep = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    if not may_change_player(request.user, keep):
        raise PermissionDenied(_("You may only merge players you may change."))
    form = MergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        remove = Player.objects.filter(pk=form.cleaned_data["remove"]).first()
        if remove is None:
            form.add_error("remove", _("Unknown player."))
        elif not may_change_player(request.user, remove):
            form.add_error("remove", _("You may only merge players you may change."))
        else:
            try:
                player_merge(keep=keep, remove=remove, by=request.user)
            except EngineUserError as exc:
                add_to_form(form, exc, field_of=FIELD_OF)
            except StateConflict as exc:
                form.add_error(None, exc.render(_))
            else:
                messages.success(request, _("Merged: every result now belongs to %(name)s.")
                                 % {"name": keep.name})
                return redirect("clubs:player", keep.pk)
    namesakes = (Player.objects.filter(name__iexact=keep.name).exclude(pk=keep.pk)
                 .select_related("club")[:20])
    return render(request, "clubs/merge.html", {"player": keep, "form": form,
                                                "namesakes": namesakes},
                  status=400 if form.errors else 200)


def tournament_standings_csv(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.published and not directs(request.user, tournament):
        raise Http404()
    return _csv(standings_csv(tournament), f"{tournament.slug}-standings.csv")


@login_required
def tournament_archive(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not directs(request.user, tournament):
        raise PermissionDenied()
    body = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
    return HttpResponse(body, content_type="application/json; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{tournament.slug}.json"'})


@login_required
def tournament_table_money(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not directs(request.user, tournament):
        raise PermissionDenied()
    return render(request, "clubs/evening_money.html", {
        "tournament": tournament, "money": evening_table_money(tournament)})
