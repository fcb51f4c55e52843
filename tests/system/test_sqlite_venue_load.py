"""A club evening on the embedded database: the real ``python -m config.venue`` (one
gunicorn process with threads, as ``make venue`` runs it) on a SQLite file, and 50 writers
at once of every kind a club evening has — sign-ups, deals at 20 tables, the players'
confirmations of their sheets, calls for the director.

Before SQLite was set up for concurrent writers (``config.env.SQLITE_OPTIONS``: WAL, a
write lock taken when a transaction begins, a busy timeout), 20 phones signing up at once
got 500s ("database is locked"). Now every answer is a success and every write is stored
exactly once.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from tests.system.conftest import free_port
from tests.system.servers import SECRET, Server, base_env, run

TABLES = 20
SIGN_UPS = 20
CALLERS = 10
PASSED = {"passed": True}  # a deal at a 4-table, whose dealer sits out
DEALS = 4

# the evening as the director leaves it before the doors open: a tournament open for
# sign-ups, and a tournament of 80 checked-in players whose first round is drawn at 20
# tables of four (4 deals a sheet); printed as JSON for the test
SETUP = """
import json
from tests.factories import (ClubFactory, ParticipantFactory, PlayerFactory,
                             TournamentFactory)
from signup.services.registrations import registration_configure
from tournaments.services.rounds import round_draw

club = ClubFactory()
open_for_sign_ups = TournamentFactory(club=club, published=True)
registration_configure(tournament_id=open_for_sign_ups.pk, open=True, check_in=False)
evening = TournamentFactory(club=club, published=True,
                            rules={"series_deals_3": 3, "series_deals_4": 4})
for n in range(80):
    ParticipantFactory(tournament=evening, player=PlayerFactory(club=club),
                       start_number=n + 1, checked_in=True)
rnd = round_draw(tournament_id=evening.pk, method="random", seed=7)
tables = [{"id": t.pk, "token": t.entry_token,
           "players": [s.participant.personal_token
                       for s in t.seats.select_related("participant").order_by("seat")]}
          for t in rnd.tables.order_by("number")]
print("SETUP" + json.dumps({"open": open_for_sign_ups.pk, "tables": tables}))
"""


def test_fifty_writers_at_once_on_the_venue_server_with_sqlite(tmp_path):
    database = tmp_path / "venue.sqlite3"
    env = base_env(SECRET_KEY=SECRET, DATABASE_URL=f"sqlite:///{database}", LOG_FORMAT="text",
                   LANGUAGE="en", REGISTRATION_RATE="1000/min", VOICE_RATE="1000/hour")
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    out = run([sys.executable, "manage.py", "shell", "-c", SETUP], env)
    evening = json.loads(out.split("SETUP", 1)[1])
    assert len(evening["tables"]) == TABLES

    port = free_port()
    log = tmp_path / "venue.log"
    # the real start, as `make venue` runs it (its migrate finds nothing left to do)
    server = Server([sys.executable, "-m", "config.venue"], {**env, "VENUE_PORT": str(port)},
                    port, log, https=False)
    start = threading.Barrier(TABLES + SIGN_UPS + CALLERS)

    def table_writer(table: dict) -> list:
        """The tablet enters the sheet's deals, then its four players confirm."""
        start.wait(60)
        answers = [server.api("POST", f"/api/v1/tables/{table['id']}/deals/",
                              {"number": n, **PASSED}, auth=f"Table {table['token']}")
                   for n in range(1, DEALS + 1)]
        return answers + [server.api("POST", f"/api/v1/tables/{table['id']}/confirm/", {},
                                     auth=f"Player {token}") for token in table["players"]]

    def sign_up(i: int) -> list:
        start.wait(60)
        return [server.api("POST", f"/api/v1/tournaments/{evening['open']}/registrations/",
                           {"name": f"Gast {i:02d}"})]

    def caller(i: int) -> list:
        start.wait(60)
        table = evening["tables"][i]
        return [server.api("POST", f"/api/v1/tables/{table['id']}/calls/",
                           {"reason": "Kartenfehler"}, auth=f"Player {table['players'][0]}")]

    try:
        with ThreadPoolExecutor(max_workers=TABLES + SIGN_UPS + CALLERS) as pool:
            futures = ([pool.submit(table_writer, t) for t in evening["tables"]]
                       + [pool.submit(sign_up, i) for i in range(SIGN_UPS)]
                       + [pool.submit(caller, i) for i in range(CALLERS)])
            answers = [answer for future in futures for answer in future.result()]
    finally:
        server.stop()

    failed = [(status, body) for status, body in answers if status not in (200, 201)]
    assert not failed, failed
    assert len(answers) == TABLES * (DEALS + 4) + SIGN_UPS + CALLERS
    submitted = [body for status, body in answers if isinstance(body, dict)
                 and body.get("submitted")]
    assert len(submitted) == TABLES  # each table's last confirmation submitted its sheet
    with sqlite3.connect(database) as db:
        def count(sql: str, *params) -> int:
            return db.execute(sql, params).fetchone()[0]

        table_ids = [t["id"] for t in evening["tables"]]
        marks = ",".join("?" * TABLES)
        assert count("SELECT count(*) FROM tournaments_deal WHERE table_id IN "
                     f"({marks})", *table_ids) == TABLES * DEALS
        assert count("SELECT count(DISTINCT table_id || '-' || number) FROM tournaments_deal "
                     f"WHERE table_id IN ({marks})", *table_ids) == TABLES * DEALS
        assert count("SELECT count(*) FROM tournaments_participant WHERE tournament_id = ?",
                     evening["open"]) == SIGN_UPS
        assert count("SELECT count(DISTINCT player_id) FROM tournaments_participant "
                     "WHERE tournament_id = ?", evening["open"]) == SIGN_UPS
        assert count("SELECT count(*) FROM tournaments_directorcall") == CALLERS
        assert count("SELECT count(*) FROM tournaments_sheetconfirmation"
                     ) == TABLES * 4
    text = log.read_text()
    assert "Traceback" not in text and "database is locked" not in text, text[-3000:]
