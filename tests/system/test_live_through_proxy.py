"""The live pages through the image's proxy (``deploy/nginx``, Debian's nginx) before two
of the image's gunicorn servers (web and the tables' entry), on PostgreSQL and a real
Redis (the versions of ``tournaments.freshness``) with a Celery worker recomputing:

- the board's part is rendered once per proxy lifetime for all anonymous readers, and a
  deal shows on it and on the player's live part within that lifetime and a recompute;
- a hidden tournament never enters the shared cache: its director's reads pass by it,
  the public's 404 is not kept, and it shows at the next request once published;
- unpublishing: the app answers 404 at once, the proxy's copy outlives it by at most its
  lifetime; revoking a staff token and erasing a person (private answers, never kept)
  take effect at the next request;
- push: a deal at a table reaches its players' subscriptions (``tournaments.push``, the
  proxy's pub/sub module) at once, and their live part fetched then shows it; the
  publisher's port answers the app only, the clients' port publishes nothing;
- two servers of each pool behind the one proxy (compose's ``--scale``): the pages go
  round, a table's requests reach one entry server, the kept public answers go round the
  board servers, and a deal entered through one shows at once on a page answered by
  either (the versions are shared in Redis).
"""

from __future__ import annotations

import gzip
import json
import re
import socket

import pytest

from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tests.system.conftest import celery_worker, needs_services, service_env, wait_for
from tests.system.servers import Server, nginx_needed, proxied
from tournaments.freshness import SHARED_SECONDS
from tournaments.models import Table
from tournaments.selectors import ranks_page_of
from tournaments.services import round_draw, tournament_create

pytestmark = [needs_services, pytest.mark.django_db(transaction=True)]

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}  # 24 + 50


