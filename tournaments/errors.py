"""Errors of the tournament services besides the vocabulary's.

Bad input is ``games.errors.UserError`` and a state that forbids the action is
``games.errors.StateConflict`` (re-exported here under its old address), for the
engines and the services alike. The two precondition errors below belong to the
conditional write of a deal correction (``If-Match``) and have no message of their own.
"""

from __future__ import annotations

from games.errors import StateConflict  # noqa: F401  (re-exported)


class StalePrecondition(Exception):
    """``If-Match`` names a version that is no longer current → HTTP 412."""


class MissingPrecondition(Exception):
    """A correction came without ``If-Match`` → HTTP 428."""
