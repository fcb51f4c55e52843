"""Sign-up and check-in (api.md, "Sign-up and check-in"; issue 29).

- ``PATCH /api/v1/tournaments/{id}/`` with ``{"registration": {"open", "cap"?,
  "deadline"?, "check_in", "release_at"?}}``: the settings
  (``RegistrationSettingsSerializer``, wired into ``api.tournaments``).
- ``POST /api/v1/tournaments/{id}/registrations/``: anyone signs up while registration
  is open → 201 ``{"status": "registered"|"waiting", "position"?, "personal_url"}``;
  409 with the reason when closed or past the deadline; 429 beyond the per-address rate.
- ``GET /api/v1/tournaments/{id}/registrations/``: the directors' list.
- ``DELETE /api/v1/me/registration/`` with ``Authorization: Player <token>``: cancels
  (204, also when cancelled already); the first waiting registrant moves up.
"""

import datetime

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from api.endpoints import TournamentEndpoint
from api.names import ShownNameField
from api.permissions import PlayerOnly, RegistrationAccess, player_of
from api.strict import StrictSerializer
from api.throttling import RegistrationRateThrottle
from clubs.models import Club, Player
from signup.services.registrations import (
    MAX_CAP,
    NAME_MAX,
    registration_cancel,
    registration_submit,
    waiting_position,
)
from tournaments.bounds import MAX_ID
from tournaments.links import personal_url
from tournaments.models import Participant, RegistrationStatus

EARLIEST, LATEST = datetime.date(2000, 1, 1), datetime.date(2199, 12, 31)


class BoundedDateTimeField(serializers.DateTimeField):
    """A date and time from 2000 to 2199 (a year 1 or 9999 is a typo, and converting it
    between time zones would overflow)."""

    default_error_messages = {"bounds": _("Must be a date from 2000 to 2199.")}

    def to_internal_value(self, value):
        if isinstance(value, str) and len(value) > 40:
            self.fail("invalid", format="YYYY-MM-DDThh:mm[:ss][+HH:MM|Z]")
        try:
            parsed = super().to_internal_value(value)
        except (OverflowError, ValueError):
            self.fail("bounds")
        if not EARLIEST <= parsed.date() <= LATEST:
            self.fail("bounds")
        return parsed


class RegistrationSettingsSerializer(StrictSerializer):
    """The registration settings inside a tournament (``source="*"``: the model's own
    fields); in a ``PATCH`` absent keys stay as they are, ``null`` clears cap,
    deadline and release time."""

    open = serializers.BooleanField(source="registration_open", label=_("registration open"),
                                    help_text="anyone may sign up (a published tournament)")
    cap = serializers.IntegerField(source="registration_cap", required=False, allow_null=True,
                                   min_value=1, max_value=MAX_CAP, label=_("places"),
                                   help_text="places; beyond them a waiting list (null: no cap)")
    deadline = BoundedDateTimeField(source="registration_deadline", required=False,
                                    allow_null=True, label=_("registration deadline"),
                                    help_text="after it sign-ups get 409")
    check_in = serializers.BooleanField(label=_("check-in at the door"),
                                        help_text="only checked-in participants are drawn")
    release_at = BoundedDateTimeField(required=False, allow_null=True,
                                      label=_("release unchecked registrants at"),
                                      help_text="with check_in: unchecked registrants lose "
                                                "their place then and the waiting list "
                                                "moves up")
    walk_in = serializers.BooleanField(source="registration_walk_in", required=False,
                                       label=_("walk-ins at the door"),
                                       help_text="a sign-up at the door (the door poster's "
                                                 "form, or at_door) is checked in at once; "
                                                 "the sign-up limit counts per tournament")


REGISTRATION_FIELDS = {"registration_open": "open", "registration_cap": "cap",
                       "registration_deadline": "deadline", "check_in": "check_in",
                       "release_at": "release_at", "registration_walk_in": "walk_in"}


def registration_settings(tournament, validated: dict) -> dict | None:
    """Pops the registration settings out of a tournament's validated data: the
    ``registration_configure`` arguments (absent ones as they are now), or None."""
    given = {key: validated.pop(key) for key in list(REGISTRATION_FIELDS) if key in validated}
    if not given:
        return None
    return {arg: given.get(field, getattr(tournament, field))
            for field, arg in REGISTRATION_FIELDS.items()}


