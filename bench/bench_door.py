"""The tournament day's door (issue 56): walk-ins from phones against the venue's server
on SQLite, then the first round's balanced draw of everyone who came in.

Usage (from the repository root; Debian's chromium, no PostgreSQL or Redis needed)::

    python -m bench.bench_door [--players 100] [--phones 10] [--known 10]
        [--reading 4] [--typing 0.2] [--phones-nice 10] [--rate 1000/min] [--seed 56]

What it does: migrates a fresh SQLite file in a temporary folder and sets up a published
Skat tournament of a club, open for sign-ups with check-in and walk-in mode on, and
``--known`` of the club's players already known (the door must match them, never create
them twice); starts the venue's server as ``make venue`` does (``python -m config.venue``:
one gunicorn process with threads); then ``--phones`` headless Chromium phones at once
(390 px, German) each take walk-ins from one queue until ``--players`` are in: a fresh
phone (no cookies) opens the door form, types the name (the known players' in other
spellings), chooses the club from the list, types another club or leaves it empty, gives
an e-mail now and then, and taps. A phone is held by a person: it reads the form for
``--reading`` seconds and types ``--typing`` seconds a key, as a player at the door does
(``--reading 0 --typing 0`` fills the form at once: the server's and the phones'
throughput, not a hall's pace). The time of a walk-in runs from the tap until its own
page (``/me/<token>/``) has loaded (its load event) and shows the name: by the bench's
clock from the mouse click on the button (the bench's checks that it can be tapped come
before), and by the phone's own from the click event's time to the end of the own page's
load event (without the bench's round trips to the browser). Any other outcome is an
error.

Real phones bring their own CPUs, the bench's ten share the server's two cores: the
phones' Chromium runs ``--phones-nice`` lower in priority (``nice``; 0: the same as the
server), so that what they do waits for the server rather than the server for them;
they still take every cycle the server leaves.
Afterwards the database is counted: participants registered and checked in, and
duplicates (a name registered twice, or a known player created anew). Last, the
director's API draws round 1 (balanced) for everyone checked in, timed from the request
to the answer.

The goals (issue 56): all walk-ins within 10 minutes of the first, p95 per walk-in
≤ 2 s, 0 duplicates, 0 errors, the draw ≤ 5 s. The
sign-up limit (``REGISTRATION_RATE``, per tournament while walk-ins are on) is set to
``--rate`` for the server: the bench taps faster than a hall does. Not collected by
pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.bench_championship import percentile
from bench.common import FIRST, LAST, ROOT, fetch, free_port, machine, stop, wait_ready

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
HOST_CLUB = "Skatfreunde Bench"
OTHER_CLUB = "SC Gäste Nord"
TOURNAMENT = "Bench-Türturnier"
DIRECTOR = "bench-director"
TIMEOUT_MS = 30_000  # a walk-in that takes longer is an error
GOALS = {"total_s": 600, "p95_s": 2.0, "duplicates": 0, "errors": 0, "draw_s": 5.0}


# --------------------------------------------------------------------------- pure parts


def spelled_otherwise(name: str, rng: random.Random) -> str:
    """How a known player might type their name at the door: lower case, doubled spaces
    or "Last, First" (the server's name key makes them one)."""
    first, last = name.split(" ", 1)
    return rng.choice([name.lower(), f"{first}  {last}", f"{last}, {first}", f" {name} "])


def walk_ins(players: int, known: int, seed: int) -> list[dict]:
    """The queue at the door: ``players`` distinct names, the first ``known`` of them the
    club's known players (typed otherwise, the host club chosen). Of the others a third
    choose the host club, a third type another club, a third come without a club; every
    fifth gives an e-mail."""
    rng = random.Random(seed)
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], players)
    queue = []
    for i, name in enumerate(names):
        is_known = i < known
        club = "host" if is_known else ("host", "typed", "none")[i % 3]
        queue.append({"name": name, "known": is_known, "club": club,
                      "typed": spelled_otherwise(name, rng) if is_known else name,
                      "email": f"gast{i}@example.org" if i % 5 == 0 else ""})
    rng.shuffle(queue)
    return queue


