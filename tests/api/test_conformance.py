"""The public conformance suite (api.md "Open results"): the cases served at
``GET /games/{game}/conformance/`` and the runner ``python -m games.conformance URL``,
which passes against our own scorer and fails against a wrong one."""

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.test import Client

from games.conformance import GAMES, load

ROOT = Path(__file__).resolve().parents[2]


def run_suite(url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "games.conformance", url, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_serves_its_cases_as_data(game):
    resp = Client().get(f"/api/v1/games/{game}/conformance/")
    assert resp.status_code == 200 and resp["Cache-Control"] == "public, max-age=3600"
    cases = resp.json()
    assert cases == load(game)
    assert all({"id", "source", "players", "rules", "deals", "expect"} <= set(c) for c in cases)
    assert {key for c in cases for key in c["expect"]} >= {"scores", "error_field"} - (
        {"scores"} if game == "basler" else set())


def test_the_worked_examples_of_games_md_are_served():
    served = Client().get("/api/v1/games/doppelkopf/conformance/").json()
    d1 = next(c for c in served if c["id"] == "doppelkopf-md-D1")
    assert d1["source"] == "games.md §8.9 D1"
    assert d1["expect"]["scores"] == [[-5, 5, -5, 5]]


def test_an_unknown_game_is_a_json_404():
    resp = Client().get("/api/v1/games/tarock/conformance/", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 404
    assert "tarock" in resp.json()["detail"]


@pytest.mark.django_db
def test_our_scorer_passes_every_case(live_server, settings):
    settings.SCORER_RATE = "1000000/min"
    done = run_suite(f"{live_server.url}/api/v1/")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    total = sum(len(load(game)) for game in GAMES)
    assert f"{total} passed, 0 failed" in done.stdout


class WrongScorer(BaseHTTPRequestHandler):
    """A scorer that gets one thing wrong: a won Skat game scores one point too few; and
    it never refuses anything."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        deals = []
        for deal in body.get("deals") or []:
            won = isinstance(deal, dict) and deal.get("won") and deal.get("declarer") == 1
            scores = [0] * body["players"]
            if won and deal.get("game") == "clubs" and deal.get("matadors") == 1:
                scores[0] = 23  # 24 is right
            deals.append({"scores": scores})
        answer = json.dumps({"deals": deals, "totals": []}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def wrong_scorer():
    server = ThreadingHTTPServer(("127.0.0.1", 0), WrongScorer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v1"
    server.shutdown()
    server.server_close()
    thread.join()


def test_a_wrong_scorer_fails_and_the_report_names_the_cases(wrong_scorer):
    done = run_suite(wrong_scorer, "--game", "skat")
    assert done.returncode == 1
    assert "FAIL skat-md-2 (games.md §1 Game value, examples)" in done.stdout
    assert "deal 1: scores [23, 0, 0] instead of [24, 0, 0]" in done.stdout
    assert "expected 400 naming 'rules.kontra_re', got 200" in done.stdout


def test_an_unreachable_scorer_is_exit_status_2():
    server = ThreadingHTTPServer(("127.0.0.1", 0), WrongScorer)
    port = server.server_address[1]
    server.server_close()  # nothing listens on this port any more
    done = run_suite(f"http://127.0.0.1:{port}/api/v1", "--game", "basler")
    assert done.returncode == 2
    assert "cannot reach" in done.stdout
