"""One build per version of a large shared answer (``snapshots.versioned``,
``snapshots.shared_render``), whatever the number of processes and polls asking for it
at once: the reader that takes the build's lock in the cache builds; a reader arriving
meanwhile waits for that build (``versioned``) or gets the version before it
(``shared_render``); a build that never comes is made by the waiting reader itself. Run
against the real cache (Redis in the PostgreSQL + Redis pass), with a second thread as
the other process."""

import threading
import time
import uuid

import pytest
from django.core.cache import cache

from tournaments.recompute import snapshots


@pytest.fixture
def key():
    name = f"test:shared:{uuid.uuid4().hex}"
    snapshots.forget_all()
    yield name
    cache.delete_many([name, f"{name}:rendering"])
    snapshots.forget_all()


def never() -> str:
    raise AssertionError("built twice")


def test_a_reader_waits_for_the_build_another_process_runs(key):
    assert cache.add(f"{key}:rendering", 1, 30)  # the other process builds version 2

    def the_other_process():
        time.sleep(0.3)
        cache.set(key, ("2", "built there"), 60)
        cache.delete(f"{key}:rendering")

    other = threading.Thread(target=the_other_process)
    other.start()
    try:
        assert snapshots.versioned(key, "2", never) == "built there"
    finally:
        other.join()


def test_a_build_that_never_comes_is_made_by_the_waiting_reader(key, monkeypatch):
    monkeypatch.setattr(snapshots, "RENDER_WAIT_SECONDS", 0.2)
    assert cache.add(f"{key}:rendering", 1, 30)  # its process died while building
    assert snapshots.versioned(key, "2", lambda: "built here") == "built here"
    assert cache.get(key) is None  # the lock was not ours: nothing stored over it


def test_the_version_before_is_served_while_another_renders_the_new_one(key):
    first = snapshots.shared_render(key, '"a"', lambda: "old part", token=7)
    assert first == ("old part", '"a"|7', True)
    assert cache.add(f"{key}:rendering", 1, 30)  # another process renders "b"
    during = snapshots.shared_render(key, '"b"', never, token=7)
    assert during.value == "old part" and not during.current
    assert snapshots.etag_of(during.version) == '"a"'
    cache.delete(f"{key}:rendering")
    after = snapshots.shared_render(key, '"b"', lambda: "new part", token=7)
    assert after == ("new part", '"b"|7', True)
    # every reader of the version now has it, from this process's memory
    assert snapshots.shared_render(key, '"b"', never, token=7).value == "new part"


def test_a_kept_answer_is_not_fetched_from_the_cache_again(key):
    assert snapshots.versioned(key, "1", lambda: "x" * 1000, keep=True) == "x" * 1000
    cache.delete(key)  # were it fetched, it would be built again
    assert snapshots.versioned(key, "1", never, keep=True) == "x" * 1000
