"""Tournaments with stored standings, built directly (a round, a table, seats with
their sheet totals), so the lists above the standings are tested without typing deals."""

import datetime

from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tournaments.models import Round, Seat, Table
from tournaments.recompute.standings_rows import standings_recompute


def played(club, players, scores, *, date=datetime.date(2026, 3, 1), game="skat",
           published=True, won=None):
    """A tournament of ``club`` where ``players`` (in order) scored ``scores`` in one
    round at one table; its standings stored. Returns (tournament, participants)."""
    tournament = TournamentFactory(club=club, date=date, game=game, published=published)
    participants = [ParticipantFactory(tournament=tournament, player=player,
                                       start_number=n + 1, club=player.club)
                    for n, player in enumerate(players)]
    rnd = Round.objects.create(tournament=tournament, number=1, method="random", seed=1,
                               closed=True)
    table = Table.objects.create(round=rnd, number=1, entry_token=f"t{tournament.pk}x",
                                 submitted=True)
    for n, (participant, score) in enumerate(zip(participants, scores, strict=True)):
        figures = {"won": (won or {}).get(n, 0), "lost": 0, "game_points": 0} \
            if game == "skat" else {}
        Seat.objects.create(table=table, seat=n + 1, participant=participant, score=score,
                            figures=figures)
    standings_recompute(tournament_id=tournament.pk, full=True)
    return tournament, participants


def players(club, n, prefix="Spieler"):
    return [PlayerFactory(club=club, name=f"{prefix} {i + 1}") for i in range(n)]
