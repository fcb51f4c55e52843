"""``/api/v1/tables/{id}/``: a table's sheet — deals, corrections, summary, submit, history.

Staff who direct the tournament may do everything; a table's own token reads its table
and writes its sheet while the round is open and the sheet not submitted. Another
table's token gets 404, never the data.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response

from api.conditional import ConditionalReads
from api.endpoints import TableEndpoint, actor_of
from api.permissions import player_of, table_of
from api.strict import CheckedJSONField, StrictSerializer
from api.table_schemas import (
    CORRECTION_BODY,
    DEAL_BODY,
    DealSerializer,
    HistoryEntrySerializer,
    PreviewSerializer,
    TableSerializer,
)
from games.engines import all_engines, most_seats
from tournaments import freshness
from tournaments.links import entry_url
from tournaments.models import REASON_MAX, Deal, Table
from tournaments.selectors import deal_state, table_state
from tournaments.services import (
    deal_correct,
    deal_delete,
    deal_preview,
    deal_record,
    history,
    sheet_end,
    sheet_submit,
    summary_record,
)
from tournaments.services.idempotency import Once, request_fingerprint


def deal_json(deal: Deal) -> dict:
    return {key: value for key, value in deal_state(deal).items() if key != "etag"}


def _deal_answer(deal: Deal, code: int = status.HTTP_200_OK) -> Response:
    return Response(deal_json(deal), status=code, headers={"ETag": deal.etag})


def table_json(table: Table, request) -> dict:
    body = table_state(table)
    body.pop("deal_count")  # the API's table answers ``deals`` itself
    body.pop("last_number")  # the tablet page's offline bound
    body.pop("games_played")  # the pages' "n of m" (the API answers deals and sheet_length)
    body.pop("games_planned")
    for deal in body["deals"]:
        deal.pop("record_json")
    body["objections"] = [o for o in body["objections"] if o["status"] == "open"]
    if table_of(request) is None and player_of(request) is None:  # staff only
        body["entry_token"] = table.entry_token
        body["entry_url"] = entry_url(request, table)
    return body


def _table_tag(view, request, table_id: int) -> freshness.Tag:
    """After the access checks: the versions of the tournament, the table's sheet and
    confirmations, and the calls and objections; staff also see the entry link."""
    table = view.table
    tournament_id = table.round.tournament_id
    staff = table_of(request) is None and player_of(request) is None
    return freshness.tag([freshness.tournament(tournament_id), freshness.table(table.pk),
                          freshness.calls(tournament_id)],
                         "api-table", table.pk, staff and request.get_host())


class TableDetail(TableEndpoint):

    @extend_schema(responses={200: TableSerializer, 304: None})
    @freshness.personal(_table_tag)
    def get(self, request, table_id: int):
        return Response(table_json(self.table, request))


IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key", {"type": "string", "maxLength": 255}, OpenApiParameter.HEADER,
    required=False,
    description="A retried request with the same key is answered as the first was (once "
                "per table, kept for IDEMPOTENCY_KEY_MAX_AGE_HOURS). At most 255 "
                "characters, no control characters but the tab (400, field "
                "`Idempotency-Key`).")
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False)


def _split_number(body, *, default=None) -> tuple:
    """A deal body is the engine's record plus its ``number``."""
    if not isinstance(body, dict):
        raise ValidationError({"non_field_errors": [_("The deal must be a JSON object.")]})
    number = body.get("number", default)
    if number is None:
        raise ValidationError({"number": [_("This field is required.")]})
    return number, {k: v for k, v in body.items() if k != "number"}


class DealList(TableEndpoint):

    @extend_schema(responses=DealSerializer(many=True), operation_id="tables_deals_list")
    def get(self, request, table_id: int):
        table = self.table
        return Response([deal_json(d) for d in table.deals.order_by("number")])

    @extend_schema(request=DEAL_BODY, responses={201: DealSerializer},
                   parameters=[IDEMPOTENCY])
    def post(self, request, table_id: int):
        number, record = _split_number(request.data)
        # the key is looked up with the sheet's reads and its answer stored with the
        # deal's rows (``deal_record``): no round trip of its own
        once = Once(self.sheet.table, request.headers.get("Idempotency-Key"),
                    lambda: request_fingerprint("POST", request.path, request.data),
                    made=_created)
        deal_record(sheet=self.sheet, number=number, record=record, actor=actor_of(request),
                    once=once)
        code, body, headers = once.answer
        if once.replayed:
            headers = {**headers, "Idempotent-Replayed": "true"}
        return Response(body, status=code, headers=headers)


def _created(deal: Deal) -> tuple[int, dict, dict[str, str]]:
    """The answer to a deal POST that entered ``deal`` (stored under its key)."""
    return status.HTTP_201_CREATED, deal_json(deal), {"ETag": deal.etag}


class DealPreview(TableEndpoint):
    """Validate and score a deal in its place in the sheet without storing it (the
    tablet shows the value live and the errors next to the fields before saving)."""

    locks_table = False  # stores nothing

    @extend_schema(request=DEAL_BODY, responses=PreviewSerializer)
    def post(self, request, table_id: int):
        table = self.table
        number, record = _split_number(request.data)
        scored = deal_preview(table_id=table.pk, number=number, record=record)
        return Response({"number": number, "record": scored.record, "scores": scored.scores,
                         "extra": scored.extra})


