"""``/api/v1/tables/{id}/``: a table's sheet — deals, corrections, summary, submit, history.

Staff who direct the tournament may do everything; a table's own token reads its table
and writes its sheet while the round is open and the sheet not submitted. Another
table's token gets 404, never the data.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import directs, table_of
from api.rounds import actor_of
from tournaments.models import Deal, Table
from tournaments.selectors import deal_state, table_state
from tournaments.services import (
    deal_correct,
    deal_delete,
    deal_preview,
    deal_record,
    idempotent,
    sheet_submit,
    summary_record,
)
from tournaments.services.idempotency import request_fingerprint


def table_for(request, table_id: int, *, staff_only: bool = False) -> Table:
    table = (Table.objects.select_related("round__tournament__club")
             .filter(pk=table_id).first())
    own = table_of(request)
    if own is not None:
        if table is None or own.pk != table.pk:
            raise NotFound()
        if staff_only:
            raise PermissionDenied(_("Only the tournament's directors may do this."))
        return table
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if table is None:
        raise NotFound()
    if not directs(request.user, table.round.tournament):
        raise PermissionDenied(_("Only the tournament's directors may do this."))
    return table


def deal_json(deal: Deal) -> dict:
    return {key: value for key, value in deal_state(deal).items() if key != "etag"}


def _deal_answer(deal: Deal, code: int = status.HTTP_200_OK) -> Response:
    return Response(deal_json(deal), status=code, headers={"ETag": deal.etag})


def table_json(table: Table, request) -> dict:
    body = table_state(table)
    for deal in body["deals"]:
        deal.pop("record_json")
    if table_of(request) is None:
        body["entry_token"] = table.entry_token
        body["entry_url"] = request.build_absolute_uri(f"/t/{table.entry_token}/")
    return body


class TableDetail(APIView):
    permission_classes = [AllowAny]  # table_for decides

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int):
        table = table_for(request, table_id)
        return Response(table_json(table, request), headers={"ETag": f'"t{table.version}"'})


IDEMPOTENCY = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False)


def _split_number(body, *, default=None) -> tuple:
    """A deal body is the engine's record plus its ``number``."""
    if not isinstance(body, dict):
        raise ValidationError({"non_field_errors": [_("The deal must be a JSON object.")]})
    number = body.get("number", default)
    if number is None:
        raise ValidationError({"number": [_("This field is required.")]})
    return number, {k: v for k, v in body.items() if k != "number"}


class DealList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="tables_deals_list")
    def get(self, request, table_id: int):
        table = table_for(request, table_id)
        return Response([deal_json(d) for d in table.deals.order_by("number")])

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT},
                   parameters=[IDEMPOTENCY])
    def post(self, request, table_id: int):
        table = table_for(request, table_id)
        number, record = _split_number(request.data)
        actor = actor_of(request)

        def produce():
            deal = deal_record(table_id=table.pk, number=number, record=record, actor=actor)
            return status.HTTP_201_CREATED, deal_json(deal), {"ETag": deal.etag}

        (code, body, headers), replayed = idempotent(
            table_id=table.pk, key=request.headers.get("Idempotency-Key"),
            fingerprint=request_fingerprint("POST", request.path, request.data),
            produce=produce)
        if replayed:
            headers = {**headers, "Idempotent-Replayed": "true"}
        return Response(body, status=code, headers=headers)


class DealPreview(APIView):
    """Validate and score a deal in its place in the sheet without storing it (the
    tablet shows the value live and the errors next to the fields before saving)."""

    permission_classes = [AllowAny]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        table = table_for(request, table_id)
        number, record = _split_number(request.data)
        scored = deal_preview(table_id=table.pk, number=number, record=record)
        return Response({"number": number, "record": scored.record, "scores": scored.scores,
                         "extra": scored.extra})


class DealDetail(APIView):
    permission_classes = [AllowAny]

    def _deal(self, table, number) -> Deal:
        return get_object_or_404(Deal, table=table, number=number)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int, number: int):
        return _deal_answer(self._deal(table_for(request, table_id), number))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT,
                   parameters=[IF_MATCH])
    def put(self, request, table_id: int, number: int):
        table = table_for(request, table_id)
        self._deal(table, number)
        body_number, record = _split_number(request.data, default=number)
        if body_number != number:
            raise ValidationError({"number": [_("A correction cannot change the deal number.")]})
        deal = deal_correct(table_id=table.pk, number=number, record=record,
                            actor=actor_of(request), if_match=request.headers.get("If-Match"))
        return _deal_answer(deal)

    @extend_schema(responses={204: None}, parameters=[IF_MATCH])
    def delete(self, request, table_id: int, number: int):
        table = table_for(request, table_id)
        self._deal(table, number)
        deal_delete(table_id=table.pk, number=number, actor=actor_of(request),
                    if_match=request.headers.get("If-Match"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SummarySerializer(serializers.Serializer):
    seats = serializers.JSONField(label=_("seats"))


class TableSummary(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=SummarySerializer, responses=OpenApiTypes.OBJECT)
    def put(self, request, table_id: int):
        table = table_for(request, table_id, staff_only=True)
        serializer = SummarySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        summary_record(table_id=table.pk, seats=serializer.validated_data["seats"],
                       actor=actor_of(request))
        table.refresh_from_db()
        return Response(table_json(table, request))


class TableSubmit(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        table = table_for(request, table_id)
        sheet_submit(table_id=table.pk, actor=actor_of(request))
        table.refresh_from_db()
        return Response(table_json(table, request))


class TableHistory(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int):
        table = table_for(request, table_id, staff_only=True)
        events = table.events.select_related("user").order_by("at", "id")
        return Response([
            {"at": e.at, "action": e.action, "deal": e.deal_number,
             "by": "table" if e.by_table else (e.user.username if e.user else None),
             "ip": e.ip, "before": e.before, "after": e.after}
            for e in events
        ])
