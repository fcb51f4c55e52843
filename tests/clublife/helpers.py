"""Building club evenings through the services, with Skat summaries per player."""

import datetime

from clublife.services.evenings import club_evening_create
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, round_draw, sheet_submit, summary_record


def enter_round(rnd, director, figures_of, *, submit=True):
    """Enter every table of a round as a Skat summary: ``figures_of(player)`` gives the
    player's ``{"game_points", "won", "lost"}``."""
    for table in Table.objects.filter(round=rnd).order_by("number"):
        seats = [figures_of(seat.participant.player)
                 for seat in table.seats.select_related("participant__player").order_by("seat")]
        summary_record(table_id=table.pk, seats=seats, actor=Actor(user=director))
        if submit:
            sheet_submit(table_id=table.pk, actor=Actor(user=director))


def score(value):
    """A player's summary with one won game scoring ``value`` (Seeger-Fabian: value − 50
    game points + 50 for the won game, no lost games at the table)."""
    return {"game_points": value - 50, "won": 1, "lost": 0}


def play_evening(club, director, date, scores, guests=None, *, seed=1):
    """A club evening of one round: ``scores`` maps players, ``guests`` guest names, to
    their evening's score; the evening's standings are recomputed (and with them the
    season marked stale)."""
    guests = guests or {}
    evening = club_evening_create(club=club, date=date, player_ids=[p.pk for p in scores],
                                  guests=list(guests), director=director)
    rnd = round_draw(tournament_id=evening.pk, method="random", seed=seed)
    by_id = {p.pk: v for p, v in scores.items()}

    def figures(player):
        value = by_id.get(player.pk)
        return score(value if value is not None else guests[player.name])

    enter_round(rnd, director, figures)
    standings_recompute(tournament_id=evening.pk)
    return evening


def day(n):
    return datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * n)
