"""A real headless Chromium driven by Playwright against pytest-django's live server.

Chromium comes from Debian (`apt-get install chromium`, done by .ci/run); Playwright's
own browser download is not used. Screenshots go to test-artifacts/screenshots/.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"tablet": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# A developer without Chromium skips the browser tests; CI (CI=true) installs it, so there a
# missing browser is a failure, never a silent skip.
needs_chromium = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and os.environ.get("CI", "").lower() != "true",
    reason=f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)")


def _serve_one_request_at_a_time_on_sqlite():
    """SQLite's shared in-memory test database refuses concurrent access with 'database
    table is locked' instead of waiting, so on SQLite the live server answers one request
    at a time (Django's plain WSGIServer, which closes each connection). Against
    PostgreSQL the threaded server stays, as in production."""
    from django.conf import settings
    from django.core.servers.basehttp import WSGIServer
    from django.test.testcases import LiveServerThread

    class OneRequestAtATime(WSGIServer):
        # The live server thread itself holds the shared connections, and it is the one
        # thread that answers here, so the override the threaded server needs is unused.
        def __init__(self, *args, connections_override=None, **kwargs):
            super().__init__(*args, **kwargs)

    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        LiveServerThread.server_class = OneRequestAtATime


_serve_one_request_at_a_time_on_sqlite()


# A behaviour test (what a tap does, what the server stores) runs once, on the phone: the
# narrowest screen, where a control pushed off it cannot be tapped. A test of the layout is
# marked ``layout`` and runs at both sizes.
BEHAVIOUR_VIEWPORT = "phone"


def pytest_generate_tests(metafunc):
    if "page" in metafunc.fixturenames:
        sizes = (list(VIEWPORTS) if metafunc.definition.get_closest_marker("layout")
                 else [BEHAVIOUR_VIEWPORT])
        metafunc.parametrize("page", sizes, indirect=True)


@pytest.fixture
def page(request, browser):
    context = browser.new_context(viewport=VIEWPORTS[request.param], locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def offline_ready(page) -> None:
    """Wait until the sheet's service worker controls the page and has fetched once more
    what loaded before it. A request the page sends while the worker takes over can reach
    the server past ``page.route`` (stop 46's CI: a held confirmation went straight
    through), so a test that holds or fails requests waits for this first."""
    page.wait_for_function("() => document.body.dataset.offlineReady === '1'")


def settled(page) -> None:
    """Wait until the sheet has worked out what it shows: no preview of a tap and no re-read
    of the list on the way (both mark themselves ``aria-busy`` until they are shown)."""
    page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")


def phone_page(browser, live_server, participant, width: int = 390, path: str = "",
               init_script: str = "", timeout: int = 25000):
    """A player's phone (German, ``width`` px) on their own page (``/me/<token>/`` and
    ``path``): the browser context, the page and the list its JavaScript errors go to."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(timeout)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/me/{participant.personal_token}/{path}")
    return context, page, errors


def board_row(page, participant_id: int):
    """A participant's row on the board, found by its link to their page."""
    return page.locator(f"tr:has(a[href$='/player/{participant_id}/'])")


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"),
                    full_page=True)
