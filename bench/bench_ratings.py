"""Ratings (games.md §10.1): the full recompute of a club with ten years of weekly
evenings against reading the same sheets, and the incremental update after one
evening's change with ten years of history against one year.

Usage (from the repository root, PostgreSQL running): ``.venv/bin/python -m
bench.bench_ratings [--players 24] [--years 10] [--rounds 2] [--repeat 5]``. Not collected
by pytest; the database is the bench database (``bench.common``; set ``DATABASE_URL`` to
a database of your own whose name contains "bench"), whose tournaments, players and
ratings are TRUNCATEd first.

Build: a Skat club of ``--players`` members plays a club evening every week for
``--years`` years (520 evenings for ten), ``--rounds`` rounds each, everyone at tables
of 4 with random sheet totals, every sheet submitted (a summary: the rating reads the
seats' scores, not the deals). Then the same for one year, in a fresh database state.

Measurements, interleaved with their baselines:

- *full*: ``ratings_recompute(full=True)`` (read every sheet, rate each table, write every
  result, history entry and rating) against the baseline of reading the same sheets in
  one SQL statement (every seat of the submitted tables: table, player, score, ordered
  as the ratings apply them); the reading through ``ratings.results`` is shown too.
- *incremental*: one seat at the first table of the last evening changes and its change
  is noted in the outbox (as the sheet's correction does), then ``ratings_recompute``
  re-rates from the first changed result on: the whole evening, its 12 results. Goal
  (issue 27): ≤ 50 ms, the same with ten years of history as with one. For scale, the
  same after a change of an evening one year back (52 evenings re-rated). The rating
  tables are vacuumed first (``settle``): the full recomputes leave dead rows whose
  autovacuum would otherwise run during these figures.
- the model: one table of 4 rated by openskill's Plackett–Luce and its other Weng–Lin
  models, against Python building the four rating objects (the baseline).
"""

from __future__ import annotations

import datetime
import random

from bench.common import bench_parser, machine, median, ms, ratio, setup_django, timed

SEED = 20261126
GAME = "skat"

SQL_SHEETS = """
SELECT tb.id, p.player_id, s.score
FROM tournaments_seat s
JOIN tournaments_table tb ON tb.id = s.table_id
JOIN tournaments_round r ON r.id = tb.round_id
JOIN tournaments_tournament t ON t.id = r.tournament_id
JOIN tournaments_participant p ON p.id = s.participant_id
WHERE t.game = 'skat' AND tb.submitted
ORDER BY t.date, r.number, tb.number, tb.id, s.seat
"""


def empty() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_tournament, clubs_player, clubs_club, "
                       "ratings_ratingstate, ratings_ratingoutbox RESTART IDENTITY CASCADE")


