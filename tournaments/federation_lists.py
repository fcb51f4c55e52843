"""The standings as federations publish them (api.md "Open results"): ``players`` (place,
start number, name, club, each round's score, total; Skat also won and lost games),
``clubs`` (the club ranking, games.md §10.4) and ``teams`` (games.md §6), each a title, a
header and rows; handed out as CSV (``tournaments.csv_files``: UTF-8 with BOM,
``;``-separated) or as a PDF of one page per 30 rows (``tournaments.pdf_lists``).

Names as their players chose (``clubs.publication``) unless ``full`` (the caller's
``sees_full_names``). Read from the stored standings: a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engines import get_engine
from tournaments.models import Tournament
from tournaments.selectors import (
    club_results,
    clubs_at_registration,
    named_standings,
    team_results,
)

KINDS = ("players", "clubs", "teams")


@dataclass(frozen=True)
class FederationList:
    title: str
    header: list[str]
    rows: list[list[Any]]
    widths: list[float]  # each column's share of the line (the PDF's layout)


def _players(tournament: Tournament, full: bool) -> FederationList:
    rows = named_standings(tournament, full=full)
    clubs, club_names = clubs_at_registration(tournament)
    rounds = sorted({r["round"] for row in rows for r in row["rounds"]})
    skat = {"won", "lost"} <= set(get_engine(tournament.game).figures)
    header = [_("Place"), _("Start number"), _("Name"), _("Club"),
              *[_("Round %(number)s") % {"number": n} for n in rounds], _("Total"),
              *([_("Won"), _("Lost")] if skat else [])]
    out = []
    for row in rows:
        per_round = {r["round"]: r["score"] for r in row["rounds"]}
        club = clubs.get(row["participant"])
        out.append([row["rank"], row["start_number"], row["name"],
                    club_names.get(club, "") if club else "",
                    *[per_round.get(n, "") for n in rounds], row["score"],
                    *([row["won"], row["lost"]] if skat else [])])
    numbers = len(header) - 4  # each round, the total, won and lost
    widths = [0.06, 0.1, 0.24, 0.2, *[0.4 / numbers] * numbers]
    return FederationList(_("Players"), header, out, widths)


def _clubs(tournament: Tournament, full: bool) -> FederationList:
    header = [_("Place"), _("Club"), _("Total"), _("Players counted")]
    rows = [[row["rank"] if row["rank"] is not None else "", row["name"], row["score"],
             ", ".join(p["name"] for p in row["players"])]
            for row in club_results(tournament, full=full)]
    return FederationList(_("Clubs"), header, rows, [0.08, 0.3, 0.1, 0.52])


def _teams(tournament: Tournament, full: bool) -> FederationList:
    header = [_("Place"), pgettext("tournament team", "Team"), _("Total"), _("Members")]
    rows = [[row["rank"], row["name"], row["score"],
             ", ".join(m["name"] for m in row["members"])]
            for row in team_results(tournament, full=full)]
    return FederationList(_("Teams"), header, rows, [0.07, 0.23, 0.08, 0.62])


def federation_list(tournament: Tournament, kind: str, *, full: bool = False) -> FederationList:
    """The list ``kind`` (one of ``KINDS``) of the tournament's current standings."""
    return {"players": _players, "clubs": _clubs, "teams": _teams}[kind](tournament, full)
