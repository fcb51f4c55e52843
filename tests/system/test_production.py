"""Production as it is shipped: the build step and the servers of the image and of
``make venue``, started from outside and asked for every kind of page and asset.

The production pass does what the Dockerfile does — ``collectstatic`` with production
settings (``DEBUG=false``, the hashed and compressed storage) into a fresh folder, then
``python -m config.serve``'s gunicorn and ``DEBUG=false`` — behind a
TLS-terminating proxy (``X-Forwarded-Proto: https``, ``TRUSTED_PROXY``), on a fresh database
of the kind this test run uses (a SQLite file, or a new PostgreSQL database in CI's second
pass). The venue pass serves the same data the way ``make venue`` does: one process with
threads, plain HTTP, static files from the source folders. Every page, every asset a page
links to and every module a module imports must answer 200: a 500 on any page with DEBUG
off, a missing hashed file or a broken import fails here first.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import sys
import tempfile
import urllib.parse
from pathlib import Path

import pytest
import yaml  # PyYAML, which drf-spectacular installs

from config.serve import venue_args
from config.venue import venue_environment
from tests.system.conftest import ROOT, free_port
from tests.system.servers import SECRET, Server, base_env, run

SKAT_DEAL = {"number": 1, "declarer": 2, "game": "spades", "matadors": 2, "won": True}
HASHED = re.compile(r"\.[0-9a-f]{12}\.(js|css)$")
ASSET = re.compile(r"""(?:src|href)="(/static/[^"]+)\"""")
MODULE_IMPORT = re.compile(r"""(?:import|export)[^;"']*?from\s*["']([^"']+)["']\s*;"""
                           r"""|import\s*["']([^"']+)["']\s*;""")


def dockerfile_build_step() -> tuple[dict[str, str], list[str]]:
    """The environment and command of the Dockerfile's ``collectstatic`` step."""
    line = next(line for line in (ROOT / "Dockerfile").read_text().splitlines()
                if line.startswith("RUN ") and "collectstatic" in line)
    words = shlex.split(line.removeprefix("RUN "))
    assignments = list(itertools.takewhile(lambda word: "=" in word, words))
    command = words[len(assignments):]
    assert command[0] == "python"
    return dict(word.split("=", 1) for word in assignments), [sys.executable, *command[1:]]


def dockerfile_command() -> list[str]:
    line = next(line for line in (ROOT / "Dockerfile").read_text().splitlines()
                if line.startswith("CMD "))
    command = json.loads(line.removeprefix("CMD "))
    assert command[0] == "python"
    return [sys.executable, *command[1:]]


def test_the_image_and_compose_serve_with_the_one_production_command():
    assert dockerfile_command()[1:] == ["-m", "config.serve"]
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert services["web"]["command"].endswith('&& exec python -m config.serve"')
    assert services["entry"]["command"] == "python -m config.serve"
    assert services["board"]["command"] == "python -m config.serve"
    # the deals get the processor before the pages and the kept standings (docker's
    # weight: 1,024 unless set)
    for name in ("web", "board"):
        assert services["entry"]["cpu_shares"] >= 4 * services[name].get("cpu_shares", 1024)
    # only the proxy is published; it is configured by the files the proxy's test runs
    assert [name for name, s in services.items() if "ports" in s] == ["proxy"]
    assert services["proxy"]["build"] == "deploy/nginx"
    proxy_env = services["proxy"]["environment"]
    assert proxy_env == {"PROXY_PORT": "8000", "WEB_UPSTREAM": "web:8000",
                         "ENTRY_UPSTREAM": "entry:8000", "BOARD_UPSTREAM": "board:8000",
                         "PUSH_PORT": "8001"}
    # every app container publishes to the proxy's push port
    for name in ("web", "entry", "board", "worker", "beat"):
        assert services[name]["environment"]["PUSH_URL"] == "http://proxy:8001"


def test_the_proxys_image_fills_in_what_its_tests_fill_in():
    """The image copies deploy/nginx and its entrypoint fills in the template's names,
    the ones ``config.serve.proxy_files`` fills in for the tests and the bench."""
    from config.serve import proxy_files

    folder = ROOT / "deploy" / "nginx"
    template = (folder / "templates" / "stichliste.conf.template").read_text()
    names = set(re.findall(r"\$\{(\w+)\}", template))
    entrypoint = (folder / "entrypoint.sh").read_text()
    assert set(re.findall(r"\$\{(\w+)\}", entrypoint)) == names
    dockerfile = (folder / "Dockerfile").read_text()
    assert "libnginx-mod-nchan" in dockerfile and "COPY templates/" in dockerfile
    filled = proxy_files(Path(tempfile.mkdtemp()), port=8000, web="web:8000",
                         entry="entry:8000", board="board:8000", push=8001)
    assert "${" not in (filled.parent / "stichliste.conf").read_text()


REDIS = {"REDIS_URL": "redis://127.0.0.1:6379/0"}


