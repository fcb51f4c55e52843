"""The cash report pages: a tournament's (its directors) and a club's season (its
admins), each with its CSV for the club's accounts."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _

from clublife.cash import season_cash_csv, season_cash_of, tournament_cash, tournament_cash_csv
from clublife.services.seasons import MAX_YEAR, MIN_YEAR
from clubs.models import Club
from clubs.policies import runs_club
from tournaments.models import Tournament
from tournaments.pages.access import allowed_if, club_by_slug, tournament_by_pk
from tournaments.policies import directs
from tournaments.prizes.cash import KINDS

SUMS = ("fees_cents", "table_money_cents", "prizes_cents", "balance_cents")


def _euros(cents: int) -> str:
    return formats.number_format(Decimal(cents) / 100, decimal_pos=2, use_l10n=True,
                                 force_grouping=True)


def _csv(text: str, filename: str) -> HttpResponse:
    return HttpResponse(text, content_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@login_required
@allowed_if(directs, tournament_by_pk)
def tournament_cash_page(request, tournament: Tournament, pk: int):
    report = tournament_cash(tournament)
    rows = [{**row, "kind_label": _(KINDS[row["kind"]]),
             "in": _euros(row["amount_cents"]) if row["amount_cents"] >= 0 else "",
             "out": _euros(-row["amount_cents"]) if row["amount_cents"] < 0 else ""}
            for row in report["rows"]]
    changes = [{**c, "from": _euros(c["from_cents"]), "to": _euros(c["to_cents"])}
               for c in report["fee_changes"]]
    return render(request, "clublife/cash.html", {
        "tournament": tournament, "rows": rows, "changes": changes,
        "sums": {name: _euros(report[name]) for name in SUMS}})


@login_required
@allowed_if(directs, tournament_by_pk)
def tournament_cash_csv_file(request, tournament: Tournament, pk: int):
    return _csv(tournament_cash_csv(tournament_cash(tournament)), f"{tournament.slug}-kasse.csv")


def _season(club: Club, year: int) -> dict:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise Http404()
    return season_cash_of(club, year)


@login_required
@allowed_if(runs_club, club_by_slug)
def season_cash_page(request, club: Club, slug: str, year: int):
    season = _season(club, year)
    rows = [{**row, **{name: _euros(row[name]) for name in SUMS}} for row in season["rows"]]
    return render(request, "clublife/season_cash.html", {
        "club": club, "year": year, "rows": rows,
        "sums": {name: _euros(season[name]) for name in SUMS}})


@login_required
@allowed_if(runs_club, club_by_slug)
def season_cash_csv_file(request, club: Club, slug: str, year: int):
    return _csv(season_cash_csv(_season(club, year)), f"{club.slug}-{year}-kasse.csv")
