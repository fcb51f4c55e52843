"""Building club evenings through the services, with Skat summaries per player."""

import datetime

from django.utils import timezone

from clublife.services.evenings import club_evening_create
from clublife.services.season_rows import season_recompute
from clublife.services.seasons import season_get_or_create
from clubs.models import Player
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, TournamentFactory
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


def history_world(club, director, *, evenings=3):
    """A member's history for the phone: ``evenings`` published club evenings of ``club``
    (weekly from ``day(0)``; on the first the member wins with 100, later he scores
    40 + n among 8 players), the club's season of that year recomputed, an evening of
    another club he played too, and the event his personal token belongs to: an
    unpublished one of ``club``, running today. Returns ``(member, token participant,
    evenings newest first, the other club's evening)``."""
    members = list(Player.objects.filter(club=club).order_by("pk")[:8])
    members += [PlayerFactory(club=club) for _n in range(8 - len(members))]
    member, others = members[0], members[1:]
    played = []
    for n in range(evenings):
        scores = {p: 50 + 7 * i for i, p in enumerate(others)}
        scores[member] = 100 if n == 0 else 40 + n
        played.append(play_evening(club, director, day(n), scores, seed=n + 1))
    season_recompute(season_id=season_get_or_create(club=club, game=club.default_game,
                                                    year=day(0).year).pk)
    elsewhere = ClubFactory()
    strangers = [PlayerFactory(club=elsewhere) for _n in range(7)]
    foreign = play_evening(elsewhere, director, day(evenings),
                           {member: 90, **{p: 60 + i for i, p in enumerate(strangers)}})
    today = TournamentFactory(club=club, date=timezone.localdate(), published=False,
                              status="running")
    token_of = ParticipantFactory(tournament=today, player=member)
    return member, token_of, played[::-1], foreign
