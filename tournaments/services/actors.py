"""Who makes a change: a staff user, a table's tablet or a player's phone, and from which
address.

A player's phone (their personal token) acts at their table with the table token's rights,
so it is ``by_table`` too, and ``participant`` names the player for the history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Actor:
    user: Any = None  # a staff user, or None when the table's own token writes
    by_table: bool = False
    ip: str | None = None
    participant: Any = None  # the player whose personal token acts (by_table is True)

    @property
    def is_staff(self) -> bool:
        return self.user is not None and not self.by_table
