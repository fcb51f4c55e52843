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

``Authorization: Captain <captain_token>``: a league team's captain sends its line-ups;
``request.auth`` is the team.
"""

import drf_spectacular.authentication
from django.db import transaction
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from leagues.selectors import team_by_captain_token
from tournaments.models import Table
from tournaments.player_view import participant_by_token
from tournaments.policies import TOKEN_VOID, sheet_refusal
from tournaments.services import table_lock_by_token
from tournaments.tokens import storable


class TokenPrincipal:
    """The 'user' behind a token (a table's or a player's): authenticated, never staff;
    ``holder`` is the table or the participant the token belongs to."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def __init__(self, holder, *, refusal: str | None = None):
        self.holder = holder
        # a table token's: why the policy refuses it this request's write (None: it may)
        self.refusal = refusal
        # the request log names the table a table token entered for
        self.table = holder if isinstance(holder, Table) else None

    def __str__(self) -> str:
        return f"{type(self.holder).__name__.lower()} {self.holder.pk}"


class SchemeAuthentication(authentication.BaseAuthentication):
    """``Authorization: <keyword> <token>``: ``token`` is the token, or None when the
    header names another scheme; a header of the scheme that is not two words is 401
    (``bad_header``), a token that is no UTF-8 or no stored token could be
    (``tokens.storable``) is ``unreadable()``. ``authenticate``
    gives the token's holder (``holder_of``), or raises ``unknown()`` where it has none."""

    keyword = ""
    bad_header = ""

    def unreadable(self) -> exceptions.APIException:
        raise NotImplementedError

    def unknown(self) -> exceptions.APIException:
        raise NotImplementedError

    def holder_of(self, token: str, request):
        raise NotImplementedError

    def principal(self, holder, request) -> TokenPrincipal | None:
        """The principal of the token's holder; None when the holder may do nothing now."""
        return TokenPrincipal(holder)

    def token(self, request) -> str | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(self.bad_header)
        try:
            token = header[1].decode()
        except UnicodeDecodeError:
            raise self.unreadable() from None
        if not storable(token):
            raise self.unreadable()
        return token

    def authenticate(self, request):
        token = self.token(request)
        if token is None:
            return None
        holder = self.holder_of(token, request)
        principal = None if holder is None else self.principal(holder, request)
        if principal is None:
            raise self.unknown()
        return principal, holder

    def authenticate_header(self, request):
        return self.keyword


class TokenScheme(OpenApiAuthenticationExtension):
    """A token scheme in the OpenAPI schema: the ``Authorization`` header with
    ``description``."""

    description = ""

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": self.description}


class TableTokenAuthentication(SchemeAuthentication):
    keyword = "Table"
    bad_header = _("Invalid table token header.")

    def unreadable(self) -> exceptions.APIException:
        return exceptions.AuthenticationFailed(_("Invalid table token."))

    def unknown(self) -> exceptions.APIException:
        return exceptions.AuthenticationFailed(_("Invalid table token or the round is closed."))

    def holder_of(self, token: str, request):
        if request.method not in SAFE_METHODS and transaction.get_connection().in_atomic_block:
            table = table_lock_by_token(token)
        else:
            table = Table.objects.select_related("round__tournament").filter(
                entry_token=token).first()
        return table

    def principal(self, table, request) -> TokenPrincipal | None:
        """The request's one question to the policy for the table's token: asked for a
        write when the request writes, kept by the principal for the table endpoint's
        sheet write (``SheetWrite.token_refusal``) and the service's check."""
        refusal = sheet_refusal(table, by_table=True, write=request.method not in SAFE_METHODS)
        if refusal in TOKEN_VOID:
            return None
        return TokenPrincipal(table, refusal=refusal)


class TableTokenScheme(TokenScheme):
    """Describes the table token in the OpenAPI schema."""

    target_class = "api.authentication.TableTokenAuthentication"
    name = "tableToken"
    description = "`Table <entry_token>` — a table's own sheet"


class PlayerTokenAuthentication(SchemeAuthentication):
    keyword = "Player"
    bad_header = _("Invalid player token header.")

    def unreadable(self) -> exceptions.APIException:
        return exceptions.NotFound()  # nothing tells whether a personal token exists

    def unknown(self) -> exceptions.APIException:
        return exceptions.NotFound()

    def holder_of(self, token: str, request):
        return participant_by_token(token)


class PlayerTokenScheme(TokenScheme):
    """Describes the personal token in the OpenAPI schema."""

    target_class = "api.authentication.PlayerTokenAuthentication"
    name = "playerToken"
    description = ("`Player <personal_token>` — a player's own phone: their page and the "
                   "table where they sit in the open round")


class CaptainTokenAuthentication(SchemeAuthentication):
    """``Authorization: Captain <captain_token>``: a team's captain sends its line-ups."""

    keyword = "Captain"
    bad_header = _("Invalid captain token header.")

    def unreadable(self) -> exceptions.APIException:
        return exceptions.AuthenticationFailed(_("Invalid captain token."))

    unknown = unreadable

    def holder_of(self, token: str, request):
        return team_by_captain_token(token)


class CaptainTokenScheme(TokenScheme):
    target_class = "api.authentication.CaptainTokenAuthentication"
    name = "captainToken"
    description = "`Captain <captain_token>` — a league team's captain: its line-ups"


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
