"""TRUSTED_PROXY: X-Forwarded-Proto is believed only behind a proxy we run, never from
any client (and never under `make venue`, which has no proxy)."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.test import RequestFactory, override_settings

from config.venue import venue_environment

ROOT = Path(__file__).resolve().parents[2]
READ = "import config.settings as s; print(repr(s.SECURE_PROXY_SSL_HEADER))"


def settings_with(**env) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXY"}
    return subprocess.run([sys.executable, "-c", READ], cwd=ROOT, capture_output=True,
                          text=True, env={**base, "DEBUG": "false",
                                          "SECRET_KEY": "proxy-test-" + "k" * 50, **env})


def test_the_proxy_header_is_off_by_default_and_on_only_when_trusted():
    assert settings_with().stdout.strip() == "None"
    assert settings_with(TRUSTED_PROXY="false").stdout.strip() == "None"
    assert settings_with(TRUSTED_PROXY="true").stdout.strip() == (
        "('HTTP_X_FORWARDED_PROTO', 'https')")


def test_a_malformed_trusted_proxy_stops_the_app_naming_it():
    run = settings_with(TRUSTED_PROXY="maybe")
    assert run.returncode != 0 and "TRUSTED_PROXY" in run.stderr


def test_without_a_trusted_proxy_a_client_cannot_claim_https():
    assert settings.SECURE_PROXY_SSL_HEADER is None  # the tests run on the default
    request = RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="https")
    assert not request.is_secure()


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_trusted_proxy_its_header_says_https():
    assert RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="https").is_secure()
    assert not RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="http").is_secure()


def test_the_venue_forces_the_proxy_header_off():
    env = venue_environment({"TRUSTED_PROXY": "true"}, address="10.0.0.5", port=8000,
                            secret_key="k" * 50)
    assert env["TRUSTED_PROXY"] == "false"
