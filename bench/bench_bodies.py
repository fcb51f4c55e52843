"""Parsing and validating a maximal body (issue 52): the API's JSON parser and whole
requests with a staff token, against ``json.loads`` of the same body in the same run (the
standard reader: the ratios are over its time); ``orjson.loads``, which the parser reads
with first, is shown beside it.

Usage (from the repository root): ``.venv/bin/python -m bench.bench_bodies [--repeat 7]
[--parser-only]``. Not collected by pytest. Part 2 needs the bench database
(``bench.common``; PostgreSQL, a name containing "bench") and empties its tournaments
and players.

Bodies: just under ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB), of the shapes that cost a
parser the most per byte: 190,000 unknown keys (the issue's attack), 1.25 million
integers, 625,000 floats, 310,000 small objects, 830,000 empty lists, and the integers
and the keys again with one long digit run in a text (a decoy: the parser must tell that
it is no number); and the largest valid event document, a played Skat tournament (951
players, 3 rounds of 317 tables, 34,236 deals: ``tests.event_documents``).

1. The parser (``api.parsers.StrictJSONParser.parse``): its time over ``json.loads``'s.
2. Whole requests (Django's test client: middleware, the token, the parser, the strict
   serializer or the document's schema, the JSON error answer) with a staff token on the
   write endpoints whose bound is ``MAX_BODY_BYTES`` (the member list, the event import),
   and on one of the 64 KB endpoints (a 413 from the announced length, the body unread):
   over ``json.loads``'s time. The valid document is imported (201: stored, each time
   as a new tournament).
3. The event document parsed and checked as the import does before it stores anything
   (``archive_read``: the schema, then each deal replayed by its game): the valid one,
   and the same with its very last deal refused by the schema and by the game.

Times are CPU seconds of this process (``time.process_time``), the median of
``--repeat``: on a shared machine they vary less than wall time. Goal: a maximal body
parsed and validated in at most 100 ms, i.e. a small multiple of ``json.loads`` (20 to
50 ms for these bodies on an idle core).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import time

import orjson

from bench.common import machine, median, ms, ratio, use_bench_environment
from tests.event_documents import largest_skat_event

SIZE = 2_600_000  # under DATA_UPLOAD_MAX_MEMORY_SIZE (2,621,440)


def listed(item: str, size: int = SIZE, tail: str = "") -> bytes:
    count = (size - 2 - len(tail)) // (len(item) + 1)
    return ("[" + ",".join([item] * count) + tail + "]").encode()


def many_keys(size: int = SIZE) -> bytes:
    """``{"name": "x", "k0000000": 1, …}``: the issue's attack, 13 bytes a key."""
    count = (size - 20) // 13
    return ('{"name":"x"' + "".join(f',"k{n:07d}":1' for n in range(count)) + "}").encode()


def bodies() -> dict[str, bytes]:
    return {
        "190,000 unknown keys": many_keys(),
        "1.25 M integers": listed("0"),
        "625,000 floats": listed("0.5"),
        "310,000 objects": listed('{"a":1}'),
        "830,000 empty lists": listed("[]"),
        "integers + a long digit text": listed("0", tail=',"' + "1" * 50 + '"'),
        "unknown keys + a long digit text": many_keys(SIZE - 60)[:-1] + b',"n":"'
        + b"1" * 50 + b'"}',
        "a played Skat tournament": largest_skat_event(SIZE),
    }


def event_bodies() -> dict[str, bytes]:
    """The largest valid event document, and the same with its last deal refused: by the
    schema (its number a text) and by the game (a game Skat does not have)."""
    valid = largest_skat_event(SIZE)
    end = valid.rindex(b'"number":36,')  # the last deal
    return {"valid": valid,
            "last deal: schema": valid[:end] + b'"number":"36",' + valid[end + 12:],
            "last deal: game": valid[:end] + valid[end:].replace(b'"game":"',
                                                                  b'"game":"x', 1)}


def cpu(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return median(times)


def baselines(body: bytes, repeat: int) -> tuple[float, float]:
    """``json.loads``'s time (the standard reader: the baseline of every ratio) and
    ``orjson.loads``'s."""
    return (cpu(lambda: json.loads(body), repeat), cpu(lambda: orjson.loads(body), repeat))


def parser_part(repeat: int) -> None:
    from api.parsers import StrictJSONParser

    parser = StrictJSONParser()
    print("\n| body | json.loads | orjson.loads | parser | ratio |\n|---|---|---|---|---|")
    for name, body in bodies().items():
        base, fast = baselines(body, repeat)
        took = cpu(lambda body=body: parser.parse(io.BytesIO(body), parser_context={}),
                   repeat)
        print(f"| {name} | {ms(base)} | {ms(fast)} | {ms(took)} | {ratio(took, base):.2f} |")


def check_part(repeat: int) -> None:
    from api.parsers import StrictJSONParser, collection_paused
    from archive.reading import archive_read
    from games.errors import UserError

    parser = StrictJSONParser()

    def check(body: bytes) -> str:
        try:
            # as the import view reads: DRF parses the body at the view's first look at
            # request.data, inside the view's pause of the collector (parsed outside it,
            # the collector's first pass over the parsed document fell in between)
            with collection_paused():
                archive_read(parser.parse(io.BytesIO(body), parser_context={}))
        except UserError as exc:
            return exc.errors[0].field
        return "accepted"

    print("\n| event document | json.loads | parser + check | ratio | answer |\n"
          "|---|---|---|---|---|")
    for name, body in event_bodies().items():
        base, _fast = baselines(body, repeat)
        took = cpu(lambda body=body: check(body), repeat)
        print(f"| {name} | {ms(base)} | {ms(took)} | {ratio(took, base):.2f} | "
              f"{check(body)} |")


def request_part(repeat: int) -> None:
    from bench.common import setup_django

    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tests.factories import ClubFactory, TournamentFactory

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_tournament, clubs_player, clubs_club "
                       "RESTART IDENTITY CASCADE")
    user, _created = get_user_model().objects.get_or_create(
        username="bench-bodies", defaults={"is_staff": True, "is_superuser": True})
    club = ClubFactory()
    club.admins.add(user)
    tournament = TournamentFactory(club=club)
    tournament.directors.add(user)
    logging.disable(logging.CRITICAL)  # a line per refused request would be timed too
    client = APIClient(HTTP_HOST="127.0.0.1")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    client.raise_request_exception = False
    endpoints = [("post", f"/api/v1/clubs/{club.pk}/members/preview/"),
                 ("post", "/api/v1/tournaments/import/"),
                 ("post", f"/api/v1/tournaments/{tournament.pk}/participants/")]
    print("\n| body | endpoint | status | json.loads | orjson.loads | request | ratio |\n"
          "|---|---|---|---|---|---|---|")
    for name, body in bodies().items():
        base, fast = baselines(body, repeat)
        for method, path in endpoints:
            statuses = []

            def send(method=method, path=path, body=body, statuses=statuses):
                statuses.append(getattr(client, method)(
                    path, body, content_type="application/json").status_code)

            took = cpu(send, repeat)
            print(f"| {name} | {method.upper()} {path} | {statuses[-1]} | {ms(base)} | "
                  f"{ms(fast)} | {ms(took)} | {ratio(took, base):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--parser-only", action="store_true")
    args = parser.parse_args()
    use_bench_environment()
    import django

    print(machine())
    if args.parser_only:
        django.setup()
        parser_part(args.repeat)
        return
    request_part(args.repeat)
    check_part(args.repeat)
    parser_part(args.repeat)
    print("\n" + machine())


if __name__ == "__main__":
    main()