def summarise(times: list[float], errors: int, first_tap: float, last_page: float,
              counts: dict, draw_s: float, phone_times: list[float] = ()) -> dict:
    """The run's figures, and each goal met or not (the walk-in's time by the bench's
    clock; ``phone_times``, by the phone's own, beside it)."""
    figures = {
        "phone_p50_s": percentile(list(phone_times), 50) if phone_times else float("nan"),
        "phone_p95_s": percentile(list(phone_times), 95) if phone_times else float("nan"),
        "walk_ins": len(times) + errors, "total_s": max(0.0, last_page - first_tap),
        "p50_s": percentile(times, 50), "p95_s": percentile(times, 95),
        "max_s": max(times) if times else float("nan"), "errors": errors,
        "duplicates": counts["duplicates"], "checked_in": counts["checked_in"],
        "draw_s": draw_s,
    }
    figures["met"] = {goal: figures[goal] <= limit for goal, limit in GOALS.items()}
    return figures


def report(args, figures: dict) -> None:
    def row(label: str, value: str, goal: str = "", met: bool | None = None) -> None:
        mark = "" if met is None else ("ok" if met else "MISSED")
        print(f"| {label:<28} | {value:>12} | {goal:>8} | {mark:<6} |")

    met = figures["met"]
    print(f"\nThe door: {args.players} walk-ins ({args.known} known players) from "
          f"{args.phones} phones at once, venue server on SQLite; a person reads the "
          f"form {args.reading:g} s and types {args.typing:g} s a key; the phones' "
          f"browser at nice {args.phones_nice}")
    print(machine())
    print(f"| {'':<28} | {'measured':>12} | {'goal':>8} | {'':<6} |")
    print(f"|{'-' * 30}|{'-' * 14}|{'-' * 10}|{'-' * 8}|")
    row("walk-ins registered, in", f"{figures['checked_in']} of {args.players}")
    row("total (first form to last)", f"{figures['total_s']:.1f} s", "≤ 600 s", met["total_s"])
    row("per walk-in p50", f"{figures['p50_s']:.2f} s")
    row("per walk-in p95", f"{figures['p95_s']:.2f} s", "≤ 2 s", met["p95_s"])
    row("per walk-in max", f"{figures['max_s']:.2f} s")
    row("p50 / p95, phone's clock",
        f"{figures['phone_p50_s']:.2f} / {figures['phone_p95_s']:.2f} s")
    row("duplicates", str(figures["duplicates"]), "0", met["duplicates"])
    row("errors", str(figures["errors"]), "0", met["errors"])
    row("balanced draw of round 1", f"{figures['draw_s']:.2f} s", "≤ 5 s", met["draw_s"])


# --------------------------------------------------------------------------- the venue


def environment(database: Path, port: int, rate: str) -> dict[str, str]:
    """The venue server's environment (``config.venue``'s, on 127.0.0.1), for this
    process's Django too: a SQLite file, no Redis (the venue's in-process tasks and
    memory cache), the bench's sign-up limit."""
    from config.venue import site_url, venue_environment

    drop = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG",
            "ALLOWED_HOSTS", "SITE_URL", "CSRF_TRUSTED_ORIGINS", "VENUE_ADDRESS"}
    base = {k: v for k, v in os.environ.items() if k not in drop}
    base.update({"DATABASE_URL": f"sqlite:///{database}", "VENUE_PORT": str(port),
                 "REGISTRATION_RATE": rate, "SITE_URL": site_url("127.0.0.1", port),
                 "LOG_FORMAT": "text", "DJANGO_SETTINGS_MODULE": "config.settings"})
    return venue_environment(base, address="127.0.0.1", port=port,
                             secret_key="bench-door-not-a-secret-0123456789-abcdefghijklmn")


