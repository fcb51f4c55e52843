"""Errors of the tournament services besides bad input.

Bad input is ``games.engines.EngineUserError`` (fields and translatable messages) for
the engines and the services alike. These are the state errors: the request is well
formed, but the tournament's state forbids it now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.base import fill


class StateConflict(Exception):
    """The state forbids the action (sheet submitted, round closed, …) → HTTP 409.

    ``message`` is an English msgid with ``%(name)s`` parameters, like the engines'.
    """

    def __init__(self, message: str, **params: Any):
        self.message = message
        self.params = params
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        return fill(self.message, self.params, translate)


class StalePrecondition(Exception):
    """``If-Match`` names a version that is no longer current → HTTP 412."""


class MissingPrecondition(Exception):
    """A correction came without ``If-Match`` → HTTP 428."""
