"""``Authorization: Table <entry_token>``: a table's tablet writes its own sheet;
``Authorization: Player <personal_token>``: a player's own phone.

The token authenticates a *table principal*, not a user; ``request.auth`` is the table.
What a token may do is ``tournaments.policies.sheet_refusal``'s answer: a token of a
closed round is useless (401), and stays so when staff reopen the round for corrections.

Inside a table endpoint's write (``api.endpoints.TableEndpoint`` opens the transaction),
the table is loaded locked: that load is the request's one load of the table, which the
endpoint, the idempotency check and the service then share.

A personal token authenticates a *player principal*; ``request.auth`` is the
participant. An unknown, expired or erased one is 404, never 401 (api.md: nothing tells
whether a token exists); where it may act is ``tournaments.policies.plays_at``'s answer,
asked by the permission classes.
"""

import drf_spectacular.authentication
from django.db import transaction
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from tournaments.models import Participant, Table
from tournaments.policies import sheet_refusal
from tournaments.selectors import participant_by_token
from tournaments.services import table_lock_by_token


class TablePrincipal:
    """The 'user' behind a table token: authenticated, never staff."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def __init__(self, table: Table):
        self.table = table

    def __str__(self) -> str:
        return f"table {self.table.pk}"


class TableTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Table"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid table token header."))
        try:
            token = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid table token.")) from None
        if request.method not in SAFE_METHODS and transaction.get_connection().in_atomic_block:
            table = table_lock_by_token(token)
        else:
            table = Table.objects.select_related("round__tournament").filter(
                entry_token=token).first()
        if table is None or sheet_refusal(table, by_table=True, write=False) is not None:
            raise exceptions.AuthenticationFailed(_("Invalid table token or the round is closed."))
        return TablePrincipal(table), table

    def authenticate_header(self, request):
        return self.keyword


class TableTokenScheme(OpenApiAuthenticationExtension):
    """Describes the table token in the OpenAPI schema."""

    target_class = "api.authentication.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Table <entry_token>` — a table's own sheet"}


class PlayerPrincipal:
    """The 'user' behind a personal token: authenticated, never staff."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def __init__(self, participant: Participant):
        self.participant = participant

    def __str__(self) -> str:
        return f"participant {self.participant.pk}"


class PlayerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Player"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid player token header."))
        try:
            token = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.NotFound() from None
        participant = participant_by_token(token)
        if participant is None:
            raise exceptions.NotFound()
        return PlayerPrincipal(participant), participant

    def authenticate_header(self, request):
        return self.keyword


class PlayerTokenScheme(OpenApiAuthenticationExtension):
    """Describes the personal token in the OpenAPI schema."""

    target_class = "api.authentication.PlayerTokenAuthentication"
    name = "playerToken"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Player <personal_token>` — a player's own phone: their "
                               "page and the table where they sit in the open round"}


class _CsrfCheck(CsrfViewMiddleware):
    def _reject(self, request, reason):
        return reason  # the reason instead of an HTML page


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session login with a CSRF refusal in the request's language (DRF's own
    "CSRF Failed: …" is English whatever the language)."""

    def enforce_csrf(self, request):
        def dummy_get_response(request):  # pragma: no cover - never called
            return None

        check = _CsrfCheck(dummy_get_response)
        check.process_request(request)
        reason = check.process_view(request, None, (), {})
        if reason:
            raise exceptions.PermissionDenied(
                _("The CSRF check failed: a browser session must send its CSRF token "
                  "(X-CSRFToken header) from this site."), code="csrf_failed")


class SessionScheme(drf_spectacular.authentication.SessionScheme):
    """The browser session in the OpenAPI schema, as drf-spectacular describes DRF's."""

    target_class = "api.authentication.SessionAuthentication"
