"""Fixtures every test may use: API clients and the users of permission tests.

- director: staff who runs the club and directs the tournament;
- outsider: staff who runs neither;
- anonymous: nobody logged in.
(The table — a client with a table's entry token — joins them with the tables.)
"""

import os
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.celery import app as celery_app
from tests.factories import ClubFactory, StaffFactory, TournamentFactory

TESTS = Path(__file__).resolve().parent
# Folders whose every test is of one kind (pyproject's markers say what each means).
FOLDER_MARKS = {"browser": "browser", "system": "system"}
# What the SQLite pass leaves to the PostgreSQL + Redis pass, unless --full is given.
FULL_PASS_ONLY = ("system", "fuzz")


def pytest_addoption(parser):
    parser.addoption(
        "--full", action="store_true",
        help="on SQLite too, run every browser test, the system tests and the fuzzing "
             "(by default they run against PostgreSQL and Redis only, as in CI's second pass)")


def pytest_configure(config):
    """Each pytest-xdist worker has its own test database (pytest-django), and here its own
    keys in a shared Redis and its own Celery queue: PostgreSQL hands out the same ids in
    every worker's database, so keys named by an id would otherwise meet."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        cache = settings.CACHES["default"]
        cache["KEY_PREFIX"] = f"{cache.get('KEY_PREFIX', '')}-{worker}"
        celery_app.conf.task_default_queue = f"celery-{worker}"


def on_sqlite() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


def pytest_collection_modifyitems(config, items):
    """Marks the tests of the browser and system folders, and on SQLite (the quick start's
    pass) leaves the slow kinds to the full pass: every browser test but the smoke test of
    each kind of page, the system tests and the fuzzing. They are deselected, not skipped:
    the run's summary counts them as deselected."""
    for item in items:
        folder = Path(item.fspath).resolve().relative_to(TESTS).parts[0]
        if folder in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[folder])
    if not on_sqlite() or config.getoption("full"):
        return
    kept, left = [], []
    for item in items:
        slow = (any(item.get_closest_marker(m) for m in FULL_PASS_ONLY)
                or (item.get_closest_marker("browser") and not item.get_closest_marker("smoke")))
        (left if slow else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright, one per test process: the browser tests'
    (tests/browser) and the system tests' that drive a page through the proxy. Playwright's
    sync API runs one event loop per thread, so there is only ever one."""
    from playwright.sync_api import BrowserContext, sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test
    # itself are still synchronous and safe
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    # Chromium has never answered a context's disposal while one of its pages was
    # reloading (a CI run waited 300 s in `context.close()` after a test's last
    # assertion; 1 run in 9 of that test here). Closing the pages first leaves the
    # disposal nothing to tear down.
    dispose = BrowserContext.close

    def close_pages_first(context, **kwargs):
        for page in list(context.pages):
            page.close(run_before_unload=False)
        dispose(context, **kwargs)

    with pytest.MonkeyPatch.context() as patched, sync_playwright() as p:
        patched.setattr(BrowserContext, "close", close_pages_first)
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def throttles_of_the_test_client_forgotten():
    """The test client's address (127.0.0.1) starts every test without failed logins and
    scorer requests, as if the throttles' windows had passed: a fuzzer's wrong passwords
    or many scorer calls in one test must not lock another test out (the throttle tests
    use addresses of their own)."""
    from api.throttling import RegistrationRateThrottle, ScorerRateThrottle
    from clubs.login_throttle import forget_address

    forget_address("127.0.0.1")
    ScorerRateThrottle.forget("127.0.0.1")
    RegistrationRateThrottle.forget("127.0.0.1")


@pytest.fixture(scope="session", autouse=True)
def earlier_runs_forgotten():
    """The session starts without an earlier run's keys in a shared Redis (this worker's:
    its ``KEY_PREFIX``). Each run makes its test database afresh, whose ids start again
    at 1, so a version or kept entry left by the last run would be read as this one's."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if not isinstance(caches["default"], LocMemCache):
        caches["default"].delete_pattern("*")


