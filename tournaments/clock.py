"""The round's clock: the director starts, pauses, resumes and extends it (api.md,
"Rounds, corrections and the door").

Terms:

- ends_at: when a running clock runs out (an aware datetime). The clock is stored as
  this end time, not as a counter, so it survives reloads and server restarts: every
  page counts down from it.
- paused_seconds: what was left when the clock was paused (a paused clock has no end).
- minutes: the minutes given so far, the start's and every extension's.
- state: None before the start; ``"running"`` while ``ends_at`` lies ahead,
  ``"over"`` from then on (nobody needs to say so: time does), ``"paused"``.
- remaining: whole seconds left (rounded up, never below 0).

Pure Python, no Django: ``apply`` is the one place that decides what an action does;
the service stores the result (``tournaments.services.rounds.round_clock``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from games.errors import StateConflict, _, user_error

ACTIONS = ("start", "pause", "resume", "extend")
MIN_MINUTES, MAX_MINUTES = 1, 600
# phones vibrate and the board turns amber when this much is left
WARN_SECONDS = 10 * 60


@dataclass(frozen=True)
class Clock:
    ends_at: datetime | None = None
    paused_seconds: int | None = None
    minutes: int = 0

    def state(self, now: datetime) -> str | None:
        if self.paused_seconds is not None:
            return "paused"
        if self.ends_at is None:
            return None
        return "running" if self.ends_at > now else "over"

    def remaining(self, now: datetime) -> int | None:
        if self.paused_seconds is not None:
            return self.paused_seconds
        if self.ends_at is None:
            return None
        return max(0, math.ceil((self.ends_at - now).total_seconds()))

    def shown(self, now: datetime) -> dict | None:
        """The clock as the API shows it, or None before the start."""
        state = self.state(now)
        if state is None:
            return None
        return {"state": state, "ends_at": self.ends_at, "remaining_seconds":
                self.remaining(now), "minutes": self.minutes}

    def lasting(self, now: datetime) -> dict | None:
        """The clock as a kept answer shows it (the player's overview, answered from
        memory and tagged until something changes): the end as text, and the seconds
        left only while paused (a running clock's change every second; pages count down
        from the end)."""
        shown = self.shown(now)
        if shown is None:
            return None
        return {**shown, "ends_at": self.ends_at.isoformat() if self.ends_at else None,
                "remaining_seconds": self.paused_seconds}


def apply(clock: Clock, action: str, minutes: int | None, now: datetime) -> Clock:
    """The clock after ``action`` at ``now``. ``UserError`` on ``action`` or ``minutes``
    for bad input, ``StateConflict`` when the clock's state forbids the action."""
    if action not in ACTIONS:
        raise user_error("action", _("Unknown clock action “%(action)s”; use one of "
                                     "%(actions)s."), action=action, actions=", ".join(ACTIONS))
    if action in ("start", "extend"):
        if minutes is None:
            raise user_error("minutes", _("Give the minutes (%(min)s to %(max)s)."),
                             min=MIN_MINUTES, max=MAX_MINUTES)
        if (isinstance(minutes, bool) or not isinstance(minutes, int)
                or not MIN_MINUTES <= minutes <= MAX_MINUTES):
            raise user_error("minutes", _("The minutes must be a whole number from %(min)s "
                                          "to %(max)s."), min=MIN_MINUTES, max=MAX_MINUTES)
    state = clock.state(now)
    if action == "start":
        if state in ("running", "paused"):
            raise StateConflict(_("The clock is already running; pause or extend it."))
        return Clock(ends_at=now + timedelta(minutes=minutes), minutes=minutes)
    if action == "pause":
        if state != "running":
            raise StateConflict(_("Only a running clock can be paused."))
        return Clock(paused_seconds=clock.remaining(now), minutes=clock.minutes)
    if action == "resume":
        if state != "paused":
            raise StateConflict(_("Only a paused clock can be resumed."))
        return Clock(ends_at=now + timedelta(seconds=clock.paused_seconds),
                     minutes=clock.minutes)
    # extend: a paused clock keeps its pause, one run out runs again from now
    if state is None:
        raise StateConflict(_("Start the clock first."))
    if state == "paused":
        return replace(clock, paused_seconds=clock.paused_seconds + 60 * minutes,
                       minutes=clock.minutes + minutes)
    base = clock.ends_at if state == "running" else now
    return Clock(ends_at=base + timedelta(minutes=minutes), minutes=clock.minutes + minutes)
