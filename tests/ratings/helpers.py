"""Building rated events through the real services, and reading what the ratings stored."""

from __future__ import annotations

import datetime

from clubs.models import Player
from ratings.models import RatedResult, Rating, RatingEntry, SheetStat
from tests.clublife.helpers import score
from tests.factories import ParticipantFactory, TournamentFactory
from tournaments.models import Table
from tournaments.services import (
    Actor,
    deal_record,
    round_draw,
    sheet_end,
    sheet_submit,
    summary_record,
)

DAY0 = datetime.date(2026, 1, 1)


def day(n: int) -> datetime.date:
    return DAY0 + datetime.timedelta(days=7 * n)


def play_event(director, players: list[Player], *, date, scores=None, rounds=1, seed=1,
               submit=True, game="skat", published=True, club=None, entered=True):
    """A tournament of ``players`` with ``rounds`` rounds, every table entered as a Skat
    summary (``scores[player.pk]`` or a value derived from the seat) and submitted."""
    tournament = TournamentFactory(club=club, date=date, game=game, published=published,
                                   status="running")
    tournament.directors.add(director)
    for n, player in enumerate(players):
        ParticipantFactory(tournament=tournament, player=player, start_number=n + 1)
    for number in range(1, rounds + 1):
        rnd = round_draw(tournament_id=tournament.pk, method="random", seed=seed + number)
        for table in Table.objects.filter(round=rnd).order_by("number") if entered else ():
            enter(table, director, scores, submit=submit)
    return tournament


def enter(table: Table, director, scores=None, *, submit=True, bump=0):
    seats = list(table.seats.select_related("participant__player").order_by("seat"))
    values = [(scores or {}).get(s.participant.player_id, 60 + 17 * ((s.participant.player_id
                                                                        + bump) % 7))
              for s in seats]
    summary_record(table_id=table.pk, seats=[score(v) for v in values],
                   actor=Actor(user=director))
    if submit and not Table.objects.get(pk=table.pk).submitted:
        sheet_submit(table_id=table.pk, actor=Actor(user=director))


def stored(game: str = "skat"):
    """Everything the ratings stored for ``game``, comparable across runs."""
    return (
        list(RatedResult.objects.filter(game=game).order_by("key")
             .values_list("key", "table_id", "tournament_id", "standing")),
        list(RatingEntry.objects.filter(game=game).order_by("key", "player_id")
             .values_list("key", "player_id", "mu", "sigma", "sheets", "rating")),
        list(Rating.objects.filter(game=game).order_by("player_id")
             .values_list("player_id", "mu", "sigma", "sheets", "rating")),
        # a player's statistics (games.md §11) are rewritten with the history
        list(SheetStat.objects.filter(game=game).order_by("key", "player_id")
             .values_list("key", "player_id", "score", "placement", "expected_placement",
                          "deals", "by_role", "by_kind")),
    )


# at a table of four the dealer sits out: seat 1 of deal 1, seat 2 of deal 2
SUIT_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
GRAND_LOST = {"declarer": 3, "game": "grand", "matadors": 1, "won": False}


def dealt_event(boss, players, *, date, published=True, records=(SUIT_WON, GRAND_LOST)):
    """One Skat table of the four players; ``records`` entered and the sheet ended."""
    tournament = TournamentFactory(date=date, game="skat", published=published,
                                   status="running")
    tournament.directors.add(boss)
    for n, player in enumerate(players):
        ParticipantFactory(tournament=tournament, player=player, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    table = Table.objects.get(round=rnd)
    for number, record in enumerate(records, start=1):
        deal_record(table_id=table.pk, number=number, record=record, actor=Actor(user=boss))
    sheet_end(table_id=table.pk, reason="Zeit", actor=Actor(user=boss))
    return tournament, table


def seat_player(table, seat):
    return table.seats.get(seat=seat).participant.player_id
