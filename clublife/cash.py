"""The cash report of a tournament (*Kassenbericht*, games.md §6): entry fees and table
money in, prizes out, the balance; and the same for a club's season.

The figures come from the tournament's fee history and participants, the table money of
a club evening (``clublife.table_money``) and the payout list
(``prizes.selectors.prize_answer``); ``prizes.cash`` does the sums.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from clublife.table_money import evening_table_money
from clubs.models import Club
from prizes.cash import (
    cash_report,
    season_cash,
    season_csv_rows,
    tournament_csv_rows,
)
from prizes.selectors import fee_basis, prize_answer
from tournaments.csv_files import write_csv
from tournaments.models import Tournament


def _table_money(tournament: Tournament, participants: list[dict[str, Any]]) -> list[dict]:
    """The table money rows: exactly ``evening_table_money``'s amounts, for every
    tournament (a club evening or not), so the Verlustspielgeld page and both cash
    reports show the same cents."""
    by_player = {person["player"]: person for person in participants}
    return [{"participant": by_player[row["player"]]["participant"], "name": row["name"],
             "start_number": by_player[row["player"]]["start_number"],
             "amount_cents": row["amount_cents"]}
            for row in evening_table_money(tournament)["players"]]


def tournament_cash(tournament: Tournament) -> dict[str, Any]:
    """``{"fees_cents", "table_money_cents", "prizes_cents", "balance_cents",
    "fee_changes", "rows"}`` (see ``prizes.cash.cash_report``)."""
    basis = fee_basis(tournament)
    prizes = prize_answer(tournament, basis, full=True)  # the club's cash book (staff)
    return cash_report(participants=basis.participants if basis.events else [],
                       fee_events=basis.events, first_round_at=basis.first_round_at,
                       table_money=_table_money(tournament, basis.participants),
                       prizes=_paid_out(prizes), date=tournament.date)


def _paid_out(prizes: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The overall payouts and every category's (games.md §10.3): all leave the till."""
    if not prizes:
        return []
    return [*prizes["payouts"],
            *(p for category in prizes.get("category_payouts", []) for p in category["payouts"])]


def tournament_cash_csv(report: dict[str, Any]) -> str:
    header, *rows = tournament_csv_rows(report, gettext)
    return write_csv(header, rows)


def season_cash_of(club: Club, year: int) -> dict[str, Any]:
    tournaments = club.tournaments.filter(date__year=year).order_by("date", "pk")
    return season_cash({"tournament": t.pk, "name": t.name, "date": t.date,
                        "report": tournament_cash(t)} for t in tournaments)


def season_cash_csv(season: dict[str, Any]) -> str:
    header, *rows = season_csv_rows(season, gettext)
    return write_csv(header, rows)
