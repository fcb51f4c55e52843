"""What the players say about their table (api.md, "The player's own phone"): each
player's confirmation of the sheet, an objection ("Einspruch") to a deal or the whole
sheet, and a call for the director — from a player's phone (``Authorization: Player …``)
or the table's tablet (``Authorization: Table …``); and the director's side of the
objections and calls (staff who direct the tournament).

- ``POST /tables/{id}/confirm/``: a player confirms their own seat; the tablet and staff
  name the seat (``{"seat"}``). The last confirmation submits the sheet.
- ``POST /tables/{id}/objections/`` ``{"deal"?, "note"}`` (note ≤ 500 characters) → 201.
- ``POST /tables/{id}/calls/`` ``{"reason"?}`` (≤ 200 characters) → 201, or 200 with the
  caller's call not yet closed; ``GET /tables/{id}/calls/{cid}/`` for the caller only.
- ``GET /tournaments/{id}/objections/`` (``?status=open|resolved``), ``PATCH
  …/objections/{oid}/`` ``{"resolution"}`` (≤ 500); ``GET /tournaments/{id}/calls/`` (the
  calls not closed), ``PATCH …/calls/{cid}/`` ``{"status": "seen"|"closed"}``.

Objections and calls are limited per token (``VOICE_RATE``, default 20 an hour, both
together): beyond it 429 with ``Retry-After``. Staff do not raise them (403). The
services decide everything (``tournaments.services``: ``sheet_confirm``,
``objection_raise``/``objection_resolve``, ``call_raise``/``call_update``).
"""

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from api.endpoints import TableEndpoint, TournamentEndpoint, actor_of
from api.permissions import player_of, table_of
from api.strict import CheckedJSONField, StrictSerializer
from api.table_schemas import CallSerializer, TournamentObjectionSerializer
from api.throttling import VoiceRateThrottle
from games.engines import most_seats
from tournaments.models import (
    CALL_REASON_MAX,
    OBJECTION_NOTE_MAX,
    DirectorCall,
    Objection,
)
from tournaments.selectors import objection_state
from tournaments.services import (
    call_raise,
    call_update,
    objection_raise,
    objection_resolve,
    sheet_confirm,
)


def _body(serializer_class, request) -> dict:
    """The body's keys as sent (the services check the values and name the field);
    unknown keys and a body that is no object are refused here."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def objection_json(objection: Objection) -> dict:
    """An objection with its table's number and round (``participant__player`` and
    ``table__round`` loaded by the caller)."""
    return {**objection_state(objection), "table_number": objection.table.number,
            "round": objection.table.round.number}


def call_json(call: DirectorCall) -> dict:
    return {"id": call.pk, "table": call.table_id, "table_number": call.table.number,
            "round": call.table.round.number,
            "by": call.participant.player.name if call.participant_id else None,
            "reason": call.reason, "at": call.at, "status": call.status,
            "seen_at": call.seen_at, "closed_at": call.closed_at}


# ------------------------------------------------------------------ confirm

@extend_schema_serializer(component_name="SheetConfirm")
class ConfirmBody(StrictSerializer):
    """Who confirms the sheet as it stands."""

    seat = CheckedJSONField(
        required=False, like=serializers.IntegerField(min_value=1, max_value=most_seats()),
        help_text="the tablet and staff: the seat of the player who confirms; a player's "
                  "own phone confirms their own seat (another seat is refused)")
CONFIRMED_SCHEMA = inline_serializer("SheetConfirmed", {
    "confirmed": serializers.ListField(child=serializers.IntegerField(min_value=1)),
    "submitted": serializers.BooleanField(
        help_text="the sheet is submitted (by this confirmation, the last one, or before)"),
})


class TableConfirm(TableEndpoint):
    """A seated player confirms the sheet as it stands; when every seated player has
    confirmed it (and no objection is open) it is submitted. Confirming again is
    harmless. 400 (``deals``) while the sheet is not complete."""

    @extend_schema(request=ConfirmBody, responses=CONFIRMED_SCHEMA)
    def post(self, request, table_id: int):
        body = _body(ConfirmBody, request)
        state = sheet_confirm(sheet=self.sheet, seat=body.get("seat"), actor=actor_of(request))
        return Response({"confirmed": state.confirmed, "submitted": state.submitted})


# ------------------------------------------------------------------ objections

@extend_schema_serializer(component_name="ObjectionRaise")
class ObjectionBody(StrictSerializer):
    """An objection to a deal or the whole sheet."""

    deal = CheckedJSONField(
        required=False, allow_null=True, help_text="the deal objected to; absent or null: "
                                                   "the whole sheet",
        like=serializers.IntegerField(min_value=1, allow_null=True))
    note = CheckedJSONField(
        required=True, help_text="what is wrong, in a few words (white space runs become "
                                 "one space)",
        like=serializers.CharField(max_length=OBJECTION_NOTE_MAX))


class TableObjections(TableEndpoint):
    """An objection to a deal or the whole sheet: the sheet stays open (nobody submits
    it) until the director resolves it. 409 once the sheet is submitted."""

    tokens_only = True
    throttle_classes = [VoiceRateThrottle]

    @extend_schema(request=ObjectionBody, responses={201: TournamentObjectionSerializer})
    def post(self, request, table_id: int):
        body = _body(ObjectionBody, request)
        objection = objection_raise(sheet=self.sheet, deal=body.get("deal"),
                                    note=body.get("note"), actor=actor_of(request))
        objection.table = self.table
        return Response(objection_json(objection), status=status.HTTP_201_CREATED)


@extend_schema_serializer(component_name="ObjectionResolve")
class ResolutionBody(StrictSerializer):
    """The director's decision on an objection."""

    resolution = CheckedJSONField(
        required=True, help_text="the director's decision, in a few words",
        like=serializers.CharField(max_length=OBJECTION_NOTE_MAX))


