"""Throughput of every engine: validate and score N random deals against ``json.loads``.

Usage: ``python -m bench.bench_engines [N] [R]`` (default 50000 deals per game, the
fastest of R = 5 alternating passes of baseline and measured run), from the repository
root. For each game N valid random deals (seeded) are serialised to JSON
strings, numbered as in a series at the game's preferred table (so the dealer and the
card schedule are exercised). The baseline is ``json.loads`` of all of them, the
measured run ``json.loads`` + ``validate_deal`` + ``score_deal`` per deal; the ratio of
the two times is reported per game (issue 16's goal: at most 5×, i.e. the engine at
20 % of ``json.loads``'s speed or better). Skat's deals are those of
``bench_skat_engine``.
"""

from __future__ import annotations

import json
import random
import sys

from bench import bench_skat_engine
from bench.common import machine, ratio, timed
from games.engines import get_engine
from games.engines.baptistenskat import TRUMPS as BAPTIST_TRUMPS
from games.engines.baptistenskat import cards_in_deal
from games.engines.base import DealContext
from games.engines.basler import CARD_POINTS, TRICKS
from games.engines.labatarde import SCHEDULES, pack_size
from games.engines.labatarde import TRUMPS as BATARDE_TRUMPS

SEED = 20261125


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``parts`` whole numbers 0.. adding up to ``total``."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def schafkopf_deal(rng: random.Random, number: int, players: int) -> dict:
    if rng.random() < 0.05:
        return {"game": "passed"}
    dealer = (number - 1) % players + 1
    seats = [s for s in range(1, players + 1) if players == 4 or s != dealer]
    declarer = rng.choice(seats)
    game = rng.choice(["rufspiel"] * 6 + ["wenz", "solo"])
    points = rng.choice([rng.randint(1, 119), 0, 120])
    deal = {"game": game, "declarer": declarer, "declarer_points": points,
            "schwarz": points in (0, 120) and rng.random() < 0.5,
            "laufende": rng.randint(0, 4 if game == "wenz" else 8),
            "doublings": rng.randint(0, 2)}
    if game == "rufspiel":
        deal["partner"] = rng.choice([s for s in seats if s != declarer])
        deal["called_ace"] = rng.choice(["acorns", "leaves", "bells"])
    if game == "solo":
        deal["suit"] = rng.choice(["acorns", "leaves", "hearts", "bells"])
    return deal


def basler_deal(rng: random.Random, number: int, players: int) -> dict:
    a = rng.randint(1, TRICKS - 1)
    points = rng.randint(0, CARD_POINTS)
    return {"tricks": [a, TRICKS - a], "last_trick": rng.choice("AB"),
            "card_points": [points, CARD_POINTS - points], "melds": [], "captured": []}


def baptistenskat_deal(rng: random.Random, number: int, players: int) -> dict:
    cards = cards_in_deal(number, players)
    return {"cards": cards, "trump": rng.choice(BAPTIST_TRUMPS),
            "bids": [rng.randint(0, cards) for _ in range(players)],
            "tricks": _split(rng, cards, players)}


def labatarde_deal(rng: random.Random, number: int, players: int) -> dict:
    cards = SCHEDULES[players][number - 1]
    bids = [rng.randint(0, cards) for _ in range(players)]
    if sum(bids) == cards:  # the last bidder may not make them add up
        bids[-1] = (bids[-1] + 1) % (cards + 1)
        if sum(bids) == cards:
            bids[-1] = (bids[-1] + 1) % (cards + 1)
    deal = {"cards": cards, "trump": rng.choice(BATARDE_TRUMPS), "bids": bids,
            "tricks": _split(rng, cards, players)}
    if pack_size(players) == 72:
        deal["preference"] = rng.choice(["marked", "simple"])
    return deal


