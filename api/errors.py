"""Error answers of the API: the one place the error vocabulary (``games.errors``)
becomes HTTP.

- ``UserError`` (engines, services, seating, a member file) → 400 with the offending
  fields nested the way DRF nests its own validation errors
  (``{"deals": {"3": {"matadors": ["…"]}}}``) plus a flat ``errors`` list naming field,
  deal index and deal number. A serializer's ``ValidationError`` gets the same shape.
- Every 400 is bounded (``games.errors.named``): at most 20 unknown fields and 100
  errors in all are named, and a last message on the body says how many more there are.
- ``StateConflict`` → 409; the conditional write's preconditions → 412 / 428.
- ``InternalError`` is a bug: it is not caught and becomes a 500.

Messages are in the request's language.
"""

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import StateConflict, UserError, bounded, fill, named
from games.messages import flat_errors, nested_detail
from tournaments.errors import MissingPrecondition, StalePrecondition


def _detail(code: int, message: str, error: str) -> Response:
    return Response({"detail": message, "code": error}, status=code)


def engine_error_response(exc: UserError, *, deals_key: str = "deals") -> Response:
    exc = UserError(bounded(exc.errors))
    body = nested_detail(exc, deals_key=deals_key)
    body["errors"] = flat_errors(exc)
    body.setdefault("detail", _("Invalid input."))
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def path_error_response(exc: UserError) -> Response:
    """A 400 for a document read whole (the event document): each offending value keyed
    by its full JSON path (``rounds[0].tables[2].deals[5].bid``), not nested, with the
    flat ``errors`` list; ``detail`` names the first path."""
    exc = UserError(bounded(exc.errors))
    items = flat_errors(exc)
    body: dict = {"detail": f"{items[0]['field']}: {items[0]['message']}"}
    for item in items:
        body.setdefault(item["field"] or "non_field_errors", []).append(item["message"])
    body["errors"] = items
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _flatten(detail, path: str = "") -> list[dict[str, str]]:
    """DRF's nested validation detail as ``{"field", "message"}`` items (dotted paths,
    list positions as numbers; a form-wide message has the field ``""``)."""
    if isinstance(detail, dict):
        return [item for key, value in detail.items()
                for item in _flatten(value, key if key == "non_field_errors" and not path
                                     else f"{path}.{key}" if path else str(key))]
    if isinstance(detail, list):
        if all(not isinstance(v, (dict, list)) for v in detail):
            field = "" if path == "non_field_errors" else path
            return [{"field": field, "message": str(v)} for v in detail]
        return [item for i, v in enumerate(detail)
                for item in _flatten(v, f"{path}.{i}" if path else str(i))]
    return [{"field": "" if path == "non_field_errors" else path, "message": str(detail)}]


def _leaves(detail, path: tuple = ()) -> list[tuple[tuple, object]]:
    if isinstance(detail, dict):
        return [leaf for key, value in detail.items() for leaf in _leaves(value, (*path, key))]
    if isinstance(detail, list) and any(isinstance(v, (dict, list)) for v in detail):
        return [leaf for i, value in enumerate(detail) for leaf in _leaves(value, (*path, str(i)))]
    if isinstance(detail, list):
        return [(path, message) for message in detail]
    return [(path, detail)]


def bounded_detail(detail):
    """DRF's validation detail as an answer names it (``games.errors.named``): unchanged
    when nothing is left out, else rebuilt from the named messages, list positions as
    keys, the summaries under ``non_field_errors``."""
    leaves = _leaves(detail)
    keep, summaries = named([getattr(message, "code", None) == "unknown"
                             for _path, message in leaves])
    if not summaries:
        return detail
    out: dict = {}
    for path, message in [leaves[i] for i in keep] + [
            (("non_field_errors",), fill(msgid, {"count": count}, gettext))
            for msgid, count in summaries]:
        node = out
        for part in (path or ("non_field_errors",))[:-1]:
            node = node.setdefault(part, {})
            if isinstance(node, list):  # a message already sits at this level
                break
        else:
            leaf = node.setdefault((path or ("non_field_errors",))[-1], [])
            if isinstance(leaf, list):
                leaf.append(message)
    return out


def exception_handler(exc, context):
    if isinstance(exc, UserError):
        return engine_error_response(exc)
    if isinstance(exc, ValidationError):
        detail = bounded_detail(exc.detail)
        if detail is not exc.detail:
            exc = ValidationError(detail)
        response = drf_exception_handler(exc, context)
        body = response.data if isinstance(response.data, dict) else {"detail": response.data}
        body["errors"] = _flatten(exc.detail)
        body.setdefault("detail", _("Invalid input."))
        response.data = body
        return response
    if isinstance(exc, ParseError):  # the body as a whole: not JSON, a number too large …
        response = drf_exception_handler(exc, context)
        response.data["errors"] = [{"field": "", "message": str(exc.detail)}]
        return response
    if isinstance(exc, StateConflict):
        return _detail(status.HTTP_409_CONFLICT, exc.render(gettext), "conflict")
    if isinstance(exc, StalePrecondition):
        return _detail(status.HTTP_412_PRECONDITION_FAILED,
                       _("The deal has changed since you read it; reload and try again."),
                       "precondition_failed")
    if isinstance(exc, MissingPrecondition):
        return _detail(status.HTTP_428_PRECONDITION_REQUIRED,
                       _("A correction needs an If-Match header with the deal's ETag."),
                       "precondition_required")
    if isinstance(exc, (ObjectDoesNotExist, Http404)):
        # Django's "No Tournament matches the given query." is English only
        return _detail(status.HTTP_404_NOT_FOUND, _("Not found."), "not_found")
    return drf_exception_handler(exc, context)