STATUS_PARAMETER = OpenApiParameter("status", str, enum=list(Objection.Status.values),
                                    required=False, description="only these objections")


class TournamentObjections(TournamentEndpoint):
    """The tournament's objections, oldest first; ``?status=open`` for those waiting."""

    director_reads = True

    @extend_schema(parameters=[STATUS_PARAMETER],
                   responses=TournamentObjectionSerializer(many=True))
    def get(self, request, tournament_id: int):
        objections = (Objection.objects.filter(table__round__tournament=self.tournament)
                      .select_related("table__round", "participant__player")
                      .order_by("at", "id"))
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in Objection.Status.values:
                raise ValidationError({"status": [_("Choose open or resolved.")]})
            objections = objections.filter(status=wanted)
        return Response([objection_json(o) for o in objections])


class TournamentObjectionDetail(TournamentEndpoint):
    """The director resolves an objection (resolving it again changes nothing); the
    last open objection of a sheet every player confirmed submits it."""

    @extend_schema(request=ResolutionBody, responses=TournamentObjectionSerializer)
    def patch(self, request, tournament_id: int, objection_id: int):
        if not Objection.objects.filter(pk=objection_id,
                                        table__round__tournament=self.tournament).exists():
            raise Http404()
        body = _body(ResolutionBody, request)
        objection_resolve(objection_id=objection_id, resolution=body.get("resolution"),
                          actor=actor_of(request))
        return Response(objection_json(
            Objection.objects.select_related("table__round", "participant__player")
            .get(pk=objection_id)))


# ------------------------------------------------------------------ calls

@extend_schema_serializer(component_name="CallRaise")
class CallBody(StrictSerializer):
    """A call for the director."""

    reason = CheckedJSONField(
        required=False, help_text="why, in a few words",
        like=serializers.CharField(max_length=CALL_REASON_MAX, allow_blank=True))


def _call(pk, **where) -> DirectorCall:
    call = (DirectorCall.objects.filter(pk=pk, **where)
            .select_related("table__round", "participant__player").first())
    if call is None:
        raise Http404()
    return call


class TableCalls(TableEndpoint):
    """Call the director to the table: 201 with a new call, or 200 with the caller's
    call not yet closed (one per caller)."""

    tokens_only = True
    throttle_classes = [VoiceRateThrottle]

    @extend_schema(request=CallBody, responses={201: CallSerializer, 200: CallSerializer})
    def post(self, request, table_id: int):
        body = _body(CallBody, request)
        call, new = call_raise(sheet=self.sheet, reason=body.get("reason"),
                               actor=actor_of(request))
        return Response(call_json(_call(call.pk)),
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class TableCallDetail(TableEndpoint):
    """A call's status, for its caller only (the same player's token, or the table's
    token for the tablet's call); anyone else 404, staff too."""

    @extend_schema(responses=CallSerializer)
    def get(self, request, table_id: int, call_id: int):
        player = player_of(request)
        if player is None and table_of(request) is None:
            raise Http404()
        return Response(call_json(_call(call_id, table=self.table, participant=player)))


class TournamentCalls(TournamentEndpoint):
    """The calls not closed yet, oldest first: table, caller (null: the tablet), time,
    reason."""

    director_reads = True

    @extend_schema(responses=CallSerializer(many=True))
    def get(self, request, tournament_id: int):
        calls = (DirectorCall.objects.filter(table__round__tournament=self.tournament)
                 .exclude(status=DirectorCall.Status.CLOSED)
                 .select_related("table__round", "participant__player").order_by("at", "id"))
        return Response([call_json(c) for c in calls])


@extend_schema_serializer(component_name="CallUpdate")
class CallUpdateBody(StrictSerializer):
    """The director marks a call."""

    status = CheckedJSONField(
        required=True, help_text="seen: the caller's screen says the director is coming; "
                                 "closed: dealt with",
        like=serializers.ChoiceField(choices=["seen", "closed"]))


class TournamentCallDetail(TournamentEndpoint):
    """The director marks a call seen or closed; a call never goes back."""

    @extend_schema(request=CallUpdateBody, responses=CallSerializer)
    def patch(self, request, tournament_id: int, call_id: int):
        _call(call_id, table__round__tournament=self.tournament)
        body = _body(CallUpdateBody, request)
        call_update(call_id=call_id, status=body.get("status"), actor=actor_of(request))
        return Response(call_json(_call(call_id)))
