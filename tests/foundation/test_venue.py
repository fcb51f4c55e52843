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
