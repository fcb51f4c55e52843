"""``POST /api/v1/auth/token/``: a staff token for username and password, throttled.

While ``clubs.login_throttle`` stops the attempt (too many failures of this username from
this address, or from this address altogether) the answer is 429 with ``Retry-After`` and
the password is not checked; a username guessed at from many addresses is only slowed.
"""

from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException, Throttled
from rest_framework.response import Response

from api.parsers import BoundedFormParser, StrictJSONParser
from api.strict import StrictFieldsMixin
from clubs.login_throttle import before_password, client_address, record_failure, record_success


class LoginThrottled(Throttled):
    """429 with ``Retry-After`` (DRF's handler adds it from ``wait``) and our message
    alone: DRF's appends an English-only "Expected available in … seconds."."""

    def __init__(self, wait: int):
        APIException.__init__(self, _("Too many failed logins; try again later."))
        self.wait = wait


class TokenLoginSerializer(StrictFieldsMixin, AuthTokenSerializer):
    """Username and password as JSON strings; no other key."""


class ThrottledTokenLogin(ObtainAuthToken):
    parser_classes = (StrictJSONParser, BoundedFormParser)
    serializer_class = TokenLoginSerializer

    def post(self, request, *args, **kwargs):
        data = request.data if isinstance(request.data, dict) else {}
        username = data.get("username")
        username = username if isinstance(username, str) else ""
        address = client_address(request)
        wait = before_password(username, address)
        if wait is not None:
            raise LoginThrottled(wait)
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            record_failure(username, address)
            serializer.is_valid(raise_exception=True)
        record_success(username, address)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
