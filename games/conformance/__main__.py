"""Run the conformance suite against a scorer: ``python -m games.conformance URL``.

``URL`` is the base of an API that speaks ``POST {URL}/games/{game}/score/`` (this
project's: ``https://<host>/api/v1``). Every case of every game (or of ``--game``) is
sent; the report names each case that differs; the exit status is 0 when none does,
1 when one does, 2 when the scorer cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request

from games.conformance import GAMES, differences, load, request_body

RETRIES = 5
LONGEST_WAIT = 60  # seconds: a scorer's Retry-After beyond this is cut to it


def post(url: str, body: dict, timeout: float) -> tuple[int, object]:
    """POST ``body`` as JSON; (status, parsed answer or the raw text). Honours 429's
    Retry-After a bounded number of times."""
    data = json.dumps(body).encode()
    for _attempt in range(RETRIES):
        request = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
            if status == 429:
                wait = error.headers.get("Retry-After", "1")
                time.sleep(min(int(wait) if wait.isdigit() else 1, LONGEST_WAIT))
                continue
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")
    return 429, "too many requests"


def run(base: str, games: list[str], timeout: float = 30.0, out=sys.stdout) -> int:
    base = base.rstrip("/")
    failed = passed = 0
    for game in games:
        for case in load(game):
            try:
                status, body = post(f"{base}/games/{game}/score/", request_body(case), timeout)
            except (urllib.error.URLError, OSError) as error:
                print(f"cannot reach {base}: {error}", file=out)
                return 2
            wrong = differences(case, status, body)
            if wrong:
                failed += 1
                print(f"FAIL {case['id']} ({case['source']}): {case['title']}", file=out)
                for line in wrong:
                    print(f"     {line}", file=out)
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.conformance",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the API base, e.g. https://example.org/api/v1")
    parser.add_argument("--game", action="append", choices=GAMES,
                        help="only this game (repeatable); all games by default")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    args = parser.parse_args(argv)
    return run(args.url, args.game or list(GAMES), args.timeout)


if __name__ == "__main__":
    sys.exit(main())
