"""Failed logins are throttled per (username, address) pair and per address, and a
username guessed at from many addresses is slowed down but never locked, through the
cache (Redis in CI's second pass), on the API token and on the login page; the anonymous
scorer has a rate (issue 14, item 4). Each test uses addresses and usernames of its own,
since the counts live in a cache other tests share."""

import itertools
import time
import uuid

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from clubs import login_throttle
from config.env import redis_cache
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Richtig-123-lang"
_addresses = itertools.count(1)


def fresh_address() -> str:
    # a documentation range (RFC 5737) with a per-run part, so reruns against a shared
    # Redis start from zero too
    return f"198.51.{uuid.uuid4().int % 250}.{next(_addresses) % 250 + 1}"


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    """Every failed login hashes a password; the production hasher would make these
    tests take minutes without checking anything more. The slowdown is shortened for
    the same reason (``test_a_slowed_username_is_held_before_the_password`` times it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_SLOWDOWN_SECONDS = 0.01


@pytest.fixture
def staff(fast_hashing):
    user = StaffFactory(username=f"boss-{uuid.uuid4().hex[:8]}")
    user.set_password(PASSWORD)
    user.save()
    return user


def token_login(username, password, address, **extra):
    return APIClient().post("/api/v1/auth/token/", {"username": username, "password": password},
                            format="json", REMOTE_ADDR=address, **extra)


def test_the_cache_is_the_configured_one(settings):
    backend = type(caches["default"]).__name__
    assert backend == ("RedisCache" if settings.REDIS_URL else "LocMemCache")


def test_thirty_failed_token_logins_in_a_row_are_throttled(staff):
    address = fresh_address()
    answers = [token_login(staff.username, "falsch", address).status_code for _ in range(30)]
    assert answers[0] == 400
    assert answers[-1] == 429
    assert answers.index(429) == 10  # LOGIN_FAILURES_PER_USERNAME
    resp = token_login(staff.username, PASSWORD, address, HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 429  # the right password does not help while throttled
    assert resp.json()["detail"] == ("Zu viele fehlgeschlagene Anmeldungen; bitte später "
                                     "erneut versuchen.")
    assert 0 < int(resp["Retry-After"]) <= 900


def test_one_address_trying_many_usernames_is_throttled(staff):
    address = fresh_address()
    answers = [token_login(f"guess-{n}", "falsch", address).status_code for n in range(25)]
    assert answers.index(429) == 20  # LOGIN_FAILURES_PER_ADDRESS
    assert token_login(staff.username, PASSWORD, address).status_code == 429
    # another address logs the same user in
    assert token_login(staff.username, PASSWORD, fresh_address()).status_code == 200


def page_login(username, password, address):
    client = Client(REMOTE_ADDR=address)
    return client, client.post("/accounts/login/", {"username": username, "password": password})


def test_wrong_passwords_from_many_addresses_do_not_lock_the_owner_out_of_the_api(staff):
    """The attack of the issue: ten wrong passwords from ten addresses used to make the
    right password answer 429 from anywhere for up to 15 minutes."""
    home = fresh_address()
    assert token_login(staff.username, PASSWORD, home).status_code == 200
    answers = [token_login(staff.username, "falsch", fresh_address()).status_code
               for _ in range(10)]
    assert answers == [400] * 10
    elsewhere = fresh_address()
    assert login_throttle.judge(staff.username, elsewhere).delay > 0  # slowed, not stopped
    assert login_throttle.judge(staff.username, home) == login_throttle.Verdict(None)
    for address in (elsewhere, home):
        resp = token_login(staff.username, PASSWORD, address)
        assert resp.status_code == 200 and resp.json()["token"]
    # and more of the same still only slows the username down
    for _ in range(15):
        token_login(staff.username, "falsch", fresh_address())
    assert token_login(staff.username, PASSWORD, fresh_address()).status_code == 200
    assert token_login(staff.username, PASSWORD, home).status_code == 200


def test_wrong_passwords_from_many_addresses_do_not_lock_the_owner_out_of_the_page(staff):
    home = fresh_address()
    client, resp = page_login(staff.username, PASSWORD, home)
    assert resp.status_code == 302
    for _ in range(10):
        assert page_login(staff.username, "falsch", fresh_address())[1].status_code == 200
    for address in (fresh_address(), home):
        client, resp = page_login(staff.username, PASSWORD, address)
        assert resp.status_code == 302
        assert client.session["_auth_user_id"] == str(staff.pk)


def test_a_slowed_username_is_held_before_the_password(staff, settings):
    settings.LOGIN_SLOWDOWN_SECONDS = 0.3
    home = fresh_address()
    assert token_login(staff.username, PASSWORD, home).status_code == 200
    for _ in range(10):
        token_login(staff.username, "falsch", fresh_address())
    started = time.monotonic()
    assert token_login(staff.username, PASSWORD, fresh_address()).status_code == 200
    assert time.monotonic() - started >= 0.3
    started = time.monotonic()
    assert token_login(staff.username, PASSWORD, home).status_code == 200
    assert time.monotonic() - started < 0.3  # a known address is not held


def test_a_known_address_still_stops_after_its_own_failures(staff):
    """A known address is no free pass for guessing: its own failures stop the pair."""
    home = fresh_address()
    assert token_login(staff.username, PASSWORD, home).status_code == 200
    answers = [token_login(staff.username, "falsch", home).status_code for _ in range(11)]
    assert answers == [400] * 10 + [429]


def test_a_sprayed_address_still_lets_in_who_logged_in_there_before(staff):
    """A venue's shared address: someone sprays usernames from it; the director who has
    logged in there before still gets in, anyone else from there is stopped."""
    venue = fresh_address()
    assert token_login(staff.username, PASSWORD, venue).status_code == 200
    for n in range(20):
        token_login(f"guess-{uuid.uuid4().hex[:6]}-{n}", "falsch", venue)
    assert token_login(f"guess-{uuid.uuid4().hex[:6]}", "falsch", venue).status_code == 429
    assert token_login(staff.username, PASSWORD, venue).status_code == 200


def test_a_throttled_username_does_not_lock_out_other_users(staff):
    other = StaffFactory(username=f"other-{uuid.uuid4().hex[:8]}")
    other.set_password(PASSWORD)
    other.save()
    address = fresh_address()
    for _ in range(12):
        token_login(staff.username, "falsch", address)
    assert token_login(staff.username, PASSWORD, address).status_code == 429
    resp = token_login(other.username, PASSWORD, fresh_address())
    assert resp.status_code == 200 and resp.json()["token"]


def test_a_successful_login_clears_its_failures_from_that_address(staff):
    address = fresh_address()
    for _ in range(9):
        assert token_login(staff.username, "falsch", address).status_code == 400
    assert token_login(staff.username, PASSWORD, address).status_code == 200
    for _ in range(9):
        assert token_login(staff.username, "falsch", address).status_code == 400


def test_the_login_page_is_throttled_too(staff):
    address = fresh_address()
    client = Client(REMOTE_ADDR=address)
    answers = [client.post("/accounts/login/", {"username": staff.username,
                                                "password": "falsch"}).status_code
               for _ in range(11)]
    assert answers[:10] == [200] * 10 and answers[10] == 429
    page = client.post("/accounts/login/", {"username": staff.username, "password": PASSWORD},
                       HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 429
    assert int(page["Retry-After"]) > 0
    assert "Zu viele fehlgeschlagene Anmeldungen" in page.content.decode()
    assert "_auth_user_id" not in client.session
    # elsewhere the same person gets in
    fine = Client(REMOTE_ADDR=fresh_address()).post(
        "/accounts/login/", {"username": f"nobody-{uuid.uuid4().hex}", "password": "x"})
    assert fine.status_code == 200


def test_the_admin_login_is_throttled_too(staff):
    client = Client(REMOTE_ADDR=fresh_address())
    for _ in range(10):
        resp = client.post("/admin/login/", {"username": staff.username, "password": "falsch"})
        assert resp.status_code == 200
    resp = client.post("/admin/login/", {"username": staff.username, "password": PASSWORD})
    assert resp.status_code == 429 and int(resp["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session


def test_the_login_page_logs_in_when_not_throttled(staff):
    client = Client(REMOTE_ADDR=fresh_address())
    resp = client.post("/accounts/login/", {"username": staff.username, "password": PASSWORD})
    assert resp.status_code == 302
    assert client.session["_auth_user_id"] == str(staff.pk)


def test_behind_a_proxy_the_forwarded_address_is_counted(staff, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = fresh_address()
    attacker = fresh_address()
    for n in range(20):
        token_login(f"guess-{n}", "falsch", proxy, HTTP_X_FORWARDED_FOR=f"10.0.0.1, {attacker}")
    assert token_login(staff.username, PASSWORD, proxy,
                       HTTP_X_FORWARDED_FOR=attacker).status_code == 429
    # without NUM_PROXIES the header is ignored: a client cannot pick its address
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    assert token_login(staff.username, PASSWORD, fresh_address(),
                       HTTP_X_FORWARDED_FOR=attacker).status_code == 200
    assert token_login(staff.username, PASSWORD, proxy,
                       HTTP_X_FORWARDED_FOR=fresh_address()).status_code == 200


def test_a_cache_outage_does_not_lock_anyone_out(staff, settings):
    settings.CACHES = {"default": redis_cache("redis://127.0.0.1:1/0", 0.2)}
    assert login_throttle.retry_after(staff.username, "192.0.2.1") is None
    assert token_login(staff.username, "falsch", fresh_address()).status_code == 400
    assert token_login(staff.username, PASSWORD, fresh_address()).status_code == 200


def test_the_scorer_is_rate_limited_per_address(settings):
    settings.SCORER_RATE = "3/min"
    address = fresh_address()
    client = APIClient()
    body = {"players": 3, "deals": []}
    answers = [client.post("/api/v1/games/skat/score/", body, format="json",
                           REMOTE_ADDR=address) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert int(answers[-1]["Retry-After"]) > 0
    assert answers[-1]["Content-Type"] == "application/json"
    other = client.post("/api/v1/games/skat/score/", body, format="json",
                        REMOTE_ADDR=fresh_address())
    assert other.status_code == 200
