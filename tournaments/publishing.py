"""Handing a task to the broker off the request's thread: one background thread for every
kind (recomputes, mails), so that a broker that is down or hangs holds up no request.
What the thread fails to publish waits in its outbox for the periodic sweeps.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="task-publish")


def publish_off_thread(publish: Callable[..., Any], *args: Any) -> None:
    """Run ``publish(*args)`` on the publishing thread; it logs its own failures."""
    _thread.submit(publish, *args)