class RegistrationSerializer(StrictSerializer):
    name = serializers.CharField(max_length=NAME_MAX, label=_("name"),
                                 help_text="1 to 120 characters")
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), required=False,
                                              allow_null=True, label=_("club"),
                                              help_text="a club's id; or club_name; or "
                                                        "neither (no club, “ohne Verein”)")
    club_name = serializers.CharField(max_length=120, required=False, allow_blank=True,
                                      label=_("club"),
                                      help_text="a club's name, matched to a known club "
                                                "(spacing and case aside); unknown: no club")
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True,
                                   label=_("e-mail"),
                                   help_text="optional; confirmation and news by e-mail")
    publication = serializers.ChoiceField(choices=Player.Publication.choices, required=False,
                                          label=_("name on public pages"))
    at_door = serializers.BooleanField(required=False, default=False, label=_("at the door"),
                                       help_text="signed up at the door: checked in at once "
                                                 "while walk_in is on")

    def validate(self, attrs):
        if attrs.get("club") is not None and attrs.get("club_name"):
            raise serializers.ValidationError(
                {"club_name": [_("Give club or club_name, not both.")]})
        return attrs


class RegistrationAnswerSerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=["registered", "waiting"])
    position = serializers.IntegerField(required=False, min_value=1,
                                        help_text="the place on the waiting list (waiting only)")
    personal_url = serializers.URLField(help_text="the registrant's own page: status, "
                                                  "position, cancel")


class RegistrationRowSerializer(StrictSerializer):
    participant = serializers.IntegerField(source="pk", min_value=1, max_value=MAX_ID)
    name = ShownNameField()
    status = serializers.ChoiceField(choices=RegistrationStatus.choices)
    position = serializers.SerializerMethodField()
    paid = serializers.BooleanField()
    checked_in = serializers.BooleanField()
    email = serializers.EmailField(allow_blank=True, help_text="empty: none given")
    registered_at = serializers.DateTimeField(allow_null=True)

    def get_position(self, participant) -> int | None:
        positions = self.context.get("positions", {})
        return positions.get(participant.pk)


def registration_answer(request, participant: Participant) -> dict:
    body = {"status": participant.status,
            "personal_url": personal_url(request, participant)}
    position = waiting_position(participant)
    if position is not None:
        body["position"] = position
    return body


def language_of(request) -> str:
    return (getattr(request, "LANGUAGE_CODE", None) or get_language() or "")[:8]


# the sign-up form's five short fields, every character escaped, fit in a few KB
SIGN_UP_MAX_BODY_BYTES = 8192


class TournamentRegistrations(TournamentEndpoint):
    permission_classes = [RegistrationAccess]
    throttle_classes = [RegistrationRateThrottle]
    max_body_bytes = SIGN_UP_MAX_BODY_BYTES

    @extend_schema(responses=RegistrationRowSerializer(many=True))
    def get(self, request, tournament_id: int):
        """The registrants (and desk entries): places first, then the waiting list in
        order, then the cancelled ones."""
        rows = list(self.tournament.participants.select_related("player")
                    .order_by("queue_number", "start_number"))
        order = {RegistrationStatus.REGISTERED: 0, RegistrationStatus.WAITING: 1,
                 RegistrationStatus.CANCELLED: 2}
        rows.sort(key=lambda p: order.get(p.status, 3))
        waiting = [p for p in rows if p.status == RegistrationStatus.WAITING]
        positions = {p.pk: n for n, p in enumerate(waiting, start=1)}
        return Response(RegistrationRowSerializer(
            rows, many=True, context={**self.name_context(), "positions": positions}).data)

    @extend_schema(request=RegistrationSerializer,
                   responses={201: RegistrationAnswerSerializer})
    def post(self, request, tournament_id: int):
        """Sign up: a place while the cap allows, else the waiting list; 409 when
        registration is closed or past its deadline; a known player is matched."""
        serializer = RegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        participant = registration_submit(
            tournament_id=self.tournament.pk, name=data["name"], club=data.get("club"),
            club_name=data.get("club_name", ""), email=data.get("email", ""),
            publication=data.get("publication"), language=language_of(request),
            at_door=data["at_door"])
        return Response(registration_answer(request, participant),
                        status=status.HTTP_201_CREATED)


class MyRegistration(APIView):
    permission_classes = [PlayerOnly]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        """Cancel the own registration; the first waiting registrant moves up.
        Cancelling twice is harmless (204 again). One who played a round is withdrawn
        (the rounds played stay); one seated in a round still being played gets 409:
        withdrawing them is the director's."""
        registration_cancel(participant_id=player_of(request).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