def doppelkopf_deal(rng: random.Random, number: int, players: int) -> dict:
    """A full Doppelkopf record (games.md 8.3): normal games, Hochzeiten and solos with
    announcements, and Sonderpunkte in the normal-scored ones within their Augen."""
    seats = list(range(1, players + 1))
    game = rng.choice(["normal"] * 6 + ["hochzeit", "solo_damen", "solo_herz", "solo_buben"])
    if game == "normal" or (game == "hochzeit" and rng.random() < 0.8):
        re = rng.sample(seats, 2)
    else:
        re = [rng.choice(seats)]
    points = 240 if game == "normal" and rng.random() < 0.05 else rng.randint(2, 238)
    deal = {"game": game, "re": re, "re_points": points,
            "announcements": {"re": rng.choice([None, "re", "no90"]),
                              "kontra": rng.choice([None, "kontra", "no90"])}}
    if points == 240:
        deal["schwarz"] = "kontra"
    if len(re) == 2:  # normal-scored: Sonderpunkte, each party's within its Augen
        augen = {"re": points, "kontra": 240 - points}
        karlchen = rng.choice([None, "re", "kontra"])
        deal["extras"] = {
            party: {"fuchs": rng.randint(0, 1) if augen[party] >= 11 else 0,
                    "doppelkopf": rng.randint(0, min(2, augen[party] // 40)),
                    "karlchen": karlchen == party and augen[party] >= 2}
            for party in ("re", "kontra") if augen[party] > 0}
    return deal


SKAT_RULES = get_engine("skat").options(bench_skat_engine.RULES)


def skat_deal(rng: random.Random, number: int, players: int) -> dict:
    return bench_skat_engine.random_deal(rng, number, SKAT_RULES)


GAMES = {  # game → (deal generator, rules, players)
    "skat": (skat_deal, bench_skat_engine.RULES, 4),
    "schafkopf": (schafkopf_deal, {}, 4),
    "basler": (basler_deal, {}, 4),
    "baptistenskat": (baptistenskat_deal, {}, 4),
    "labatarde": (labatarde_deal, {}, 4),
    "doppelkopf": (doppelkopf_deal, {}, 4),
}


def measure(game: str, count: int, repeat: int = 1) -> tuple[float, float]:
    """(baseline seconds, measured seconds) for ``count`` deals of ``game``: the fastest
    of ``repeat`` alternating passes of each."""
    generate, rules, players = GAMES[game]
    engine = get_engine(game)
    rules = engine.options(rules)
    series = engine.sheet_length(players, rules)
    rng = random.Random(SEED)
    numbers = [i % series + 1 for i in range(count)]
    texts = [json.dumps(generate(rng, n, players)) for n in numbers]
    contexts = [DealContext(number=n, players=players, rules=rules) for n in numbers]

    def parse_only():
        for text in texts:
            json.loads(text)

    def parse_validate_score():
        for text, ctx in zip(texts, contexts, strict=True):
            engine.score_deal(engine.validate_deal(json.loads(text), ctx), ctx)

    parse_validate_score()  # every generated deal must be valid (raises otherwise)
    # the baseline and the measured pass alternate ``repeat`` times and the fastest of
    # each counts (as ``timeit`` advises): on a shared machine a single pass of either
    # can be slowed by another job, which swung one game's ratio on its own
    baselines, measures = [], []
    for _ in range(repeat):
        baselines.append(timed(parse_only)[1])
        measures.append(timed(parse_validate_score)[1])
    return min(baselines), min(measures)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"deals per game: {count} (seed {SEED}), fastest of {repeat} alternating passes; "
          f"machine: {machine()}")
    print(f"{'game':<14} {'json.loads':>14} {'+ validate+score':>18} {'ratio':>7}")
    for game in GAMES:
        baseline, measured = measure(game, count, repeat)
        print(f"{game:<14} {count / baseline:>10,.0f} /s {count / measured:>14,.0f} /s "
              f"{ratio(measured, baseline):>6.1f}x")


if __name__ == "__main__":
    main()
