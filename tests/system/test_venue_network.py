"""``make venue`` on a laptop with two networks, and a tablet on the second one.

Two network namespaces, each joined to this machine by a veth pair, give the machine two
more addresses on two networks of their own (``10.77.a.1`` and ``10.77.b.1``); a process
started inside a namespace is a *tablet* on that network: it reaches the machine at that
network's address only (no default route), exactly the situation in which the address of
the route to the internet gave the tablets unreachable QR codes. The real ``python -m
config.venue`` is started with ``VENUE_ADDRESS`` naming the second network's address, on the
database of this pass; a tablet on the second network opens the URL that a printed table
card's QR code encodes and enters a deal through the tablet's API path, as the sheet's
script does.

Namespaces need root and ``ip netns``: without them the test is skipped on a developer's
machine and fails in CI (``CI=true``), where it must run. The namespaces and veth pairs are
removed whatever happens.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys

import pytest

from config.venue import lan_address
from tests.system.conftest import free_port
from tests.system.servers import SECRET, Server, base_env, run

# serial: the namespaces and their links have fixed names
pytestmark = pytest.mark.serial

SKAT_DEAL = {"number": 1, "declarer": 2, "game": "spades", "matadors": 2, "won": True}
CARD = re.compile(r'<div class="qr">(<svg.*?</svg>)</div>\s*'
                  r'<p class="card-url"><small>([^<]+)</small></p>', re.S)

# The tablet, run inside a namespace with this Python and nothing but the standard library:
# open the QR code's URL, read the sheet's configuration from the page (as context.js does)
# and send the deal to the table's API with the table token (as api.js does).
TABLET = r"""
import json, re, sys, urllib.error, urllib.request

url, deal = sys.argv[1], json.loads(sys.argv[2])
with urllib.request.urlopen(url, timeout=30) as resp:
    page = resp.read().decode()
cfg = json.loads(re.search(r'<script id="sheet-config" type="application/json">(.*?)</script>',
                           page, re.S).group(1))
req = urllib.request.Request(
    urllib.request.urljoin(url, cfg["api"] + "deals/"), data=json.dumps(deal).encode(),
    method="POST", headers={"Content-Type": "application/json", "Accept-Language": "de",
                            "Authorization": "Table " + cfg["token"],
                            "Idempotency-Key": "venue-network-test-0001"})
try:
    with urllib.request.urlopen(req, timeout=30) as resp:
        status, body = resp.status, json.loads(resp.read())
except urllib.error.HTTPError as err:
    status, body = err.code, err.read().decode(errors="replace")
print(json.dumps({"api": cfg["api"], "status": status, "body": body}))
"""

REACH = r"""
import sys, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=5)
except OSError as err:
    print("unreachable:", err)
else:
    print("reached")
