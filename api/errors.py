"""Error answers of the API.

Engine errors (``EngineUserError``) become 400 with the offending fields nested the way
DRF nests its own validation errors (``{"deals": {"3": {"matadors": ["…"]}}}``) plus a
flat ``errors`` list naming field, deal index and deal number; messages are in the
request's language.
"""

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines import EngineUserError
from games.messages import flat_errors, nested_detail


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The current state does not allow this."
    default_code = "conflict"


class PreconditionFailed(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "The resource has changed since you read it."
    default_code = "precondition_failed"


class PreconditionRequired(APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = "This change needs an If-Match header with the ETag you read."
    default_code = "precondition_required"


def engine_error_response(exc: EngineUserError, *, deals_key: str = "deals") -> Response:
    body = nested_detail(exc, deals_key=deals_key)
    body["errors"] = flat_errors(exc)
    body.setdefault("detail", _("Invalid input."))
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def exception_handler(exc, context):
    if isinstance(exc, EngineUserError):
        return engine_error_response(exc)
    return drf_exception_handler(exc, context)
