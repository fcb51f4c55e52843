"""Strict parsing of the environment: nonsense is an error, not a default."""

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    SQLITE_OPTIONS,
    env_bool,
    env_int,
    env_list,
    parse_database_url,
    parse_redis_url,
)

BASE = Path("/srv/app")


@pytest.mark.parametrize("raw,expected", [("1", True), ("true", True), ("YES", True),
                                          ("on", True), ("0", False), ("false", False),
                                          ("no", False), ("off", False), ("", False)])
def test_env_bool_accepts_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", not expected) is expected


@pytest.mark.parametrize("raw", ["ture", "2", "maybe"])
def test_env_bool_refuses_nonsense(monkeypatch, raw):
    monkeypatch.setenv("X_FLAG", raw)
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG", False)


def test_env_bool_default_when_absent(monkeypatch):
    monkeypatch.delenv("X_FLAG", raising=False)
    assert env_bool("X_FLAG", True) is True


def test_env_int_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("X_NUM", "12a")
    with pytest.raises(ImproperlyConfigured):
        env_int("X_NUM", 1)
    monkeypatch.setenv("X_NUM", "42")
    assert env_int("X_NUM", 1) == 42


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("X_HOSTS", "a.example, b.example,,")
    assert env_list("X_HOSTS", []) == ["a.example", "b.example"]


def test_sqlite_url_relative_to_project():
    assert parse_database_url("sqlite:///db.sqlite3", BASE) == {
        "ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/app/db.sqlite3",
        "OPTIONS": SQLITE_OPTIONS}


def test_sqlite_url_absolute():
    assert parse_database_url("sqlite:////var/db/x.db", BASE)["NAME"] == "/var/db/x.db"


def test_postgres_url_parts():
    cfg = parse_database_url("postgres://u:p%40ss@db.local:6543/stich?sslmode=require", BASE)
    assert cfg["ENGINE"] == "django.db.backends.postgresql"
    assert (cfg["USER"], cfg["PASSWORD"], cfg["HOST"], cfg["PORT"], cfg["NAME"]) == (
        "u", "p@ss", "db.local", "6543", "stich")
    assert cfg["OPTIONS"] == {"sslmode": "require"}


@pytest.mark.parametrize("url", ["mysql://x/y", "postgres://host", "postgres:///name",
                                 "sqlite://host/db", "postgres://h:port/db", "nonsense"])
def test_bad_database_urls_are_refused(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url, BASE)


@pytest.mark.parametrize("url", ["http://x:6379", "redis://", "redis://h:xx/0"])
def test_bad_redis_urls_are_refused(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        parse_redis_url(url)


def test_settings_refuse_missing_secret_key_without_debug(tmp_path):
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "DEBUG": "false"}
    proc = subprocess.run(
        [sys.executable, "-c", "import config.settings"], env=env, capture_output=True,
        text=True, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode != 0
    assert "SECRET_KEY must be set" in proc.stderr