"""


def _ip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)


def _free_subnets(count: int) -> list[int]:
    """Third octets ``n`` of ``10.77.n.0/24`` networks no interface or route here uses."""
    used = _ip("-4", "addr").stdout + _ip("-4", "route").stdout
    free = [n for n in range(1, 255) if f"10.77.{n}." not in used]
    return random.sample(free, count)


class Network:
    """A namespace joined to this machine: the machine is ``10.77.n.1`` on it, the
    namespace (the tablet) ``10.77.n.2``."""

    def __init__(self, tag: str, n: int):
        self.namespace, self.host_link = f"stichliste-{tag}", f"stl{tag}"
        self.host, self.tablet = f"10.77.{n}.1", f"10.77.{n}.2"

    def create(self) -> None:
        steps = [
            ("netns", "add", self.namespace),
            ("link", "add", self.host_link, "type", "veth", "peer", "name", f"{self.host_link}t"),
            ("link", "set", f"{self.host_link}t", "netns", self.namespace),
            ("addr", "add", f"{self.host}/24", "dev", self.host_link),
            ("link", "set", self.host_link, "up"),
            ("-n", self.namespace, "addr", "add", f"{self.tablet}/24", "dev",
             f"{self.host_link}t"),
            ("-n", self.namespace, "link", "set", f"{self.host_link}t", "up"),
            ("-n", self.namespace, "link", "set", "lo", "up"),
        ]
        for step in steps:
            done = _ip(*step)
            if done.returncode:
                raise OSError(f"ip {' '.join(step)}: {done.stderr.strip()}")

    def remove(self) -> None:
        # deleting the namespace deletes the veth end in it, and so its pair
        _ip("netns", "del", self.namespace)
        _ip("link", "del", self.host_link)

    def python(self, code: str, *args: str) -> str:
        done = subprocess.run(["ip", "netns", "exec", self.namespace, sys.executable, "-c",
                               code, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout


@pytest.fixture
def two_networks(request) -> tuple[Network, Network]:
    """Two networks of this machine; skipped where namespaces cannot be made, except in
    CI, which must run this test."""
    reason = None
    if os.geteuid() != 0 or shutil.which("ip") is None:
        reason = "network namespaces need root and the ip program"
    else:
        tag = secrets.token_hex(3)
        a, b = _free_subnets(2)
        networks = Network(f"{tag}a", a), Network(f"{tag}b", b)
        try:
            for network in networks:
                request.addfinalizer(network.remove)
                network.create()
        except OSError as err:
            reason = f"network namespaces cannot be made here: {err}"
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI must run this test)")
        pytest.skip(reason)
    return networks


def card_qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (row, column) of a QR code drawn by segno as one SVG path of
    horizontal lines (``M``/``m`` moves, ``h`` lines), counted from the top-left module."""
    path = re.search(r'\sd="([^"]+)"', svg).group(1)
    x = y = 0.0
    dark = set()
    for command, numbers in re.findall(r"([MmHh])([-\d.\s]+)", path):
        values = [float(v) for v in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            end = values[0] if command == "H" else x + values[0]
            dark.update((int(y), col) for col in range(int(x), int(end)))
            x = end
    top, left = min(r for r, _c in dark), min(c for _r, c in dark)
    return {(r - top, c - left) for r, c in dark}


def encodes(svg: str, url: str) -> bool:
    """Whether the card's code is the QR code of ``url`` (segno writes codes, it does not
    read them: the card's modules must be those of the code for ``url`` at some level)."""
    import segno

    drawn = card_qr_modules(svg)
    for error in "lmqh":
        code = segno.make(url, error=error)
        if drawn == {(r, c) for r, row in enumerate(code.matrix)
                     for c, value in enumerate(row) if value}:
            return True
    return False


@pytest.mark.django_db
def test_a_tablet_on_the_named_network_opens_the_table_card_and_enters_a_deal(
        tmp_path, database_url, two_networks):
    first, second = two_networks
    env = base_env(SECRET_KEY=SECRET, DATABASE_URL=database_url, DB_CONN_MAX_AGE="0",
                   LOG_FORMAT="text", ALLOWED_HOSTS="127.0.0.1", STATIC_COLLECTED="false")
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    out = run([sys.executable, "manage.py", "demo", "--admin", "smoke"], env)
    password = re.search(r"password “([^”]+)”", out).group(1)

    port = free_port()
    venue = base_env(SECRET_KEY=SECRET, DATABASE_URL=database_url, DB_CONN_MAX_AGE="0",
                     LOG_FORMAT="text", LANGUAGE="en", VENUE_PORT=str(port),
                     VENUE_ADDRESS=second.host)
    log = tmp_path / "venue.log"
    # the real start, as `make venue ADDRESS=10.77.b.1` runs it
    server = Server([sys.executable, "-m", "config.venue"], venue, port, log, https=False)
    try:
        # it listed both of the machine's new networks by interface, and took the named one
        started = log.read_text()
        assert re.search(rf"^  {re.escape(first.host)} +{first.host_link}$", started, re.M)
        assert re.search(rf"^  {re.escape(second.host)} +{second.host_link}  ← in use$",
                         started, re.M), started
        site = f"http://{second.host}:{port}"
        assert f"Stichliste for the tables: {site}/" in started

        status, body = server.api("POST", "/api/v1/auth/token/",
                                  {"username": "smoke", "password": password})
        assert status == 200, body
        staff = f"Token {body['token']}"
        status, body = server.api("GET", "/api/v1/tournaments/", auth=staff)
        tid = body["results"][0]["id"]
        status, drawn = server.api("POST", f"/api/v1/tournaments/{tid}/rounds/",
                                   {"method": "random", "seed": 7}, auth=staff)
        assert status == 201, drawn
        table = drawn["tables"][0]
        assert table["entry_url"] == f"{site}/t/{table['entry_token']}/"

        # the printed table card: its QR code encodes the link on the second network
        server.log_in("smoke", password)
        status, _headers, page = server.get(f"/console/t/{tid}/rounds/1/cards/")
        assert status == 200
        cards = {html.unescape(url): svg for svg, url in CARD.findall(page.decode())}
        url = table["entry_url"]
        assert url in cards, sorted(cards)
        assert encodes(cards[url], url)

        # the tablet on the second network: the QR code's URL, then a deal
        done = json.loads(second.python(TABLET, url, json.dumps(SKAT_DEAL)))
        assert done["status"] == 201, done
        assert done["api"] == f"/api/v1/tables/{table['id']}/"
        status, deals = server.api("GET", f"/api/v1/tables/{table['id']}/deals/", auth=staff)
        assert status == 200, deals
        listed = deals["results"] if isinstance(deals, dict) else deals
        assert [deal["number"] for deal in listed] == [1]

        # what the old start advertised, the address of the route to the internet, is not
        # reachable from there (the namespace has no route out)
        routed = lan_address()
        if routed not in ("127.0.0.1", second.host):
            reached = second.python(REACH, f"http://{routed}:{port}/healthz")
            assert reached.startswith("unreachable"), reached
    finally:
        server.stop()
    assert "Traceback" not in log.read_text()
