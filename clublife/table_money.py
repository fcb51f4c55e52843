"""Table money (*Verlustspielgeld*): what each player owes the club's kitty per evening.

Terms: a *lost game* is a declarer game the player lost (``Seat.figures["lost"]``, summed
over all his seats of the tournament, every round). The *fee schedule* is a fee per lost
game in cents (``base``) and, optionally, a higher fee (``high``) from the ``from_n``-th
lost game of the evening on: with 50 ct, 1 € from the 4th loss, six lost games cost
3 × 50 + 3 × 100 = 450 ct. A tournament uses the club's schedule unless it sets its own
``loss_fee_cents`` (then its three fields replace the club's); a club evening gets the
club's schedule copied in when it is created, so later changes of the club's fee leave
the evenings already played alone; the director may correct a tournament's schedule
afterwards (``clublife.services.evenings.tournament_table_money_update``, kept in
``TableMoneyChange``). Games whose engine counts no lost games (no ``lost`` figure) owe
nothing.

This module is the one computation of table money: the tournament's Verlustspielgeld
page, its cash report and the season's cash report (``clublife.cash``) and the API all
read ``evening_table_money``/``season_table_money``, so they agree to the cent.

Amounts are whole cents. The CSV exports for the treasurer are semicolon-separated
UTF-8 (with a byte-order mark for spreadsheet programs), amounts in euros with the
decimal separator of the active language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from clubs.models import Club
from games.engines import get_engine
from tournaments.csv_files import write_csv
from tournaments.models import Seat, Tournament
from tournaments.templatetags.money import euros


@dataclass(frozen=True)
class FeeSchedule:
    base: int = 0
    from_n: int | None = None
    high: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"loss_fee_cents": self.base, "loss_fee_from": self.from_n,
                "loss_fee_high_cents": self.high}


def fee_for_losses(lost: int, schedule: FeeSchedule) -> int:
    """Cents owed for ``lost`` lost games of one evening."""
    lost = max(lost, 0)
    if schedule.from_n is None or lost < schedule.from_n:
        return lost * schedule.base
    low = max(schedule.from_n, 1) - 1
    return low * schedule.base + (lost - low) * schedule.high


def fee_schedule(tournament: Tournament) -> FeeSchedule:
    if tournament.loss_fee_cents is not None:
        return FeeSchedule(tournament.loss_fee_cents, tournament.loss_fee_from,
                           tournament.loss_fee_high_cents or 0)
    club = tournament.club
    if club is None:
        return FeeSchedule()
    return FeeSchedule(club.loss_fee_cents, club.loss_fee_from, club.loss_fee_high_cents)


def counts_losses(game: str) -> bool:
    return "lost" in get_engine(game).figures


def _losses(tournaments) -> dict[tuple[int, int], dict[str, Any]]:
    """(tournament id, player id) → lost games and the player's name and member number."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    seats = (Seat.objects.filter(table__round__tournament__in=tournaments)
             .values_list("table__round__tournament_id", "participant__player_id",
                          "participant__player__name", "participant__player__member_number",
                          "figures"))
    for tid, pid, name, number, figures in seats:
        row = out.setdefault((tid, pid), {"player": pid, "name": name, "member_number": number,
                                          "lost": 0})
        lost = figures.get("lost", 0) if isinstance(figures, dict) else 0
        row["lost"] += lost if isinstance(lost, int) else 0
    return out


def _evening(tournament: Tournament, losses: dict[tuple[int, int], dict[str, Any]]) -> dict:
    schedule = fee_schedule(tournament)
    rows = sorted((dict(row) for (tid, _pid), row in losses.items() if tid == tournament.pk),
                  key=lambda r: (r["name"].casefold(), r["player"]))
    applies = counts_losses(tournament.game)
    for row in rows:
        row["amount_cents"] = fee_for_losses(row["lost"], schedule) if applies else 0
    return {"tournament": tournament.pk, "name": tournament.name,
            "date": tournament.date.isoformat() if tournament.date else None,
            "game": tournament.game, **schedule.as_dict(), "players": rows,
            "lost": sum(r["lost"] for r in rows),
            "total_cents": sum(r["amount_cents"] for r in rows)}


def evening_table_money(tournament: Tournament) -> dict[str, Any]:
    """Per player: lost games and the amount owed; and the evening's total."""
    return _evening(tournament, _losses(Tournament.objects.filter(pk=tournament.pk)))


def season_evenings(club: Club, game: str, year: int):
    """The tournaments whose table money a season collects: every tournament of the club
    in that game and year (its club evenings and its other tournaments alike), as the
    season's cash report counts them."""
    return (Tournament.objects.filter(club=club, game=game, date__year=year)
            .select_related("club").order_by("date", "id"))


def season_table_money(club: Club, game: str, year: int) -> dict[str, Any]:
    """Every evening of the season as ``evening_table_money`` does, and per player the
    season's totals (evenings played, lost games, amount), and the season's total."""
    evenings = list(season_evenings(club, game, year))
    losses = _losses(Tournament.objects.filter(pk__in=[t.pk for t in evenings]))
    per_evening = [_evening(t, losses) for t in evenings]
    players: dict[int, dict[str, Any]] = {}
    for evening in per_evening:
        for row in evening["players"]:
            total = players.setdefault(row["player"], {
                "player": row["player"], "name": row["name"],
                "member_number": row["member_number"], "evenings": 0, "lost": 0,
                "amount_cents": 0})
            total["evenings"] += 1
            total["lost"] += row["lost"]
            total["amount_cents"] += row["amount_cents"]
    return {"club": club.pk, "game": game, "year": year, "evenings": per_evening,
            "players": sorted(players.values(), key=lambda r: (r["name"].casefold(),
                                                                r["player"])),
            "total_cents": sum(e["total_cents"] for e in per_evening)}


# ---------------------------------------------------------------- CSV


def season_evenings_csv(money: dict[str, Any]) -> str:
    """One line per player per evening: date, evening, name, member number, lost games,
    amount."""
    header = [gettext("Date"), gettext("Evening"), gettext("Name"), gettext("Member number"),
              gettext("Lost games"), gettext("Amount (€)")]
    rows = [[e["date"] or "", e["name"], r["name"], r["member_number"], r["lost"],
             euros(r["amount_cents"])]
            for e in money["evenings"] for r in e["players"]]
    return write_csv(header, rows)


def season_totals_csv(money: dict[str, Any]) -> str:
    """One line per player with the season's totals, and a last line with the sum."""
    header = [gettext("Name"), gettext("Member number"), gettext("Evenings"),
              gettext("Lost games"), gettext("Amount (€)")]
    rows = [[r["name"], r["member_number"], r["evenings"], r["lost"], euros(r["amount_cents"])]
            for r in money["players"]]
    rows.append([gettext("Total"), "", len(money["evenings"]),
                 sum(r["lost"] for r in money["players"]), euros(money["total_cents"])])
    return write_csv(header, rows)