def build_club(name: str, years: int, players: int, rounds: int, rng: random.Random) -> int:
    """The club and its evenings; the number of sheets."""
    from clubs.models import Club, Player
    from tournaments.models import Participant, Round, Seat, Table, Tournament

    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    members = Player.objects.bulk_create(Player(name=f"{name} {n}", club=club)
                                         for n in range(players))
    end = datetime.date.today()
    evenings = [end - datetime.timedelta(weeks=w) for w in range(52 * years)][::-1]
    tournaments = Tournament.objects.bulk_create(
        Tournament(name=f"{name} {day}", slug=f"{club.slug}-{day}", game=GAME, club=club,
                   date=day, club_evening=True, status="finished", published=True)
        for day in evenings)
    participants = Participant.objects.bulk_create(
        Participant(tournament=t, player=m, start_number=i + 1, checked_in=True)
        for t in tournaments for i, m in enumerate(members))
    rounds_made = Round.objects.bulk_create(
        Round(tournament=t, number=n + 1, method="random", seed=n, closed=True)
        for t in tournaments for n in range(rounds))
    tables = Table.objects.bulk_create(
        (Table(round=r, number=n + 1, entry_token=f"{r.pk}-{n}", submitted=True, summary=[])
         for r in rounds_made for n in range(players // 4)), batch_size=5000)
    by_round: dict[int, list] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(table)
    seats = []
    for r_index, rnd in enumerate(rounds_made):
        t_index = r_index // rounds
        people = participants[t_index * players:(t_index + 1) * players]
        order = rng.sample(range(players), players)
        for n, table in enumerate(by_round[rnd.pk]):
            for seat in range(4):
                seats.append(Seat(table=table, seat=seat + 1,
                                  participant=people[order[4 * n + seat]],
                                  score=rng.randint(-300, 1200), figures={}))
    Seat.objects.bulk_create(seats, batch_size=5000)
    return len(tables)


def measure_full(repeat: int) -> dict[str, list[float]]:
    from django.db import connection

    from ratings.results import current_results
    from ratings.services import ratings_recompute

    def sql():
        with connection.cursor() as cursor:
            cursor.execute(SQL_SHEETS)
            return cursor.fetchall()

    ratings_recompute(game=GAME, full=True)  # warm-up
    out: dict[str, list[float]] = {"full": [], "read": [], "sql": []}
    for _ in range(repeat):
        out["full"].append(timed(ratings_recompute, game=GAME, full=True)[1])
        out["read"].append(timed(current_results, GAME)[1])
        out["sql"].append(timed(sql)[1])
    return out


def settle() -> None:
    """VACUUM ANALYZE the ratings' tables: the full recomputes before left ~150,000 dead
    rows, whose autovacuum would otherwise run during the incremental figures (a club's
    database between two evenings has been vacuumed long since)."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("ratings_ratingentry", "ratings_ratedresult", "ratings_rating",
                      "ratings_ratingoutbox", "ratings_sheetstat"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def measure_change(repeat: int, weeks_back: int, rng: random.Random) -> list[float]:
    """Change one seat at the first table of the evening ``weeks_back`` weeks before the
    last (round 1, table 1: every result of that evening and after it is re-rated, the
    same count with any length of history); re-rate."""
    from ratings.models import result_key
    from ratings.outbox import ratings_mark_changed
    from ratings.services import ratings_recompute
    from tournaments.models import Seat, Tournament

    day = (Tournament.objects.filter(game=GAME).order_by("-date")
           .values_list("date", flat=True)[weeks_back])
    seats = list(Seat.objects.filter(table__round__tournament__date=day, table__round__number=1,
                                     table__number=1).select_related("table__round"))
    times = []
    for _ in range(repeat):
        seat = rng.choice(seats)
        Seat.objects.filter(pk=seat.pk).update(score=rng.randint(-300, 1200))
        ratings_mark_changed(game=GAME, from_key=result_key(
            day, seat.table.round.number, seat.table.number, seat.table_id))
        state, seconds = timed(ratings_recompute, game=GAME)
        assert state.last_rerated > 0
        times.append(seconds)
    return times


def measure_models(repeat: int) -> dict[str, float]:
    from openskill.models import (
        BradleyTerryFull,
        PlackettLuce,
        ThurstoneMostellerFull,
    )

    rounds = 2000
    out = {}
    for model in (PlackettLuce(), ThurstoneMostellerFull(), BradleyTerryFull()):
        def rate(model=model):
            for _ in range(rounds):
                model.rate([[model.rating()] for _n in range(4)], ranks=[1, 2, 2, 4])
        out[type(model).__name__] = median(timed(rate)[1] for _ in range(repeat)) / rounds

    def build():
        model = PlackettLuce()
        for _ in range(rounds):
            [[model.rating()] for _n in range(4)]
    out["baseline"] = median(timed(build)[1] for _ in range(repeat)) / rounds
    return out


def main() -> None:
    parser = bench_parser(__doc__, players=24, years=10, rounds=2, repeat=5)
    args = parser.parse_args()
    setup_django()
    rng = random.Random(SEED)
    figures = {}
    for label, years in ((f"{args.years} years", args.years), ("1 year", 1)):
        empty()
        sheets = build_club(f"Bench Ratings {years}", years, args.players, args.rounds, rng)
        full = measure_full(args.repeat)
        settle()
        latest = measure_change(args.repeat, 0, rng)
        year_back = measure_change(args.repeat, min(51, 52 * years - 1), rng)
        figures[label] = (sheets, full, latest, year_back)
    empty()
    models = measure_models(args.repeat)
    print(f"machine: {machine()}")
    print(f"club: {args.players} players, weekly evenings of {args.rounds} round(s) at "
          f"tables of 4; medians of {args.repeat}")
    for label, (sheets, full, latest, year_back) in figures.items():
        f, r, s = median(full["full"]), median(full["read"]), median(full["sql"])
        print(f"{label:>9} ({sheets} sheets): full recompute {ms(f):>10}  reading through "
              f"ratings.results {ms(r):>9}  SQL read {ms(s):>9}  ratio full/SQL "
              f"{ratio(f, s):.1f}x")
        print(f"{'':>9}  after a change of the last evening {ms(median(latest)):>9}; "
              f"of an evening a year back {ms(median(year_back)):>9}")
    long_latest = median(figures[f"{args.years} years"][2])
    short_latest = median(figures["1 year"][2])
    print(f"incremental, {args.years} years against 1: {ratio(long_latest, short_latest):.2f}x")
    base = models.pop("baseline")
    for name, seconds in models.items():
        print(f"{name:>24}: {seconds * 1e6:7.1f} µs per table of 4 "
              f"(building the ratings: {base * 1e6:.1f} µs; ratio {ratio(seconds, base):.1f}x)")


if __name__ == "__main__":
    main()
