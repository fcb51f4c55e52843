"""One way for the console's forms to run a service: its refusal is shown next to the
form's fields (a ``UserError``: bad input) or above them (a ``StateConflict``: a state
that forbids it now) — the pages' edge of the error vocabulary (``games.errors``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from games.errors import StateConflict, UserError
from games.messages import add_to_form


def run_on_form(form, change: Callable[[], Any], *,
                field_of: dict[str, str] | None = None) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` with the errors
    added to ``form``."""
    try:
        return True, change()
    except UserError as exc:
        add_to_form(form, exc, field_of=field_of)
    except StateConflict as exc:
        form.add_error(None, exc.render(gettext))
    return False, None
