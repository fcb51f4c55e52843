"""A club's season ranking: recompute after one evening's change, for a club with ten
years of evenings against a club with one.

Usage (from the repository root, PostgreSQL running): ``.venv/bin/python -m
bench.bench_season [--players 24] [--years 10] [--repeat 7]``. Not collected by pytest;
the database is the standings bench's (``bench.common``), whose tournaments and players
are TRUNCATEd first.

Build: two Skat clubs; the first plays a club evening every week for ``--years`` years,
the second for one year; each evening seats ``--players`` members at tables of 4 in one
round. The seats get random sheet totals (score, won, lost, game points) as ``retotal``
stores them; the evenings need no deals, since the season reads the seats.

Measurement: one evening of the current year changes (one seat's totals), then
``season_recompute`` of that year's season is timed, for each club, interleaved with the
baseline: one SQL statement summing the season's seats per player. Issue 16 asks for
≤ 30 ms after one evening's change, whatever the club's history.
"""

from __future__ import annotations

import datetime
import random

from bench.common import bench_parser, machine, median, ms, ratio, setup_django, timed

SEED = 20261125
GAME = "skat"

SQL_SEASON = """
SELECT p.player_id, SUM(s.score), COUNT(DISTINCT t.id)
FROM tournaments_seat s
JOIN tournaments_table tb ON tb.id = s.table_id
JOIN tournaments_round r ON r.id = tb.round_id
JOIN tournaments_tournament t ON t.id = r.tournament_id
JOIN tournaments_participant p ON p.id = s.participant_id
WHERE t.club_id = %s AND t.club_evening AND t.game = 'skat'
  AND t.date >= %s AND t.date < %s
GROUP BY p.player_id
"""


def build_club(name: str, years: int, players: int, rng: random.Random):
    from clubs.models import Club, Player
    from tournaments.models import Participant, Round, Seat, Table, Tournament

    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    members = Player.objects.bulk_create(Player(name=f"{name} {n}", club=club)
                                         for n in range(players))
    this_year = datetime.date.today().year
    start = datetime.date(this_year - years + 1, 1, 5)
    evenings = [start + datetime.timedelta(weeks=w)
                for w in range(52 * years) if (start + datetime.timedelta(weeks=w)).year
                <= this_year]
    tournaments = Tournament.objects.bulk_create(
        Tournament(name=f"{name} {day}", slug=f"{club.slug}-{day}", game=GAME, club=club,
                   date=day, club_evening=True, status="finished") for day in evenings)
    participants = Participant.objects.bulk_create(
        Participant(tournament=t, player=m, start_number=i + 1, checked_in=True)
        for t in tournaments for i, m in enumerate(members))
    rounds = Round.objects.bulk_create(Round(tournament=t, number=1, method="random",
                                             seed=1, closed=True) for t in tournaments)
    tables = Table.objects.bulk_create(
        Table(round=r, number=n + 1, entry_token=f"{r.pk}-{n}", submitted=True)
        for r in rounds for n in range(players // 4))
    by_round: dict[int, list] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(table)
    seats = []
    for t_index, rnd in enumerate(rounds):
        people = participants[t_index * players:(t_index + 1) * players]
        for n, table in enumerate(by_round[rnd.pk]):
            for seat in range(4):
                won, lost = rng.randint(0, 6), rng.randint(0, 3)
                points = rng.randint(-300, 600)
                seats.append(Seat(table=table, seat=seat + 1, participant=people[4 * n + seat],
                                  score=points + 50 * (won - lost),
                                  figures={"game_points": points, "won": won, "lost": lost}))
    Seat.objects.bulk_create(seats, batch_size=5000)
    return club, len(tournaments)


def measure(club, repeat: int, rng: random.Random) -> dict[str, list[float]]:
    from django.db import connection

    from clublife.services.season_rows import season_recompute
    from clublife.services.seasons import season_get_or_create
    from tournaments.models import Seat

    year = datetime.date.today().year
    season = season_get_or_create(club=club, game=GAME, year=year)
    season_recompute(season_id=season.pk)  # warm-up
    seats = list(Seat.objects.filter(table__round__tournament__club=club,
                                     table__round__tournament__date__year=year)
                 .values_list("pk", flat=True))
    bounds = (club.pk, datetime.date(year, 1, 1), datetime.date(year + 1, 1, 1))
    recompute, baseline = [], []
    for _ in range(repeat):
        Seat.objects.filter(pk=rng.choice(seats)).update(score=rng.randint(-300, 900))
        recompute.append(timed(season_recompute, season_id=season.pk)[1])

        def sql():
            with connection.cursor() as cursor:
                cursor.execute(SQL_SEASON, bounds)
                return cursor.fetchall()
        baseline.append(timed(sql)[1])
    return {"recompute": recompute, "sql": baseline}


def main() -> None:
    parser = bench_parser(__doc__, players=24, years=10, repeat=7)
    args = parser.parse_args()
    setup_django()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_tournament, clubs_player, clubs_season "
                       "RESTART IDENTITY CASCADE")
    from clubs.models import Club

    Club.objects.filter(slug__startswith="bench-season").delete()
    rng = random.Random(SEED)
    long_club, long_evenings = build_club("Bench Season Long", args.years, args.players, rng)
    short_club, short_evenings = build_club("Bench Season Short", 1, args.players, rng)
    figures = {name: measure(club, args.repeat, rng)
               for name, club in (("long", long_club), ("short", short_club))}
    print(f"machine: {machine()}")
    print(f"clubs: {args.players} players; {long_evenings} evenings over {args.years} years, "
          f"and {short_evenings} evenings over one year")
    for name, label in (("long", f"{args.years} years"), ("short", "one year")):
        rec, sql = median(figures[name]["recompute"]), median(figures[name]["sql"])
        print(f"{label:>9}: season_recompute {ms(rec):>9}   SQL season sum {ms(sql):>9}   "
              f"ratio {ratio(rec, sql):.1f}x")
    long_rec = median(figures["long"]["recompute"])
    short_rec = median(figures["short"]["recompute"])
    print(f"ten years against one: {ratio(long_rec, short_rec):.2f}x")


if __name__ == "__main__":
    main()
