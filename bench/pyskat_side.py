"""PySkat's half of ``bench.bench_pyskat``: run in PySkat's own virtual environment.

Reads the championship's series totals (JSON on stdin: ``{"repeat": R, "matches":
[[[player, game points, won, lost], ...], ...]}``, one list per table and series), stores
them as PySkat's players, matches and results in an in-memory SQLite database, then
``repeat`` times loads every match and evaluates them all the way PySkat's
``GET /evaluation/total`` does (``pyskat.api.evaluation.evaluate_matches``). Prints JSON:
the seconds of each evaluation and each player's total score, for the comparison.

Standard library and PySkat only: it does not import the project.
"""

import datetime
import json
import sys
import time

from pyskat.api.evaluation import evaluate_matches
from pyskat.data_model import Match, Player, Result, Session
from pyskat.settings import EvaluationSettings
from sqlmodel import Session as DbSession
from sqlmodel import SQLModel, create_engine, select


def main() -> None:
    given = json.load(sys.stdin)
    engine = create_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    with DbSession(engine) as db:
        players = {}
        session = Session(name="bench",
                          date=datetime.datetime(2024, 6, 17, tzinfo=datetime.UTC))
        db.add(session)
        for table in given["matches"]:
            match = Match(session=session)
            for pid, points, won, lost in table:
                if pid not in players:
                    players[pid] = Player(id=pid, name=f"P{pid}")
                match.players.append(players[pid])
                match.results.append(Result(player_id=pid, score=points, won=won,
                                            lost=lost))
            db.add(match)
        db.commit()
    seconds, totals = [], {}
    for _ in range(given["repeat"]):
        start = time.perf_counter()
        with DbSession(engine) as db:
            evaluation = evaluate_matches(EvaluationSettings(), db.exec(select(Match)).all())
        seconds.append(time.perf_counter() - start)
        totals = {int(pid): int(score) for pid, score in evaluation["total_score"].items()}
    json.dump({"seconds": seconds, "totals": totals}, sys.stdout)


if __name__ == "__main__":
    main()