@pytest.fixture(autouse=True)
def cache_forgotten():
    """Every test starts without the versions and cached standings of an earlier one. They
    are keyed by tournament id, SQLite hands out a rolled-back test's ids again, and a
    test's transaction never commits, so the bump on commit never comes. The in-memory
    cache is emptied; a shared Redis is not (PostgreSQL never repeats an id)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club)


@pytest.fixture
def director(club, tournament):
    user = StaffFactory(username="director")
    club.admins.add(user)
    tournament.directors.add(user)
    return user


@pytest.fixture
def outsider(db):
    return StaffFactory(username="outsider")


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anon_client():
    return APIClient()


@pytest.fixture
def director_client(director):
    return token_client(director)


@pytest.fixture
def outsider_client(outsider):
    return token_client(outsider)


@pytest.fixture
def short_skat(director, club):
    """A published Skat tournament with short series (3 deals at a 3-table, 4 at a
    4-table) and seven checked-in participants: one 4-table and one 3-table."""
    from tests.factories import ParticipantFactory, PlayerFactory

    tournament = TournamentFactory(club=club, rules={"series_deals_3": 3, "series_deals_4": 4})
    tournament.directors.add(director)
    for n in range(7):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1, checked_in=True)
    return tournament


@pytest.fixture
def drawn(short_skat, director_client):
    """The first round of ``short_skat`` drawn through the API: its JSON answer."""
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random", "seed": 7}, format="json")
    assert resp.status_code == 201, resp.content
    return resp.json()


def table_client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def player_client(participant) -> APIClient:
    """A client with ``participant``'s personal token (a player's own phone)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {participant.personal_token}")
    return client


def seated(table: dict) -> list:
    """The participants of a table's JSON answer, in seat order."""
    from tournaments.models import Participant

    ids = [s["participant"] for s in sorted(table["seats"], key=lambda s: s["seat"])]
    by_id = Participant.objects.select_related("player").in_bulk(ids)
    return [by_id[i] for i in ids]


@pytest.fixture
def table(drawn):
    """The 3-table of the drawn round (the table in permission tests)."""
    return next(t for t in drawn["tables"] if len(t["seats"]) == 3)


@pytest.fixture
def other_table(drawn):
    return next(t for t in drawn["tables"] if len(t["seats"]) == 4)


@pytest.fixture
def table_client(table):
    return table_client_for(table["entry_token"])


@pytest.fixture
def actor_clients(anon_client, outsider_client, director_client, table_client, other_table):
    """The permission matrices' callers by name (see the module docstring)."""
    return {
        "anonymous": anon_client,
        "outsider": outsider_client,
        "director": director_client,
        "own_table": table_client,
        "other_table": table_client_for(other_table["entry_token"]),
    }


@pytest.fixture
def in_process_tasks(settings):
    """The quick-start mode (tasks run in process after commit), also inside CI's Redis
    pass, for tests about something else than the broker."""
    before = celery_app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before




@pytest.fixture
def requests_commit(monkeypatch, db):
    """What a test does before and in a test-client request has committed by the time
    the request ends, as far as the answers' versions are concerned: their bumps
    (``freshness.bump``, deferred to the commit) run then,
    though the test's own transaction never commits. Other on-commit work (the
    recompute a change schedules) is left to the test, which runs it when it means it."""
    from django.db import connection
    from django.test.client import Client

    from tournaments import freshness

    done = {"upto": len(connection.run_on_commit)}

    def flush():
        pending = connection.run_on_commit[min(done["upto"], len(connection.run_on_commit)):]
        done["upto"] = len(connection.run_on_commit)
        for _savepoints, callback, _robust in pending:
            if getattr(callback, "func", None) is freshness.bump_now:
                callback()

    request = Client.request

    def committing(self, **kwargs):
        flush()
        try:
            return request(self, **kwargs)
        finally:
            flush()

    monkeypatch.setattr(Client, "request", committing)
