"""Production operations (issue 14, item 5): request ids, structured log lines, Sentry
only with a DSN, idempotency keys pruned, the admin checking game and rules through
the engine, a Content-Security-Policy without inline code."""

import io
import json
import logging
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from pythonjsonlogger.json import JsonFormatter

from config.request_log import RequestContextFilter
from tests.factories import StaffFactory, TournamentFactory
from tournaments.models import IdempotencyKey, Table, Tournament
from tournaments.tasks import prune_idempotency_keys

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- request id and log lines


def test_a_plain_request_id_is_kept_and_a_bad_one_replaced(anon_client):
    assert anon_client.get("/healthz", HTTP_X_REQUEST_ID="abc-123")["X-Request-ID"] == "abc-123"
    for bad in ("", "a b", "x" * 65, "<script>"):
        given = anon_client.get("/healthz", HTTP_X_REQUEST_ID=bad)["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", given), bad
    assert anon_client.get("/api/v1/nothing/")["X-Request-ID"]


@pytest.fixture
def json_lines():
    """The JSON formatter and request filter of settings.LOGGING on a handler of our own."""
    options = {k: v for k, v in django_settings.LOGGING["formatters"]["json"].items()
               if k != "()"}
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(**options))
    handler.addFilter(RequestContextFilter())
    logger = logging.getLogger("stichliste.request")
    logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logger.removeHandler(handler)


def test_log_lines_carry_time_level_logger_request_id_and_table(table_client, table,
                                                                json_lines):
    table_client.get(f"/api/v1/tables/{table['id']}/", HTTP_X_REQUEST_ID="req-42")
    line = json_lines()[-1]
    assert {"time", "level", "logger", "message", "request_id", "user", "table"} <= set(line)
    assert line["level"] == "INFO" and line["logger"] == "stichliste.request"
    assert line["request_id"] == "req-42"
    assert line["table"] == str(table["id"]) and line["user"] == "-"
    assert line["status"] == 200 and line["path"] == f"/api/v1/tables/{table['id']}/"


def test_log_lines_name_the_user(director_client, director, table, json_lines):
    director_client.get(f"/api/v1/tables/{table['id']}/")
    line = json_lines()[-1]
    assert line["user"] == str(director.pk) and line["table"] == "-"


def run_python(code: str, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env=environment, timeout=120)


SENTRY_PROBE = ("import django; django.setup(); import sentry_sdk; "
                "print(sentry_sdk.get_client().is_active())")


def test_sentry_is_initialised_only_with_a_dsn():
    without = run_python(SENTRY_PROBE, SENTRY_DSN="")
    assert without.returncode == 0, without.stderr
    assert without.stdout.strip() == "False"
    # a DSN of a port nobody listens on: nothing is sent during start-up
    with_dsn = run_python(SENTRY_PROBE, SENTRY_DSN="http://public@127.0.0.1:9/1")
    assert with_dsn.returncode == 0, with_dsn.stderr
    assert with_dsn.stdout.strip() == "True"


def test_a_malformed_sentry_dsn_stops_the_start_naming_it():
    proc = run_python("import django; django.setup()", SENTRY_DSN="not a dsn")
    assert proc.returncode != 0
    assert "SENTRY_DSN" in proc.stderr


# ---------------------------------------------------------------- idempotency keys


def test_old_idempotency_keys_are_pruned_and_recent_ones_kept(table, settings):
    settings.IDEMPOTENCY_KEY_MAX_AGE_HOURS = 48
    own = Table.objects.get(pk=table["id"])
    for key, age in (("old", timedelta(hours=49)), ("fresh", timedelta(hours=47))):
        stored = IdempotencyKey.objects.create(table=own, key=key, request_hash="h", status=201,
                                               body={}, headers={})
        IdempotencyKey.objects.filter(pk=stored.pk).update(created_at=timezone.now() - age)
    assert prune_idempotency_keys() == 1  # the task beat schedules, run here
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["fresh"]


def test_beat_schedules_the_prune():
    schedule = django_settings.CELERY_BEAT_SCHEDULE["prune-idempotency-keys"]
    assert schedule["task"] == "tournaments.tasks.prune_idempotency_keys"


# ---------------------------------------------------------------- admin


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(StaffFactory(username="root", is_superuser=True))
    return client