def set_up(queue: list[dict]) -> dict:
    """Migrate and set up the tournament (this process's Django, the bench's database):
    its id, slug, the director's API token and the known players' ids."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from clubs.services import club_create, player_create
    from signup.services.registrations import registration_configure
    from tournaments.services.entries import tournament_create

    call_command("migrate", verbosity=0, interactive=False)
    director = get_user_model().objects.create_user(DIRECTOR, is_staff=True)
    club = club_create(name=HOST_CLUB, city="Altenburg", admin=director)
    tournament = tournament_create(name=TOURNAMENT, game="skat", club=club,
                                   date=datetime.date.today(), director=director,
                                   published=True)
    registration_configure(tournament_id=tournament.pk, open=True, check_in=True,
                           walk_in=True)
    known = [player_create(name=w["name"], club=club).pk for w in queue if w["known"]]
    return {"tournament": tournament.pk, "slug": tournament.slug, "known": known,
            "token": Token.objects.create(user=director).key}


def counted(setup: dict, queue: list[dict]) -> dict:
    """The database after the door: checked-in participants, and duplicates (a name
    registered twice; a known player's name among the players more than once)."""
    from django.db import close_old_connections

    from clubs.models import Player
    from clubs.names import name_key
    from tournaments.models import Participant

    close_old_connections()
    rows = list(Participant.objects.filter(tournament_id=setup["tournament"])
                .values_list("player__name", "status", "checked_in"))
    keys = Counter(name_key(name) for name, _status, _checked in rows)
    players = Counter(name_key(name) for name in Player.objects.values_list("name", flat=True))
    doubled = sum(n - 1 for n in keys.values() if n > 1)
    doubled += sum(players[name_key(w["name"])] - 1 for w in queue
                   if players[name_key(w["name"])] > 1)
    checked = sum(1 for _name, status, checked_in in rows
                  if status == "registered" and checked_in)
    return {"duplicates": doubled, "checked_in": checked, "participants": len(rows)}


def start_venue(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "config.venue"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    wait_ready(port, "/healthz", proc, log)
    return proc


def draw(port: int, setup: dict) -> tuple[float, int]:
    """Round 1, balanced, through the director's API: seconds and tables drawn."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    body = json.dumps({"method": "balanced"})
    start = time.perf_counter()
    conn.request("POST", f"/api/v1/tournaments/{setup['tournament']}/rounds/", body=body,
                 headers={"Authorization": f"Token {setup['token']}",
                          "Content-Type": "application/json", "Accept-Language": "de"})
    response = conn.getresponse()
    data = response.read()
    seconds = time.perf_counter() - start
    conn.close()
    if response.status != 201:
        raise SystemExit(f"the draw answered {response.status}: {data[:500]!r}")
    return seconds, len(json.loads(data)["tables"])


# --------------------------------------------------------------------------- the phones

# The phone's own clock: the door page notes when the button's click event was made (its
# input event's time), kept in the tab's session storage across the navigation; the own
# page answers the seconds from then to the end of its load event.
NOTE_TAP = """() => document.getElementById("door-submit").addEventListener("click", (e) => {
  sessionStorage.setItem("bench-tap", String(performance.timeOrigin + e.timeStamp)); },
  {once: true, capture: true})"""
SINCE_TAP = """() => { const nav = performance.getEntriesByType("navigation")[0];
  const end = nav.loadEventEnd || performance.now();
  return (performance.timeOrigin + end - Number(sessionStorage.getItem("bench-tap"))) / 1000; }"""


async def phone(browser, url: str, queue: list[dict], out: dict,
                reading: float = 0.0, typing: float = 0.0) -> None:
    """One phone's walk-ins, a fresh browser (no cookies) each, until the queue is empty:
    the form read for ``reading`` seconds, each text typed at ``typing`` seconds a key."""
    async def fill(page, selector: str, text: str) -> None:
        if typing:
            await page.locator(selector).press_sequentially(text, delay=typing * 1000)
        else:
            await page.fill(selector, text)

    while queue:
        walk_in = queue.pop()
        context = await browser.new_context(
            viewport={"width": 390, "height": 844}, locale="de-DE",
            extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"})
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        try:
            opened = time.perf_counter()
            await page.goto(url)
            out["first_open"] = min(out.get("first_open", opened), opened)
            await asyncio.sleep(reading)
            await fill(page, "#id_name", walk_in["typed"])
            if walk_in["club"] == "host":
                await page.select_option("#id_club", label=HOST_CLUB)
            else:
                await page.select_option("#id_club", value="")
                if walk_in["club"] == "typed":
                    await fill(page, "#id_club_name", OTHER_CLUB)
            if walk_in["email"]:
                await fill(page, "#id_email", walk_in["email"])
            # the person has the button in sight before the tap (the bench's checks
            # that it can be tapped run before the clock starts)
            button = page.locator("#door-submit")
            await button.scroll_into_view_if_needed()
            box = await button.bounding_box()
            await page.evaluate(NOTE_TAP)
            tap = time.perf_counter()
            await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            await page.wait_for_url(re.compile(r"/me/[^/]+/$"), wait_until="load")
            done = time.perf_counter()
            shown = " ".join((await page.content()).split())
            if walk_in["name"] not in shown:  # the loaded page was not the person's
                raise RuntimeError("own page without the name")
            out["times"].append(done - tap)
            out["phone_times"].append(await page.evaluate(SINCE_TAP))
            out["last_page"] = max(out.get("last_page", done), done)
        except Exception as exc:  # noqa: BLE001 - any other outcome is an error
            out["errors"].append(f"{walk_in['typed']}: {exc.__class__.__name__}: "
                                 f"{str(exc).splitlines()[0] if str(exc) else ''}")
        finally:
            await context.close()


def niced(chromium: str, nice: int, folder: Path) -> str:
    """The browser to launch: ``chromium`` itself, or (``nice`` above 0) a script in
    ``folder`` that starts it that much lower in priority (its renderers inherit it)."""
    if nice <= 0:
        return chromium
    script = folder / "chromium-niced"
    script.write_text(f'#!/bin/sh\nexec nice -n {int(nice)} "{chromium}" "$@"\n')
    script.chmod(0o755)
    return str(script)


async def door(url: str, queue: list[dict], phones: int, reading: float = 0.0,
               typing: float = 0.0, chromium: str = CHROMIUM) -> dict:
    from playwright.async_api import async_playwright

    out: dict = {"times": [], "phone_times": [], "errors": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        try:
            await asyncio.gather(*(phone(browser, url, queue, out, reading, typing)
                                   for _ in range(phones)))
        finally:
            await browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--phones", type=int, default=10)
    parser.add_argument("--known", type=int, default=10,
                        help="walk-ins the club knows already (matched, never created)")
    parser.add_argument("--reading", type=float, default=4.0,
                        help="seconds a person reads the form before typing")
    parser.add_argument("--typing", type=float, default=0.2,
                        help="seconds a key (0: the form filled at once)")
    parser.add_argument("--rate", default="1000/min",
                        help="REGISTRATION_RATE of the server (the app's default: 30/min)")
    parser.add_argument("--phones-nice", type=int, default=10,
                        help="the phones' browser this much lower in priority than the "
                             "server (0: the same)")
    parser.add_argument("--seed", type=int, default=56)
    args = parser.parse_args()
    args.known = min(args.known, args.players)
    queue = walk_ins(args.players, args.known, args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-door-") as tmp:
        port = free_port()
        env = environment(Path(tmp) / "door.sqlite3", port, args.rate)
        os.environ.clear()
        os.environ.update(env)
        setup = set_up(queue)
        log = Path(tmp) / "venue.log"
        proc = start_venue(env, port, log)
        try:
            assert fetch(port, f"/p/{setup['slug']}/door/")[0] == 200, "no door form"
            print(f"{args.phones} phones at the door of http://127.0.0.1:{port}"
                  f"/p/{setup['slug']}/door/ ...", flush=True)
            out = asyncio.run(door(f"http://127.0.0.1:{port}/p/{setup['slug']}/door/",
                                   list(queue), args.phones, args.reading, args.typing,
                                   niced(CHROMIUM, args.phones_nice, Path(tmp))))
            for error in out["errors"][:10]:
                print(f"error: {error}")
            counts = counted(setup, queue)
            draw_s, tables = draw(port, setup)
        finally:
            stop(proc)
        text = log.read_text(errors="replace")
    figures = summarise(out["times"], len(out["errors"]), out.get("first_open", 0.0),
                        out.get("last_page", 0.0), counts, draw_s, out["phone_times"])
    report(args, figures)
    print(f"\n{counts['participants']} participants stored; round 1 drawn at {tables} tables")
    if "Traceback" in text:
        print("the server logged a traceback:\n" + text[text.index("Traceback"):][:3000])
    sys.exit(0 if all(figures["met"].values()) else 1)


if __name__ == "__main__":
    main()
