"""One way for the console's forms to run a service: its refusal is shown next to the
form's fields (bad input) or above them (a state that forbids it now)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from games.engines import EngineUserError
from games.messages import add_to_form
from tournaments.errors import StateConflict


def run_on_form(form, change: Callable[[], Any], *,
                field_of: dict[str, str] | None = None) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` with the errors
    added to ``form``."""
    try:
        return True, change()
    except EngineUserError as exc:
        add_to_form(form, exc, field_of=field_of)
    except StateConflict as exc:
        form.add_error(None, exc.render(gettext))
    return False, None
