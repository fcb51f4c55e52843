"""Who makes a change: a staff user or a table's tablet, and from which address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Actor:
    user: Any = None  # a staff user, or None when the table's own token writes
    by_table: bool = False
    ip: str | None = None

    @property
    def is_staff(self) -> bool:
        return self.user is not None and not self.by_table
