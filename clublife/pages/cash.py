"""The cash report pages: a tournament's (its directors) and a club's season (its
admins), each with its CSV for the club's accounts."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from clublife.cash import season_cash_csv, season_cash_of, tournament_cash, tournament_cash_csv
from clublife.services.seasons import MAX_YEAR, MIN_YEAR
from clubs.models import Club
from clubs.policies import runs_club
from prizes.cash import KINDS
from tournaments.csv_files import csv_download
from tournaments.models import Tournament
from tournaments.pages.access import allowed_if, club_by_slug, tournament_by_pk
from tournaments.policies import directs


@login_required
@allowed_if(directs, tournament_by_pk)
def tournament_cash_page(request, tournament: Tournament, pk: int):
    report = tournament_cash(tournament)
    rows = [{**row, "kind_label": _(KINDS[row["kind"]]),
             "in_cents": row["amount_cents"] if row["amount_cents"] >= 0 else None,
             "out_cents": -row["amount_cents"] if row["amount_cents"] < 0 else None}
            for row in report["rows"]]
    return render(request, "clublife/cash.html", {
        "tournament": tournament, "report": report, "rows": rows})


@login_required
@allowed_if(directs, tournament_by_pk)
def tournament_cash_csv_file(request, tournament: Tournament, pk: int):
    return csv_download(tournament_cash_csv(tournament_cash(tournament)),
                        f"{tournament.slug}-kasse.csv")


def _season(club: Club, year: int) -> dict:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise Http404()
    return season_cash_of(club, year)


@login_required
@allowed_if(runs_club, club_by_slug)
def season_cash_page(request, club: Club, slug: str, year: int):
    return render(request, "clublife/season_cash.html", {
        "club": club, "year": year, "season": _season(club, year)})


@login_required
@allowed_if(runs_club, club_by_slug)
def season_cash_csv_file(request, club: Club, slug: str, year: int):
    return csv_download(season_cash_csv(_season(club, year)), f"{club.slug}-{year}-kasse.csv")
