"""One way for a page to run a service and say its refusal — the pages' edge of the error
vocabulary (``games.errors``): on a form, next to its fields (a ``UserError``: bad
input) or above them (a ``StateConflict``: a state that forbids it now); from a button,
with no form, as an error message shown on the page the request goes back to.

``run_on`` is the one place a page catches a refusal; the others are its usual shapes
(a form: ``run_on_form``, ``saved_or_again``; a button: ``run_or_say``). A page that
shows errors where no form is (the paper grid's rows, a member's line in the member list)
hands ``run_on`` its own ``field``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from games.errors import FieldError, StateConflict, UserError
from games.messages import add_to_form
from games.messages import render as error_text


def run_on(change: Callable[[], Any], *, field: Callable[[FieldError], None],
           conflict: Callable[[str], None]) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` after handing each
    of a ``UserError``'s errors to ``field`` (its message: ``games.messages.render``)
    or a ``StateConflict``'s message, in the request's language, to ``conflict``."""
    try:
        return True, change()
    except UserError as exc:
        for error in exc.errors:
            field(error)
    except StateConflict as exc:
        conflict(exc.render(gettext))
    return False, None


def run_on_form(form, change: Callable[[], Any], *, field_of: dict[str, str] | None = None,
                rename: Callable[[str], str] | None = None,
                conflicts_to=None, form_of: Callable[[str], Any] | None = None
                ) -> tuple[bool, Any]:
    """Run ``change()``; ``(True, its result)``, or ``(False, None)`` with the errors
    added to ``form`` — a ``StateConflict`` to ``conflicts_to``'s messages instead where
    a request is given (a page that goes back to another after a conflict: the form then
    has no errors). ``rename`` turns a whole error path into the form's field name (a
    field made per seat or category), ``field_of`` a path's first or last part;
    ``form_of`` picks by the error's path the form that shows it where a page has
    several (else ``form``)."""

    def on_field(error: FieldError) -> None:
        if rename is not None:
            error = replace(error, field=rename(error.field))
        target = form if form_of is None else form_of(error.field)
        add_to_form(target, UserError([error]), field_of=field_of)

    def on_conflict(text: str) -> None:
        if conflicts_to is None:
            form.add_error(None, text)
        else:
            messages.error(conflicts_to, text)

    return run_on(change, field=on_field, conflict=on_conflict)


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
    said: list[str] = []
    done, result = run_on(change, field=lambda error: said.append(error_text(error)),
                          conflict=lambda text: messages.error(request, text))
    if said:
        text = "; ".join(said)
        messages.error(request, f"{label}: {text}" if label else text)
    return done, result