@pytest.fixture
def proxy(redis_server, processes, tmp_path):
    """nginx before web, entry and board (one worker each), and a Celery worker."""
    nginx_needed()
    env = service_env(redis_server, TRUSTED_PROXY="true", NUM_PROXIES="1", LOG_FORMAT="text",
                      STATIC_ROOT=str(tmp_path / "static"))
    servers = {}
    try:
        proxy = proxied(env, tmp_path, servers, https=False)
        worker = celery_worker(env, tmp_path / "worker.log")
        worker.start()
        processes.append(worker)
        yield proxy, servers["web"]
    finally:
        for server in servers.values():
            server.stop()
    for name in ("web", "entry", "board"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text()


@pytest.fixture
def scaled(redis_server, processes, tmp_path):
    """nginx before two web, two entry and two board servers (one worker each): the proxy
    and the servers by name (web, web2, entry, entry2, board, board2)."""
    nginx_needed()
    env = service_env(redis_server, TRUSTED_PROXY="true", NUM_PROXIES="1", LOG_FORMAT="text",
                      STATIC_ROOT=str(tmp_path / "static"))
    servers = {}
    try:
        yield proxied(env, tmp_path, servers, https=False, each=2), servers
    finally:
        for server in servers.values():
            server.stop()
    for name in ("web", "web2", "entry", "entry2", "board", "board2"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text()


def championship(published=True):
    """A Skat tournament of eight, its first round drawn."""
    club = ClubFactory()
    tournament = tournament_create(name="Hallenturnier", game="skat", club=club,
                                   published=published)
    for n in range(8):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=5)
    return tournament, Table.objects.filter(round=rnd).order_by("number").first()


def enter_deal(proxy: Server, table, number: int) -> tuple[int, bytes]:
    """The table's tablet enters deal ``number`` (clubs won) through the proxy."""
    status, _h, body = proxy.request(
        "POST", f"/api/v1/tables/{table.pk}/deals/",
        json.dumps({"number": number, **CLUBS_WON}).encode(),
        {"Authorization": f"Table {table.entry_token}", "Content-Type": "application/json"})
    return status, body


def settled(web: Server, tournament) -> None:
    """Wait until the standings' answer holds still (the worker may be recomputing)."""
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    tags = []

    def still():
        tags.append(anonymous(web, url)[1]["ETag"])
        return len(tags) > 2 and tags[-1] == tags[-2] == tags[-3]

    wait_for(still, 60, "the standings to hold still")


def anonymous(server: Server, path: str, **headers):
    """A phone without cookies."""
    server.cookies.clear()
    return server.get(path, **headers)


def test_a_deal_shows_on_the_board_and_the_players_page_within_a_lifetime(proxy):
    proxy, web = proxy
    tournament, table = championship()
    settled(web, tournament)
    part = f"/p/{tournament.slug}/standings/"
    seat = table.seats.get(seat=1)
    live = f"/me/{seat.participant.personal_token}/live/"
    status, headers, before = anonymous(proxy, part)
    assert status == 200 and headers["Cache-Control"] == f"public, max-age={SHARED_SECONDS}"
    status, headers, again = anonymous(proxy, part)
    assert headers["X-Cache"] in ("HIT", "UPDATING") and again == before  # one render
    status, headers, _ = anonymous(proxy, part, **{"If-None-Match": headers["ETag"]})
    assert status == 304
    status, headers, mine = anonymous(proxy, live)
    assert status == 200 and headers["Cache-Control"] == "private, no-cache"
    assert anonymous(proxy, live, **{"If-None-Match": headers["ETag"]})[0] == 304
    status, body = enter_deal(proxy, table, 1)
    assert status == 201, body
    wait_for(lambda: b'class="num score">74<' in anonymous(proxy, part)[2],
             SHARED_SECONDS + 60, "the deal on the board's part")
    wait_for(lambda: b'class="deal-row' in anonymous(proxy, live)[2],
             SHARED_SECONDS + 60, "the deal on the player's live part")
    # the card of the player's table, at the URL of the table's version as its push
    # message names it: rendered once for the table's phones, the deal on it at once
    card = re.search(rb'data-card-url="([^"]+)"', mine).group(1).decode()
    status, headers, shown = anonymous(proxy, f"{card}?v=after-deal-1")
    assert status == 200 and b'class="deal-row' in shown
    assert headers["Cache-Control"] == f"public, max-age={SHARED_SECONDS}"
    status, headers, again = anonymous(proxy, f"{card}?v=after-deal-1")
    assert headers["X-Cache"] in ("HIT", "UPDATING") and again == shown
    # the declarer's standing, polled by their page from the shared ranks part
    declarer = table.seats.get(seat=2).participant
    ranks = f"/p/{tournament.slug}/ranks/{declarer.pk // 128}/"

    def score():
        found = json.loads(anonymous(proxy, ranks)[2])["standings"]
        return found.get(str(declarer.pk), {}).get("score")

    wait_for(lambda: score() == "74", SHARED_SECONDS + 60, "the deal in the standing")
    anonymous(proxy, ranks)
    status, headers, _ = anonymous(proxy, ranks)
    assert status == 200 and headers["X-Cache"] in ("HIT", "UPDATING")  # one render


def test_the_proxy_keeps_the_apps_compressed_answer_for_every_client(proxy):
    """What is kept is kept as the app compressed it, once (config/compression.py): the
    same bytes to every phone that accepts gzip, decompressed for one that does not."""
    proxy, web = proxy
    tournament, _table = championship()
    settled(web, tournament)
    part = f"/p/{tournament.slug}/standings/"
    status, headers, packed = anonymous(proxy, part, **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    status, headers, plain = anonymous(proxy, part)
    assert status == 200 and headers["X-Cache"] in ("HIT", "UPDATING")  # the kept one
    assert "Content-Encoding" not in headers and gzip.decompress(packed) == plain
    assert b'class="data standings"' in plain
    # the app's own bytes, not compressed anew per client
    assert anonymous(web, part, **{"Accept-Encoding": "gzip"})[2] == packed


def test_the_board_and_its_print_are_rendered_once_for_every_reader(proxy):
    """No page carries its reader's CSRF token (config/urls.py): the proxy keeps the
    board's page and print as it keeps its parts, and a reader still switches the
    language through it."""
    proxy, _web = proxy
    tournament, _table = championship()
    for path in (f"/p/{tournament.slug}/", f"/p/{tournament.slug}/print/"):
        status, headers, first = anonymous(proxy, path)
        assert status == 200 and headers["Cache-Control"] == f"public, max-age={SHARED_SECONDS}"
        assert headers["Set-Cookie"] is None
        status, headers, again = anonymous(proxy, path)
        assert headers["X-Cache"] in ("HIT", "UPDATING") and again == first, path
    proxy.cookies.clear()
    status, headers, _body = proxy.request(
        "POST", "/i18n/setlang/", f"language=en&next=/p/{tournament.slug}/".encode(),
        {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302 and headers["Location"] == f"/p/{tournament.slug}/"
    status, headers, page = proxy.get(f"/p/{tournament.slug}/")
    assert status == 200 and headers["Content-Language"] == "en"


def test_a_hidden_tournament_never_enters_the_shared_cache(proxy):
    proxy, _web = proxy
    tournament, table = championship(published=False)
    part = f"/p/{tournament.slug}/standings/"
    director = StaffFactory(username="leitung")
    director.set_password("geheim-123456")
    director.save()
    tournament.directors.add(director)
    proxy.cookies.clear()
    proxy.log_in("leitung", "geheim-123456")
    for _ in range(2):
        status, headers, _body = proxy.get(part)
        assert status == 200 and headers["Cache-Control"] == "private, no-store"
        assert headers["X-Cache"] == "BYPASS"
    ranks = f"/p/{tournament.slug}/ranks/{table.seats.first().participant_id // 128}/"
    for _ in range(2):  # the public: not found, and nothing kept
        for url in (part, ranks):
            status, headers, _body = anonymous(proxy, url)
            assert status == 404 and headers["X-Cache"] != "HIT"
    tournament.published = True
    tournament.save()
    assert anonymous(proxy, part)[0] == 200  # the next request


def test_unpublishing_is_at_once_in_the_app_and_within_a_lifetime_at_the_proxy(proxy):
    proxy, web = proxy
    tournament, _table = championship()
    part = f"/p/{tournament.slug}/standings/"
    status, headers, _body = anonymous(proxy, part)
    assert status == 200
    tournament.published = False
    tournament.save()
    assert anonymous(web, part, **{"If-None-Match": headers["ETag"]})[0] == 404
    wait_for(lambda: anonymous(proxy, part)[0] == 404, SHARED_SECONDS + 2,
             "the proxy's copy to expire", interval=0.1)
    assert anonymous(proxy, part, **{"If-None-Match": headers["ETag"]})[0] == 404


def test_a_revoked_token_and_an_erased_person_take_effect_at_the_next_request(proxy):
    from rest_framework.authtoken.models import Token

    from clublife.services.privacy import player_erase

    proxy, web = proxy
    tournament, table = championship()
    settled(web, tournament)
    director = StaffFactory(username="turnierleitung")
    tournament.directors.add(director)
    token = Token.objects.create(user=director)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    auth = {"Authorization": f"Token {token.key}"}
    status, headers, _body = anonymous(proxy, url, **auth)
    assert status == 200 and headers["Cache-Control"] == "private, no-cache"
    assert anonymous(proxy, url, **auth, **{"If-None-Match": headers["ETag"]})[0] == 304
    token.delete()
    assert anonymous(proxy, url, **auth, **{"If-None-Match": headers["ETag"]})[0] == 401
    participant = table.seats.get(seat=2).participant
    live = f"/me/{participant.personal_token}/live/"
    status, headers, _body = anonymous(proxy, live)
    assert status == 200
    player_erase(player=participant.player)
    assert anonymous(proxy, live, **{"If-None-Match": headers["ETag"]})[0] == 404


class Subscription:
    """An EventSource's connection to the proxy's push (as a phone's browser opens it)."""

    def __init__(self, proxy: Server, path: str):
        self.sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.headers = {}
        while (line := self.file.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            self.headers[name.lower()] = value.strip()

    def message(self) -> str:
        """The next message's data (socket.timeout after 10 s without one)."""
        while line := self.file.readline():
            if line.startswith(b"data:"):
                return line[5:].strip().decode()
        raise AssertionError("the proxy closed the subscription")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_a_deal_is_pushed_to_the_players_pages_at_once(proxy):
    proxy, _web = proxy
    tournament, table = championship(published=False)  # push needs no shared cache
    live = f"/me/{table.seats.get(seat=1).participant.personal_token}/live/"
    status, headers, body = anonymous(proxy, live)
    assert status == 200
    channels = re.search(rb'data-push="(/push/[0-9a-f,]+)"', body).group(1).decode()
    # the tournament, its calls, the table's amendments, the table (its card)
    assert len(channels.removeprefix("/push/").split(",")) == 4
    card = re.search(rb'data-card-url="([^"]+)"', body).group(1).decode()
    stream = Subscription(proxy, channels)
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        status, answer = enter_deal(proxy, table, 1)
        assert status == 201, answer
        # the table's scope and its new version: the card is renewed, the live part not
        assert re.fullmatch(rf"tb{table.pk} [0-9a-f]{{16}}", stream.message())
        assert anonymous(proxy, live, **{"If-None-Match": headers["ETag"]})[0] == 304
        status, _h, after = anonymous(proxy, card)
        assert status == 200 and b'class="deal-row' in after
    finally:
        stream.close()


def test_only_the_app_publishes_and_a_malformed_subscription_is_refused(proxy):
    proxy, _web = proxy
    channel = "0" * 24
    status, _h, _body = proxy.request("POST", f"/pub/{channel}", b"x", {})
    assert status != 201  # the clients' port passes /pub/ to the app (no such page)
    for path in (f"/push/{channel}x", "/push/", "/push/" + ",".join([channel] * 65)):
        assert anonymous(proxy, path)[0] != 200


def test_a_players_phone_shows_a_deal_when_it_is_pushed(proxy, browser):
    """Chromium on the player's page through the proxy: its EventSource subscribes, and
    a deal shows on the card, the director's clock on the page, well before the next
    poll (10 s; pushed: a minute) could bring them."""
    from rest_framework.authtoken.models import Token

    proxy, _web = proxy
    tournament, table = championship()
    token = table.seats.get(seat=1).participant.personal_token
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    try:
        page = context.new_page()
        with page.expect_response(lambda r: "/push/" in r.url):
            page.goto(f"http://127.0.0.1:{proxy.port}/me/{token}/")
        assert page.locator("#me-live .deal-row").count() == 0
        status, answer = enter_deal(proxy, table, 1)
        assert status == 201, answer
        page.locator("#me-live .deal-row").first.wait_for(timeout=5000)
        # the whole tournament's message (the director starts the clock): each phone
        # asks within the spread (5 s), still before its next poll could
        director = StaffFactory(username="uhr")
        tournament.directors.add(director)
        status, _h, answer = proxy.request(
            "POST", f"/api/v1/tournaments/{tournament.pk}/rounds/1/clock/",
            json.dumps({"action": "start", "minutes": 90}).encode(),
            {"Authorization": f"Token {Token.objects.create(user=director).key}",
             "Content-Type": "application/json"})
        assert status == 200, answer
        page.locator('#me-live [data-clock][data-state="running"]').wait_for(
            timeout=8000)
    finally:
        context.close()


def logs(server: Server) -> str:
    return server.log.read_text()


def test_two_servers_share_the_pages_and_split_the_tables(scaled):
    proxy, servers = scaled
    tables = range(1, 21)
    for table in tables:
        for path in (f"/api/v1/tables/{table}/", f"/api/v1/tables/{table}/deals/"):
            status = proxy.request("GET", path, headers={"Authorization": "Table falsch"})[0]
            assert status == 401
    for _ in range(8):
        assert proxy.request("GET", "/api/v1/tournaments/")[0] == 200

    def lines(table: int) -> list[str]:  # the request lines of ``table`` each server logged
        return [f"GET /api/v1/tables/{table}/ 401 ", f"GET /api/v1/tables/{table}/deals/ 401 "]

    wait_for(lambda: all(any(line in logs(servers[name]) for name in ("entry", "entry2"))
                         for table in tables for line in lines(table)), 10, "the log lines")
    served = {name: [t for t in tables if any(line in logs(servers[name])
                                              for line in lines(t))]
              for name in ("entry", "entry2")}
    for table in tables:  # each table's requests, both paths, on one server only
        on = [name for name in served if table in served[name]]
        assert len(on) == 1, (table, on)
        assert all(line in logs(servers[on[0]]) for line in lines(table))
    assert served["entry"] and served["entry2"]  # the tables are split
    wait_for(lambda: all("GET /api/v1/tournaments/ 200 " in logs(servers[name])
                         for name in ("web", "web2")), 10, "both web servers' lines")
    for name in ("web", "web2"):
        assert "/api/v1/tables/" not in logs(servers[name])


def test_the_kept_public_answers_come_from_the_board_pool(scaled):
    """What the proxy keeps for all readers (the board's polled parts, the API's
    standings) waits neither behind the phones' own pages in web's queue nor before the
    deals in entry's: its own pool renders it, the servers of that pool in turn."""
    proxy, servers = scaled
    tournament, table = championship()
    player = table.seats.get(seat=1).participant
    kept = [f"/p/{tournament.slug}/standings/",
            f"/p/{tournament.slug}/ranks/{ranks_page_of(player.pk)}/",
            f"/api/v1/tournaments/{tournament.pk}/standings/"]
    pages = [f"/p/{tournament.slug}/", f"/me/{player.personal_token}/live/"]
    for path in kept + pages:
        assert anonymous(proxy, path)[0] == 200, path
    for language in ("de", "en", "fr", "nl"):  # kept apart by language: renders of their own
        assert anonymous(proxy, kept[0], **{"Accept-Language": language})[0] == 200

    def served(path: str, names: tuple[str, ...]) -> bool:
        return any(f"GET {path} 200 " in logs(servers[name]) for name in names)

    board, others = ("board", "board2"), ("web", "web2", "entry", "entry2")
    wait_for(lambda: all(served(p, board) for p in kept)
             and all(served(p, ("web", "web2")) for p in pages), 10, "the log lines")
    assert not any(served(p, others) for p in kept)
    assert not any(served(p, board) for p in pages)
    assert all(served(kept[0], (name,)) for name in board)  # in turn


def test_a_deal_through_one_server_shows_at_once_on_the_other(scaled):
    proxy, servers = scaled
    tournament, table = championship()
    card = f"/p/{tournament.slug}/tables/{table.pk}/card/"
    first, second = servers["web"], servers["web2"]
    status, headers, _body = anonymous(first, card)
    assert status == 200
    # one phone's ETag holds on either server while nothing changed
    assert anonymous(second, card, **{"If-None-Match": headers["ETag"]})[0] == 304
    status, answer = enter_deal(proxy, table, 1)
    assert status == 201, answer
    for server in (first, second):  # at once: the version is bumped before the 201
        status, _h, after = anonymous(server, card, **{"If-None-Match": headers["ETag"]})
        assert status == 200 and b'class="deal-row' in after