@pytest.mark.parametrize(("environ", "expected"), [
    (REDIS, ["--workers", "3"]),
    ({**REDIS, "WEB_WORKERS": "2", "WEB_THREADS": "8"},
     ["--workers", "2", "--threads", "8", "--worker-class", "gthread"]),
    # without Redis the processes would share no versions of the live answers: one
    # process with the threads of all
    ({}, ["--workers", "1", "--threads", "3", "--worker-class", "gthread"]),
    ({"WEB_WORKERS": "2", "WEB_THREADS": "4"},
     ["--workers", "1", "--threads", "8", "--worker-class", "gthread"]),
    ({"WEB_WORKERS": "1"}, ["--workers", "1"]),
])
def test_workers_and_threads_come_from_the_environment(monkeypatch, environ, expected):
    import config.serve as serve

    started = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: started.append(args))
    monkeypatch.setattr(serve.os, "chdir", lambda path: None)
    monkeypatch.setattr(serve.os, "environ", {"PORT": "8123", **environ})
    serve.main()
    args = started[0]
    assert args[args.index("--bind") + 1] == "0.0.0.0:8123"
    assert args[args.index("--workers"):] == expected
    assert "--access-logfile" not in args  # one line per request: the app's own


@pytest.mark.parametrize("raw", ["0", "65", "x", "²", "-1"])
def test_a_thread_count_out_of_bounds_stops_the_start_naming_it(monkeypatch, raw):
    import config.serve as serve

    monkeypatch.setattr(serve.os, "environ", {"WEB_THREADS": raw})
    with pytest.raises(SystemExit, match="WEB_THREADS"):
        serve.main()


@pytest.mark.parametrize(("raw", "lowered"), [(None, []), ("0", []), ("10", [10]), ("19", [19])])
def test_the_pool_of_polls_yields_to_the_entry_by_web_nice(monkeypatch, raw, lowered):
    """``WEB_NICE`` lowers the server's priority before gunicorn starts (its workers
    inherit it): a web pool run as plain processes beside the tables' entry yields the
    processor to it (docker compose gives the entry a larger ``cpu_shares`` instead)."""
    import config.serve as serve

    calls = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: calls.append("exec"))
    monkeypatch.setattr(serve.os, "chdir", lambda path: None)
    monkeypatch.setattr(serve.os, "nice", lambda n: calls.append(n))
    monkeypatch.setattr(serve.os, "environ", {} if raw is None else {"WEB_NICE": raw})
    serve.main()
    assert calls == [*lowered, "exec"]


@pytest.mark.parametrize("raw", ["20", "-1", "x", "²"])
def test_a_priority_out_of_bounds_stops_the_start_naming_it(monkeypatch, raw):
    import config.serve as serve

    monkeypatch.setattr(serve.os, "environ", {"WEB_NICE": raw})
    with pytest.raises(SystemExit, match="WEB_NICE"):
        serve.main()


def prepare(server: Server, admin_password: str) -> dict:
    """Through the API, as a director would: a token, a drawn round, one deal entered by
    a table's token. Returns what the pages are named by."""
    status, body = server.api("POST", "/api/v1/auth/token/",
                              {"username": "smoke", "password": admin_password})
    assert status == 200, body
    staff = f"Token {body['token']}"
    status, body = server.api("GET", "/api/v1/tournaments/", auth=staff)
    assert status == 200, body
    tournament = body["results"][0]
    tid = tournament["id"]
    status, drawn = server.api("POST", f"/api/v1/tournaments/{tid}/rounds/",
                               {"method": "random", "seed": 7}, auth=staff)
    assert status == 201, drawn
    table = drawn["tables"][0]
    status, body = server.api("POST", f"/api/v1/tables/{table['id']}/deals/", SKAT_DEAL,
                              auth=f"Table {table['entry_token']}")
    assert status == 201, body
    status, standings = server.api("GET", f"/api/v1/tournaments/{tid}/standings/")
    assert status == 200, standings
    status, clubs = server.api("GET", "/api/v1/clubs/", auth=staff)
    assert status == 200, clubs
    status, players = server.api("GET", "/api/v1/players/", auth=staff)
    assert status == 200, players
    return {"tid": tid, "slug": tournament["slug"], "table": table["id"],
            "token": table["entry_token"], "club": clubs["results"][0]["slug"],
            "player": players["results"][0]["id"],
            "participant": table["seats"][0]["participant"]}


def public_pages(names: dict) -> list[str]:
    """What anybody opens: the landing page, logins, docs, a table's sheet, the board."""
    slug, token = names["slug"], names["token"]
    return [
        "/", "/accounts/login/", "/admin/login/", "/api/docs/", "/api/schema/", "/sw.js",
        f"/t/{token}/", f"/t/{token}/sheet/", f"/p/{slug}/", f"/p/{slug}/standings/",
        f"/p/{slug}/print/", f"/p/{slug}/print/?round=1",
        f"/p/{slug}/player/{names['participant']}/", "/clubs/",
    ]


