"""One way for a page to run a service and say its refusal — the pages' edge of the error
vocabulary (``games.errors``): on a form, next to its fields (a ``UserError``: bad
input) or above them (a ``StateConflict``: a state that forbids it now); from a button,
with no form, as an error message shown on the page the request goes back to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from games.errors import StateConflict, UserError
from games.messages import add_to_form
from games.messages import render as error_text


def run_on_form(form, change: Callable[[], Any], *, field_of: dict[str, str] | None = None,
                rename: Callable[[str], str] | None = None,
                conflicts_to=None) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` with the errors
    added to ``form`` — a ``StateConflict`` to ``conflicts_to``'s messages instead where
    a request is given (a page that goes back to another after a conflict: the form then
    has no errors). ``rename`` turns a whole error path into the form's field name (a
    field made per seat or category), ``field_of`` a path's first or last part."""
    try:
        return True, change()
    except UserError as exc:
        if rename is not None:
            exc = UserError([replace(e, field=rename(e.field)) for e in exc.errors])
        add_to_form(form, exc, field_of=field_of)
    except StateConflict as exc:
        if conflicts_to is None:
            form.add_error(None, exc.render(gettext))
        else:
            messages.error(conflicts_to, exc.render(gettext))
    return False, None


def saved_or_again(request, form, change: Callable[[], Any], *,
                   said: str | Callable[[Any], str], back: str, template: str,
                   context: Callable[[], dict]) -> HttpResponse:
    """A console form's post: once ``form`` is valid, ``change()`` (``run_on_form``);
    done, ``said`` (or ``said(its result)``) as a success message and a redirect to the
    URL ``back``; else ``template`` again with ``context()`` (the form with its errors),
    status 400."""
    if form.is_valid():
        done, result = run_on_form(form, change)
        if done:
            messages.success(request, said(result) if callable(said) else said)
            return redirect(back)
    return render(request, template, context(), status=400)


def run_or_say(request, change: Callable[[], Any], *,
               label: str | None = None) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` with the refusal
    added to the request's messages (a ``UserError``'s messages as a form shows them,
    joined by "; ", after ``label`` — the one field's name — where given)."""
    try:
        return True, change()
    except UserError as exc:
        text = "; ".join(error_text(error) for error in exc.errors)
        messages.error(request, f"{label}: {text}" if label else text)
    except StateConflict as exc:
        messages.error(request, exc.render(gettext))
    return False, None