class DealDetail(ConditionalReads, TableEndpoint):

    def _deal(self, table, number) -> Deal:
        return get_object_or_404(Deal, table=table, number=number)

    @extend_schema(responses={200: DealSerializer, 304: None})
    def get(self, request, table_id: int, number: int):
        return _deal_answer(self._deal(self.table, number))

    @extend_schema(request=CORRECTION_BODY, responses=DealSerializer, parameters=[IF_MATCH])
    def put(self, request, table_id: int, number: int):
        body, reason = request.data, None
        if isinstance(body, dict) and "reason" in body:  # why, beside the record
            body = {k: v for k, v in body.items() if k != "reason"}
            reason = request.data["reason"]
        try:
            body_number, record = _split_number(body, default=number)
            if body_number != number:
                raise ValidationError(
                    {"number": [_("A correction cannot change the deal number.")]})
        except APIException:
            self._deal(self.table, number)  # a deal that is not there: 404 before the body
            raise
        # the service reads the sheet's deals and answers 404 for a missing one itself
        deal = deal_correct(sheet=self.sheet, number=number, record=record, reason=reason,
                            actor=actor_of(request), if_match=request.headers.get("If-Match"))
        return _deal_answer(deal)

    @extend_schema(responses={204: None}, parameters=[IF_MATCH])
    def delete(self, request, table_id: int, number: int):
        # the service answers 404 for a deal that is not there before anything else
        deal_delete(sheet=self.sheet, number=number, actor=actor_of(request),
                    if_match=request.headers.get("If-Match"))
        return Response(status=status.HTTP_204_NO_CONTENT)


# The engine of a game that takes summaries checks them (every offending seat and field in
# one answer); the schema states their shape and bounds.
_POINTS = max(e.summary_game_points_bound for e in all_engines() if e.supports_summary)


@extend_schema_serializer(component_name="SkatSummary")
class SummarySerializer(StrictSerializer):
    """A sheet entered as its totals per seat (a game that takes summaries)."""

    seats = CheckedJSONField(label=_("seats"), help_text="one entry per seat, in seat order",
                             like=serializers.ListField(child=inline_serializer(
                                 "SkatSummarySeat", {
                                     "game_points": serializers.IntegerField(
                                         min_value=-_POINTS, max_value=_POINTS),
                                     "won": serializers.IntegerField(
                                         min_value=0, help_text="at most the series length"),
                                     "lost": serializers.IntegerField(
                                         min_value=0, help_text="at most the series length"),
                                 })))


def sheet_changed(view: TableEndpoint, request, body, change) -> Response:
    """A sheet's write: the body checked by the serializer ``body``, ``change`` run with
    what it validated, the table answered as it is now."""
    serializer = body(data=request.data)
    serializer.is_valid(raise_exception=True)
    change(serializer.validated_data)
    view.table.refresh_from_db()
    return Response(table_json(view.table, request))


class TableSummary(TableEndpoint):
    directors_only = True

    @extend_schema(request=SummarySerializer, responses=TableSerializer)
    def put(self, request, table_id: int):
        return sheet_changed(self, request, SummarySerializer, lambda body: summary_record(
            sheet=self.sheet, seats=body["seats"], actor=actor_of(request)))


@extend_schema_serializer(component_name="SheetSubmit")
class SubmitSerializer(StrictSerializer):
    """The sheet goes in: confirmed at the table, or by a director without that."""

    # Seats are checked by the service against the table (a number, at this table, once).
    confirmed_by = CheckedJSONField(
        label=_("confirmed by"), required=False,
        help_text="the seats whose players confirmed the totals at the table, each once",
        like=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=most_seats()),
            max_length=most_seats()))
    unconfirmed_reason = serializers.CharField(
        label=_("reason"), max_length=REASON_MAX, required=False, allow_blank=True,
        help_text="staff only: why the sheet goes in without every player's confirmation "
                  "(kept in the history)")


class TableSubmit(TableEndpoint):
    no_players = True  # a phone confirms its own seat (TableConfirm), never for the table

    @extend_schema(request=SubmitSerializer, responses=TableSerializer)
    def post(self, request, table_id: int):
        return sheet_changed(self, request, SubmitSerializer, lambda body: sheet_submit(
            sheet=self.sheet, actor=actor_of(request), confirmed_by=body.get("confirmed_by"),
            unconfirmed_reason=body.get("unconfirmed_reason", "")))


class EndSerializer(StrictSerializer):
    reason = serializers.CharField(label=_("reason"), max_length=REASON_MAX,
                             help_text=_("Why the sheet ends early (a player left, time "
                                         "ran out)."))


class TableEnd(TableEndpoint):
    """End a sheet early with the deals entered; it counts as submitted and shortened."""

    directors_only = True

    @extend_schema(request=EndSerializer, responses=TableSerializer)
    def post(self, request, table_id: int):
        return sheet_changed(self, request, EndSerializer, lambda body: sheet_end(
            sheet=self.sheet, reason=body["reason"], actor=actor_of(request)))


class TableHistory(TableEndpoint):
    directors_only = True

    @extend_schema(responses=HistoryEntrySerializer(many=True))
    def get(self, request, table_id: int):
        """Each entry also carries `hash` (SHA-256, 64 hex digits) and `previous` (the
        hash before it; `null` for the first): `hash = SHA-256(previous ‖ the entry's
        canonical JSON)`, canonical JSON being RFC 8785 (JCS: sorted keys, no whitespace,
        UTF-8) of the entry as this endpoint shows it without `hash`; `previous` goes in
        as its 64 hex digits, nothing for the first entry."""
        # the entry is exactly what is hashed, and the hash: no words, names or address,
        # which change with the request's language, today's names and an erasure (the
        # staff's history page shows them from the stored rows)
        events = self.table.events.select_related("user").order_by("id")
        return Response([{**history.content(e), "hash": e.hash} for e in events])