def staff_pages(names: dict) -> list[str]:
    """What a logged-in director opens: the console, print-outs, club pages, the admin."""
    tid, slug, table = names["tid"], names["slug"], names["table"]
    return [
        "/", f"/p/{slug}/", "/console/", f"/console/t/{tid}/", f"/console/t/{tid}/rounds/1/cards/",
        f"/console/t/{tid}/rounds/1/paper/", f"/console/t/{tid}/teams/",
        f"/console/t/{tid}/prizes/", f"/console/t/{tid}/prizes/print/",
        f"/console/table/{table}/", f"/console/table/{table}/sheet/",
        f"/console/table/{table}/paper/", f"/clubs/{names['club']}/",
        f"/clubs/{names['club']}/members/", f"/clubs/{names['club']}/settings/",
        f"/clubs/players/{names['player']}/", f"/clubs/tournaments/{tid}/standings.csv",
        f"/clubs/tournaments/{tid}/cash/", f"/clubs/tournaments/{tid}/table-money/",
        "/admin/",
    ]


def fetch_everything(server: Server, paths: list[str], *, hashed: bool) -> set[str]:
    """Every page, then every asset they link to and every module those import; returns
    the assets. Fails naming each address that did not answer 200."""
    failures, assets = [], set()
    for path in paths:
        status, headers, body = server.get(path)
        if status != 200:
            failures.append(f"{path}: {status} {body[:300]!r}")
            continue
        if headers.get("Content-Type", "").startswith("text/html"):
            assets.update(ASSET.findall(body.decode()))
    # the docs page names its own assets through the sidecar; they are static files too
    pending, seen = sorted(assets), set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        status, _headers, body = server.get(path)
        if status != 200:
            failures.append(f"{path}: {status}")
            continue
        if path.endswith(".js") and path.startswith("/static/js/"):
            for groups in MODULE_IMPORT.findall(body.decode()):
                spec = groups[0] or groups[1]
                if spec.startswith("."):
                    pending.append(urllib.parse.urljoin(path, spec))
    assert not failures, "not 200:\n" + "\n".join(failures)
    own = {path for path in seen if path.startswith("/static/js/")
           or path.startswith("/static/css/")}
    assert own, "no page linked a script or a stylesheet of ours"
    if hashed:
        assert all(HASHED.search(path) for path in own), sorted(own)
    return seen


@pytest.mark.django_db
def test_the_image_build_and_servers_answer_every_page_and_asset(tmp_path, database_url):
    static_root = tmp_path / "static"
    # the Dockerfile's build step, word for word but for the folder
    build_env, build = dockerfile_build_step()
    assert build_env["DEBUG"] == "false"
    run(build, base_env(**build_env, STATIC_ROOT=str(static_root)))
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    assert HASHED.search(manifest["js/sheet/main.js"])
    main_js = (static_root / manifest["js/sheet/main.js"]).read_text()
    # the entry module imports the hashed names: a tablet never mixes two deployments
    assert f'"./{Path(manifest["js/sheet/api.js"]).name}"' in main_js
    assert (static_root / f"{manifest['js/sheet/main.js']}.gz").exists()

    env = base_env(SECRET_KEY=SECRET, DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
                   CSRF_TRUSTED_ORIGINS="https://127.0.0.1", TRUSTED_PROXY="true",
                   STATIC_ROOT=str(static_root), DATABASE_URL=database_url,
                   DB_CONN_MAX_AGE="0", LOG_FORMAT="text")
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    out = run([sys.executable, "manage.py", "demo", "--admin", "smoke"], env)
    password = re.search(r"password “([^”]+)”", out).group(1)

    port = free_port()
    # the image's command, on this machine's loopback
    server = Server(dockerfile_command(), {**env, "HOST": "127.0.0.1", "PORT": str(port)},
                    port, tmp_path / "production.log", https=True)
    try:
        names = prepare(server, password)
        anonymous = server.get(f"/p/{names['slug']}/")
        assert anonymous[0] == 200 and b"/static/css/app." in anonymous[2]
        assets = fetch_everything(server, public_pages(names), hashed=True)
        server.log_in("smoke", password)
        assets |= fetch_everything(server, staff_pages(names), hashed=True)
        # hashed files are cached for good, and sent compressed to a browser that asks
        status, headers, _body = server.get(next(a for a in assets if HASHED.search(a)),
                                            **{"Accept-Encoding": "gzip"})
        assert status == 200 and "immutable" in headers.get("Cache-Control", "")
        assert headers.get("Content-Encoding") == "gzip"
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "production.log").read_text()

    # the same data served as `make venue` serves it: plain HTTP, no build step
    port = free_port()
    venue = venue_environment(
        base_env(DATABASE_URL=database_url, DB_CONN_MAX_AGE="0", LOG_FORMAT="text"),
        address="127.0.0.1", port=port, secret_key=SECRET)
    server = Server(venue_args(bind=f"127.0.0.1:{port}"), venue, port,
                    tmp_path / "venue.log", https=False)
    try:
        status, headers, _body = server.get("/", **{"X-Forwarded-Proto": "https"})
        assert status == 200
        fetch_everything(server, public_pages(names), hashed=False)
        server.log_in("smoke", password)
        fetch_everything(server, staff_pages(names), hashed=False)
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "venue.log").read_text()
