"""Throughput of the Skat engine: validate and score N random deals.

Usage: ``python -m bench.bench_skat_engine [N]`` (default 100000), from the repository
root. N valid random deals (seeded, so every run scores the same deals) are serialised
to JSON strings. The baseline is ``json.loads`` of all of them; the measured run is
``json.loads`` + ``validate_deal`` + ``score_deal`` per deal, numbered as in 4-table
series of 48 deals (so the dealer check is exercised), plus ``sheet_totals`` per series.
"""

from __future__ import annotations

import json
import random
import sys

from bench.common import machine, ratio, timed
from games.engines import get_engine
from games.engines.base import DealContext
from games.engines.skat import GAMES, LEGAL_BIDS, declared_value

SEED = 20240601
PLAYERS = 4
RULES = {"kontra_re": True, "ramsch": True}
BIDS = sorted(LEGAL_BIDS[24])


def random_trump_game(rng: random.Random, declarer: int, rules: dict) -> dict:
    """A suit or grand game whose flags, points, bid and result agree."""
    kind = rng.choice(GAMES[:-1])
    top = 4 if kind == "grand" else 11
    ouvert = rng.random() < 0.03
    hand = ouvert or rng.random() < 0.2
    schneider_announced = ouvert or (hand and rng.random() < 0.1)
    schwarz_announced = ouvert or (schneider_announced and rng.random() < 0.2)
    points = 120 if ouvert and rng.random() < 0.8 else rng.randint(0, 120)
    schneider = points >= 90 or points <= 30
    schwarz = points in (0, 120) and rng.random() < 0.5
    deal = {"declarer": declarer, "game": kind,
            "matadors": rng.randint(1, top) * rng.choice((1, -1)), "hand": hand,
            "ouvert": ouvert, "schneider": schneider, "schwarz": schwarz,
            "schneider_announced": schneider_announced,
            "schwarz_announced": schwarz_announced, "declarer_points": points}
    value = declared_value(deal, rules)
    # mostly a bid the game covers, sometimes one a little over it
    bid = rng.choice([b for b in BIDS if b <= value * (1.3 if rng.random() < 0.1 else 1)])
    missed = (schneider_announced and not schneider) or (schwarz_announced and not schwarz)
    deal["bid"] = bid
    deal["won"] = points >= 61 and not missed and bid <= value
    return deal


def random_null_game(rng: random.Random, declarer: int) -> dict:
    deal = {"declarer": declarer, "game": "null", "hand": rng.random() < 0.3,
            "ouvert": rng.random() < 0.3, "won": rng.random() < 0.6}
    deal["bid"] = rng.choice([b for b in BIDS if b <= 23])
    return deal


def random_ramsch(rng: random.Random) -> dict:
    skat = rng.randint(0, 22)
    first = rng.randint(0, 120 - skat)
    second = rng.randint(0, 120 - skat - first)
    return {"ramsch": True, "points": [first, second, 120 - skat - first - second],
            "skat_points": skat}


def random_deal(rng: random.Random, number: int, rules: dict) -> dict:
    dealer = (number - 1) % PLAYERS + 1
    declarer = rng.choice([s for s in range(1, PLAYERS + 1) if s != dealer])
    roll = rng.random()
    if roll < 0.04:
        return {"passed": True}
    if roll < 0.08:
        return random_ramsch(rng)
    if roll < 0.18:
        deal = random_null_game(rng, declarer)
    else:
        deal = random_trump_game(rng, declarer, rules)
    if rng.random() < 0.05:
        deal["kontra"] = True
    return deal


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    engine = get_engine("skat")
    rules = engine.options(RULES)
    series = engine.sheet_length(PLAYERS, rules)
    rng = random.Random(SEED)
    texts = [json.dumps(random_deal(rng, i % series + 1, rules)) for i in range(count)]

    def parse_only():
        for text in texts:
            json.loads(text)

    def parse_validate_score():
        sheet = []
        for i, text in enumerate(texts):
            ctx = DealContext(number=i % series + 1, players=PLAYERS, rules=rules)
            sheet.append(engine.score_deal(engine.validate_deal(json.loads(text), ctx), ctx))
            if len(sheet) == series:
                engine.sheet_totals(sheet, PLAYERS, rules)
                sheet = []
        engine.sheet_totals(sheet, PLAYERS, rules)

    _, baseline = timed(parse_only)
    _, measured = timed(parse_validate_score)
    print(f"deals: {count} (seed {SEED}, {PLAYERS}-table series of {series})")
    print(f"machine: {machine()}")
    print(f"baseline json.loads:         {count / baseline:12,.0f} deals/s")
    print(f"json.loads + validate+score: {count / measured:12,.0f} deals/s")
    print(f"ratio (measured / baseline time): {ratio(measured, baseline):.1f}x")


if __name__ == "__main__":
    main()
