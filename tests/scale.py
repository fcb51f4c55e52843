"""Tournaments and club evenings of a chosen size, and the number of SQL queries a GET
costs, for the tests that assert a page or list costs the same at any size.

A *size* is the number of tables per round and the number of rounds; every table gets
``deals`` entered deals (passed Skat games, through the real service), earlier rounds
are submitted and closed, and the standings are computed.
"""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, deal_record, round_close, round_draw


def skat_tournament(*, club, director, tables: int, rounds: int = 1, deals: int = 1):
    """A published Skat tournament of ``tables`` tables of four in each of ``rounds``
    rounds, the last one open."""
    tournament = TournamentFactory(club=club)
    tournament.directors.add(director)
    for n in range(4 * tables):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    for number in range(1, rounds + 1):
        rnd = round_draw(tournament_id=tournament.pk, method="random", seed=number)
        for table in Table.objects.filter(round=rnd):
            for deal in range(1, deals + 1):
                deal_record(table_id=table.pk, number=deal, record={"passed": True},
                            actor=Actor(user=director))
        assert Table.objects.filter(round=rnd).count() == tables
        if number < rounds:
            # a finished round; its sheets need not be complete for reading them
            Table.objects.filter(round=rnd).update(submitted=True)
            round_close(round_id=rnd.pk)
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def cache_emptied() -> None:
    """Empty this test process's part of the cache: its own key prefix on a shared Redis
    (a flush would empty the other xdist workers' versions and counters mid-test), all of
    the local-memory cache."""
    from django.core.cache import caches
    from django_redis.cache import RedisCache

    backend = caches["default"]
    if isinstance(backend, RedisCache):
        backend.delete_pattern("*")  # within the process's own key prefix
    else:
        backend.clear()


def queries_of(client, url: str, *, expect: int = 200, **headers) -> int:
    """The number of SQL queries one GET of ``url`` runs (after one warm-up GET, so
    per-process caches such as content types do not count, and with the cache emptied,
    so the answer is built rather than served from it)."""
    client.get(url, **headers)
    cache_emptied()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == expect, (url, response.status_code)
    return len(captured.captured_queries)


def club_evenings(*, club, director, evenings: int, players: int, start: int = 0):
    """``evenings`` published club evenings of the club's game with the same ``players``
    members (one round each, entered as summaries and submitted), and the season of
    their year recomputed. Returns the members."""
    from clublife.services.season_rows import season_recompute
    from clublife.services.seasons import season_get_or_create
    from clubs.models import Player
    from tests.clublife.helpers import day, play_evening

    members = list(Player.objects.filter(club=club).order_by("pk")[:players])
    members += [PlayerFactory(club=club) for _n in range(players - len(members))]
    for n in range(start, start + evenings):
        play_evening(club, director, day(n), {p: 40 + 7 * i for i, p in enumerate(members)},
                     seed=n + 1)
    season = season_get_or_create(club=club, game=club.default_game, year=day(0).year)
    season_recompute(season_id=season.pk)
    return members


def two_sizes(*, club, director, **size):
    """The same tournament at 2 and at 24 tables."""
    return (skat_tournament(club=club, director=director, tables=2, **size),
            skat_tournament(club=club, director=director, tables=24, **size))


def costs(client, url_of, worlds) -> set[int]:
    """The query counts of ``url_of(world)`` for each world: one element when they agree."""
    return {queries_of(client, url_of(world)) for world in worlds}


def cost_while_growing(client, url: str, grow) -> set[int]:
    """The query counts of ``url`` before and after ``grow()`` added data."""
    before = queries_of(client, url)
    grow()
    return {before, queries_of(client, url)}



def cost_from_1_to_5_evenings(client, url_of, *, club, director, players: int = 24) -> set[int]:
    """The query counts of ``url_of(members)`` after one club evening of 8 members and
    after four more with ``players`` members."""
    members = club_evenings(club=club, director=director, evenings=1, players=8)
    return cost_while_growing(client, url_of(members), lambda: club_evenings(
        club=club, director=director, evenings=4, players=players, start=1))


def stored_field(*, club, players: int, rounds: int = 4):
    """A published Skat tournament of ``players`` participants with stored standings of
    ``rounds`` rounds, written in bulk (no draw, no deal): what the board of a
    championship shows, built in a second."""
    import orjson
    from django.utils import timezone

    from clubs.models import Player
    from tournaments.models import Participant, StandingsPage, StandingsState

    tournament = TournamentFactory(club=club)
    people = Player.objects.bulk_create(
        Player(club=club, name=f"Spielerin Nummer {n} Langname") for n in range(players))
    field = Participant.objects.bulk_create(
        Participant(tournament=tournament, player=p, start_number=n + 1, checked_in=True)
        for n, p in enumerate(people))
    pages: dict[tuple[int, int], list] = {}
    for n, participant in enumerate(field):
        row = {"participant": participant.pk, "score": 3000 - n, "game_points": 900 - n % 900,
               "won": 40 - n % 40, "lost": n % 9,
               "rounds": [{"round": r, "score": 750 - n % 700} for r in range(1, rounds + 1)]}
        for number in range(rounds + 1):
            pages.setdefault((number, participant.pk // StandingsPage.PAGE_SIZE), []).append(row)
    StandingsPage.objects.bulk_create(
        StandingsPage(tournament=tournament, round_number=number, page=page,
                      rows=orjson.dumps(rows).decode())
        for (number, page), rows in pages.items())
    StandingsState.objects.create(tournament=tournament, computed_at=timezone.now())
    return tournament, field
