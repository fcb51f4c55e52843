"""A tournament's standings as a CSV file for spreadsheet programs."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from clubs.publication import shown_player
from games.engines import get_engine
from games.presentation import presentation_of
from tournaments.csv_files import write_csv
from tournaments.models import (
    Tournament,
)
from tournaments.recompute.standings_rows import compute_standings
from tournaments.standings import rank


def standings_csv(tournament: Tournament, *, full: bool = False,
                  category: str | None = None) -> str:
    """The tournament's current standings: rank, start number, name, club, (the team,
    when the tournament has teams), score, the game's figures and one column per
    round. Names as their players chose (``clubs.publication``) unless ``full`` (the
    caller's ``sees_full_names``). With ``category`` (one of the tournament's), only its
    members, with their own ranks (games.md §10.3)."""
    engine = get_engine(tournament.game)
    rows = compute_standings(tournament)
    people = {p.pk: p for p in tournament.participants.select_related("player__club", "team")}
    if category is not None:
        rows = rank([row for row in rows if category in (people[row["participant"]].categories
                                                         or [])], engine.rank_key)
    teams = any(p.team_id for p in people.values())
    rounds = sorted({r["round"] for row in rows for r in row["rounds"]})
    figure_names = presentation_of(tournament.game).figure_labels
    header = [gettext("Rank"), gettext("Start number"), gettext("Name"), gettext("Club"),
              *([pgettext("tournament team", "Team")] if teams else []), gettext("Score"),
              *[str(figure_names.get(f, f)) for f in engine.figures],
              *[gettext("Round %(number)s") % {"number": n} for n in rounds]]
    out = []
    for row in rows:
        p = people[row["participant"]]
        per_round = {r["round"]: r["score"] for r in row["rounds"]}
        out.append([row["rank"], p.start_number,
                    shown_player(p.player, p.start_number, full=full),
                    p.club_label,
                    *([p.team.name if p.team_id else ""] if teams else []), row["score"],
                    *[row[f] for f in engine.figures], *[per_round.get(n, "") for n in rounds]])
    return write_csv(header, out)
