"""The club's network: SITE_URL builds every printed link, `make venue` serves the app on
the laptop's LAN address."""

import ipaddress
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config.env import env_site_url
from config.venue import (
    Candidate,
    banner,
    candidates_from_ifconfig,
    candidates_from_ip_json,
    choose_address,
    interface_candidates,
    lan_address,
    site_url,
    stored_secret_key,
    venue_environment,
    venue_port,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("raw,expected", [
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ("https://skat.example.org/", "https://skat.example.org"),
    ("http://[fd00::5]:8000", "http://[fd00::5]:8000"),
])
def test_site_url_is_a_scheme_and_a_host(monkeypatch, raw, expected):
    monkeypatch.setenv("X_SITE", raw)
    assert env_site_url("X_SITE") == expected


@pytest.mark.parametrize("raw", ["192.168.1.20:8000", "ftp://host", "http://", "https://x/app",
                                 "http://x?y=1", "http://user:pw@x", "http://x:99999",
                                 "http://x:port"])
def test_a_bad_site_url_is_refused_by_name(monkeypatch, raw):
    monkeypatch.setenv("X_SITE", raw)
    with pytest.raises(ImproperlyConfigured, match="X_SITE"):
        env_site_url("X_SITE")


def test_a_bad_site_url_stops_the_app_at_start():
    env = {**os.environ, "DEBUG": "true", "SITE_URL": "skat.example.org/app"}
    env.pop("DATABASE_URL", None)
    run = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert run.returncode != 0 and "SITE_URL" in run.stderr


def test_venue_environment_accepts_the_lan_address_and_builds_links_from_it():
    env = venue_environment({"PATH": "/bin"}, address="192.168.1.20", port=8000,
                            secret_key="k" * 50)
    assert env["SITE_URL"] == "http://192.168.1.20:8000"
    assert env["ALLOWED_HOSTS"].split(",") == ["192.168.1.20", "127.0.0.1", "localhost"]
    assert "http://192.168.1.20:8000" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert env["SECURE_SSL_REDIRECT"] == "false" and env["SECURE_COOKIES"] == "false"
    assert env["DEBUG"] == "false" and env["PATH"] == "/bin"


def test_venue_keeps_what_the_club_set_itself():
    env = venue_environment({"SITE_URL": "https://skat.example.org", "SECRET_KEY": "own"},
                            address="10.0.0.5", port=8000, secret_key="generated")
    assert env["SITE_URL"] == "https://skat.example.org" and env["SECRET_KEY"] == "own"


def test_venue_port_and_address():
    assert venue_port({}) == 8000 and venue_port({"VENUE_PORT": "8080"}) == 8080
    for bad in ("0", "70000", "http", "8²"):
        with pytest.raises(SystemExit, match="VENUE_PORT"):
            venue_port({"VENUE_PORT": bad})
    assert site_url("fd00::5", 80) == "http://[fd00::5]"
    ipaddress.ip_address(lan_address())  # an address, loopback when there is no network


# `ip -j -4 addr show` of a laptop on the club's Wi-Fi, with a cable unplugged (no UP), a
# container bridge, a VPN, a second address on the Wi-Fi and an interface without IPv4 ({})
IP_JSON = """[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"addr_info":[
 {"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo"}]},
 {"ifindex":2,"ifname":"enp0s31f6","flags":["NO-CARRIER","BROADCAST","MULTICAST"],
  "addr_info":[{"family":"inet","local":"10.0.0.7","prefixlen":24,"label":"enp0s31f6"}]},
 {"ifindex":3,"ifname":"wlp2s0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],
  "addr_info":[{"family":"inet","local":"192.168.1.20","prefixlen":24,"label":"wlp2s0"},
               {"family":"inet","local":"192.168.1.21","prefixlen":24,"label":"wlp2s0:1"}]},
 {},
 {"ifindex":5,"ifname":"docker0","flags":["NO-CARRIER","BROADCAST","MULTICAST","UP"],
  "addr_info":[{"family":"inet","local":"172.17.0.1","prefixlen":16,"label":"docker0"}]},
 {"ifindex":6,"ifname":"tun0","flags":["POINTOPOINT","NOARP","UP","LOWER_UP"],
  "addr_info":[{"family":"inet","local":"10.8.0.3","prefixlen":24,"label":"tun0"}]}]"""

MACOS_IFCONFIG = """lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> mtu 16384
\toptions=1203<RXCSUM,TXCSUM,TXSTATUS,SW_TIMESTAMP>
\tinet 127.0.0.1 netmask 0xff000000
\tinet6 ::1 prefixlen 128
en0: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500
\tether a4:83:e7:00:00:01
\tinet6 fe80::1c%en0 prefixlen 64 secured scopeid 0x6
\tinet 192.168.1.20 netmask 0xffffff00 broadcast 192.168.1.255
\tstatus: active
en1: flags=8822<BROADCAST,SMART,SIMPLEX,MULTICAST> mtu 1500
\tinet 10.0.0.7 netmask 0xffffff00 broadcast 10.0.0.255
bridge100: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500
\tinet 192.168.2.1 netmask 0xffffff00 broadcast 192.168.2.255
"""

NET_TOOLS_IFCONFIG = """eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500
        inet 192.168.1.20  netmask 255.255.255.0  broadcast 192.168.1.255
        ether 52:54:00:12:34:56  txqueuelen 1000  (Ethernet)

lo: flags=73<UP,LOOPBACK,RUNNING>  mtu 65536
        inet 127.0.0.1  netmask 255.0.0.0

wlan0     Link encap:Ethernet  HWaddr 00:11:22:33:44:55
          inet addr:10.77.2.1  Bcast:10.77.2.255  Mask:255.255.255.0
          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1

eth1      Link encap:Ethernet  HWaddr 00:11:22:33:44:56
          inet addr:10.0.0.7  Bcast:10.0.0.255  Mask:255.255.255.0
          BROADCAST MULTICAST  MTU:1500  Metric:1
"""

@pytest.fixture(autouse=True)
def _terminal_in_english(monkeypatch):
    """The venue's terminal speaks the laptop's language: these tests read English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGUAGE", "en")


WIFI, BRIDGE, VPN = (Candidate("wlp2s0", "192.168.1.20"), Candidate("docker0", "172.17.0.1"),
                     Candidate("tun0", "10.8.0.3"))


def test_the_candidates_are_the_ipv4_addresses_of_interfaces_that_are_up():
    assert candidates_from_ip_json(IP_JSON) == [
        WIFI, Candidate("wlp2s0", "192.168.1.21"), BRIDGE, VPN]
    assert candidates_from_ip_json("[]") == []
    assert candidates_from_ifconfig(MACOS_IFCONFIG) == [
        Candidate("en0", "192.168.1.20"), Candidate("bridge100", "192.168.2.1")]
    assert candidates_from_ifconfig(NET_TOOLS_IFCONFIG) == [
        Candidate("eth0", "192.168.1.20"), Candidate("wlan0", "10.77.2.1")]
    with pytest.raises(ValueError):  # not JSON: the next way of reading them is tried
        candidates_from_ip_json("Option \"-j\" is unknown")


def test_this_machine_has_candidates_and_the_routed_one_among_them():
    found = interface_candidates()
    for candidate in found:
        assert ipaddress.ip_address(candidate.address).version == 4
        assert not ipaddress.ip_address(candidate.address).is_loopback and candidate.interface
    if lan_address() != "127.0.0.1":
        assert lan_address() in {c.address for c in found}


def test_the_named_address_is_taken_when_it_is_the_laptops():
    assert choose_address([WIFI, BRIDGE, VPN], " 172.17.0.1 ", routed="192.168.1.20") == (
        "172.17.0.1", [])
    address, notes = choose_address([WIFI], "127.0.0.1", routed="192.168.1.20")
    assert address == "127.0.0.1" and "only this laptop" in notes[0].lower()


@pytest.mark.parametrize("named", ["192.168.1.99", "192.168.1.20.5", "laptop", "fd00::5",
                                   "0.0.0.0"])
def test_an_address_that_is_not_the_laptops_stops_the_start_listing_the_candidates(named):
    with pytest.raises(SystemExit) as stop:
        choose_address([WIFI, BRIDGE, VPN], named, routed="192.168.1.20")
    message = str(stop.value.code)
    assert named in message and "not an IPv4 address of this laptop" in message
    for candidate in (WIFI, BRIDGE, VPN):
        assert candidate.address in message and candidate.interface in message
    assert "make venue ADDRESS=192.168.1.20" in message
    with pytest.raises(SystemExit, match="no network address besides"):
        choose_address([], named, routed="127.0.0.1")


def test_named_none_the_routed_address_is_taken_and_the_director_told_how_to_choose():
    address, notes = choose_address([BRIDGE, WIFI, VPN], "", routed="192.168.1.20")
    assert address == "192.168.1.20"
    assert "192.168.1.20 (wlp2s0)" in notes[0] and "route to the internet" in notes[0]
    assert "make venue ADDRESS=172.17.0.1" in notes[1]
    # the club's Wi-Fi without internet: no route, the first one, said so
    address, notes = choose_address([WIFI, BRIDGE], "", routed="127.0.0.1")
    assert address == "192.168.1.20" and "the first one" in notes[0]
    assert choose_address([WIFI], "", routed="192.168.1.20") == ("192.168.1.20", [])
    address, notes = choose_address([], "", routed="127.0.0.1")
    assert address == "127.0.0.1" and "No network found" in notes[0]


def test_the_terminal_lists_the_candidates_marks_the_one_in_use_and_says_why():
    choice = choose_address([WIFI, BRIDGE], "", routed="192.168.1.20")
    lines = banner([WIFI, BRIDGE], choice, environ={}, port=8000,
                   url="http://192.168.1.20:8000")
    assert lines[1:4] == ["Addresses of this laptop:",
                          "  192.168.1.20  wlp2s0  ← in use",
                          "  172.17.0.1    docker0"]
    assert lines[4:6] == choice.notes
    assert "Stichliste for the tables: http://192.168.1.20:8000/" in lines
    assert "Director's console:        http://192.168.1.20:8000/console/" in lines
    # an exported SITE_URL (an HTTPS proxy, or an old evening's workaround) is said to win
    lines = banner([WIFI], choose_address([WIFI], "", routed="192.168.1.20"),
                   environ={"SITE_URL": "https://skat.example.org"}, port=8000,
                   url="https://skat.example.org")
    assert any("SITE_URL" in line and "https://skat.example.org." in line for line in lines)


@pytest.mark.parametrize("language,expected", [
    ("en", "is not an IPv4 address of this laptop"),
    ("de", "ist keine IPv4-Adresse dieses Laptops"),
])
def test_make_venue_with_an_address_not_the_laptops_exits_with_the_list(language, expected):
    """The real ``make venue ADDRESS=…`` (its install step left out), in the laptop's
    language: the message and the candidates, a failed exit, no traceback, nothing served
    (the port is nonsense, so a start that went on would stop at it, naming it)."""
    env = {**os.environ, "LANGUAGE": language, "VENUE_PORT": "x"}
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", "/nowhere/.installed", "venue",
         "VENV=/nowhere", f"PY={sys.executable}", "ADDRESS=203.0.113.77"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "VENUE_PORT" not in done.stderr
    assert "203.0.113.77" in done.stderr and expected in done.stderr
    for candidate in interface_candidates():
        assert candidate.address in done.stderr and candidate.interface in done.stderr
    # the environment's name for it, without make
    env["VENUE_ADDRESS"] = "203.0.113.78"
    done = subprocess.run([sys.executable, "-m", "config.venue"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "203.0.113.78" in done.stderr and expected in done.stderr


def test_the_venue_secret_key_is_kept_between_evenings(tmp_path):
    path = tmp_path / "secret"
    first = stored_secret_key(path)
    assert len(first) >= 50 and stored_secret_key(path) == first
    assert oct(path.stat().st_mode)[-3:] == "600"


@pytest.mark.django_db
def test_table_cards_and_entry_url_use_site_url(settings, director, director_client, drawn,
                                               short_skat):
    settings.SITE_URL = "http://192.168.1.20:8000"
    table = drawn["tables"][0]
    resp = director_client.get(f"/api/v1/tables/{table['id']}/")
    assert resp.json()["entry_url"] == (
        f"http://192.168.1.20:8000/t/{table['entry_token']}/")
    browser = Client()
    browser.force_login(director)
    cards = browser.get(f"/console/t/{short_skat.pk}/rounds/1/cards/").content.decode()
    assert f"http://192.168.1.20:8000/t/{table['entry_token']}/" in cards
    assert "http://testserver/t/" not in cards


@pytest.mark.django_db
def test_without_site_url_links_follow_the_request(settings, director_client, drawn):
    settings.SITE_URL = None
    table = drawn["tables"][0]
    resp = director_client.get(f"/api/v1/tables/{table['id']}/")
    assert resp.json()["entry_url"] == f"http://testserver/t/{table['entry_token']}/"