def admin_add(client):
    return client.post("/admin/tournaments/tournament/add/", {
        "name": "Herbstpreis", "slug": "herbstpreis", "game": "skat",
        "status": "draft", "team_size": "4", "participants-TOTAL_FORMS": "0",
        "participants-INITIAL_FORMS": "0"}, HTTP_ACCEPT_LANGUAGE="en")


def test_admin_never_asks_for_rules_as_json(admin_client):
    resp = admin_add(admin_client)
    assert resp.status_code == 302
    tournament = Tournament.objects.get(name="Herbstpreis")
    assert tournament.rules == {}
    page = admin_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/",
                            HTTP_ACCEPT_LANGUAGE="de")
    assert "rules" not in page.context["adminform"].form.fields
    rules = page.content.decode().split("field-house_rules", 1)[1].split("</fieldset>", 1)[0]
    assert "Kontra" in rules and "Seeger-Fabian" in rules
    for key in ("kontra_re", "series_deals_4", "seeger_fabian", "{&quot;", "{}"):
        assert key not in rules, key
    assert f"/console/t/{tournament.pk}/rules/" in rules


def test_admin_shows_the_game_read_only_once_a_round_is_drawn(admin_client, drawn,
                                                               short_skat):
    resp = admin_client.get(f"/admin/tournaments/tournament/{short_skat.pk}/change/")
    form = resp.context["adminform"].form
    assert "game" not in form.fields and "rules" not in form.fields
    fresh = TournamentFactory()
    form = admin_client.get(f"/admin/tournaments/tournament/{fresh.pk}/change/") \
        .context["adminform"].form
    assert "game" in form.fields and "rules" not in form.fields


# ---------------------------------------------------------------- Content-Security-Policy


def test_pages_carry_a_policy_without_inline_code(anon_client, short_skat):
    for path in ("/", "/accounts/login/", f"/p/{short_skat.slug}/", "/api/docs/"):
        resp = Client().get(path)
        assert resp.status_code == 200, path
        policy = resp["Content-Security-Policy"]
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        html = resp.content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"<style\b", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert not re.search(r"\sstyle=", html), path


def test_the_policy_is_django_csps_built_once_and_follows_its_setting_and_decorators(rf):
    """Built once per process (every phone's poll carries it), it is django-csp's own
    policy; a changed setting, a view's ``csp_update`` and a nonce still count."""
    from csp.constants import NONCE
    from csp.decorators import csp_exempt, csp_update
    from csp.utils import build_policy
    from django.http import HttpResponse
    from django.test import override_settings

    from config.csp import ConstantPolicyCSPMiddleware

    def served(view, path="/"):
        middleware = ConstantPolicyCSPMiddleware(view)
        return middleware(rf.get(path))

    plain = served(lambda request: HttpResponse("x"))
    assert plain["Content-Security-Policy"] == build_policy()
    updated = served(csp_update({"img-src": ["https://example.org"]})(
        lambda request: HttpResponse("x")))
    assert "img-src 'self' data: https://example.org" in updated["Content-Security-Policy"]
    assert not served(csp_exempt()(lambda request: HttpResponse("x"))).has_header(
        "Content-Security-Policy")

    def with_nonce(request):
        return HttpResponse(str(request.csp_nonce))

    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"script-src": [NONCE]}}):
        nonce = served(with_nonce)
        assert f"script-src 'nonce-{nonce.content.decode()}'" in nonce["Content-Security-Policy"]
    changed = {"DIRECTIVES": {"default-src": ["'none'"]}, "EXCLUDE_URL_PREFIXES": ["/x/"]}
    with override_settings(CONTENT_SECURITY_POLICY=changed,
                           CONTENT_SECURITY_POLICY_REPORT_ONLY=changed):
        again = served(lambda request: HttpResponse("x"))
        assert again["Content-Security-Policy"] == "default-src 'none'"
        assert again["Content-Security-Policy-Report-Only"] == "default-src 'none'"
        assert not served(lambda request: HttpResponse("x"), "/x/y").has_header(
            "Content-Security-Policy")
    assert served(lambda request: HttpResponse("x"))["Content-Security-Policy"] == \
        build_policy()


def test_no_template_has_inline_handlers_scripts_or_styles():
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        if (re.search(r"\son[a-z]+=\"", text) or re.search(r"\sstyle=\"", text)
                or re.search(r"<style\b", text)
                or re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text)):
            offenders.append(template.relative_to(ROOT).as_posix())
    assert offenders == []
