"""The shapes of the ``/tables/*`` answers for the OpenAPI schema (documentation only:
the views answer the read models of ``tournaments.selectors`` as they are, and the
schema-conformance run of the suite holds the two together)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.openapi import DEAL_CORRECTION, DEAL_ENTRY, DEAL_RECORD
from api.strict import StrictSerializer
from tournaments.models import (
    CALL_REASON_MAX,
    OBJECTION_NOTE_MAX,
    DirectorCall,
    Objection,
    SheetEvent,
)


@extend_schema_field(DEAL_RECORD)
class DealRecordField(serializers.JSONField):
    """The stored record: the game's deal record with the engine's defaults filled in."""


class DealSerializer(StrictSerializer):
    number = serializers.IntegerField(min_value=1)
    record = DealRecordField()
    scores = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="each seat's score for this deal, in seat order")
    extra = serializers.DictField(help_text="the game's details of the scoring (game "
                                            "value, multiplier …)")
    version = serializers.IntegerField(min_value=1)


class CellSerializer(StrictSerializer):
    score = serializers.IntegerField()
    running = serializers.IntegerField()


class DealRowSerializer(DealSerializer):
    etag = serializers.CharField()
    cells = CellSerializer(many=True)


class SheetSeatSerializer(StrictSerializer):
    seat = serializers.IntegerField(min_value=1)
    participant = serializers.IntegerField()
    name = serializers.CharField()


@extend_schema_field({"type": "object", "description": "a seat's totals: score and the "
                      "game's figures (won, lost, game_points …)",
                      "properties": {"seat": {"type": "integer"},
                                     "participant": {"type": "integer"},
                                     "score": {"type": "integer"}},
                      "required": ["seat", "participant", "score"],
                      "additionalProperties": {"oneOf": [{"type": "integer"},
                                                         {"type": "boolean"}]}})
class TotalsField(serializers.JSONField):
    pass


class HintsSerializer(StrictSerializer):
    number = serializers.IntegerField(min_value=1)
    dealer = serializers.IntegerField(min_value=1)
    active_seats = serializers.ListField(child=serializers.IntegerField(min_value=1))
    cards = serializers.IntegerField(required=False)
    bidding_order = serializers.ListField(child=serializers.IntegerField(), required=False)
    due = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="the seat whose compulsory deal is due now (games with one), else null")
    forbidden_total = serializers.IntegerField(required=False, allow_null=True)


class ObjectionSerializer(StrictSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    deal = serializers.IntegerField(allow_null=True, help_text="null: the whole sheet")
    note = serializers.CharField(max_length=OBJECTION_NOTE_MAX)
    by = serializers.CharField(allow_null=True, help_text="the player who raised it from "
                                                          "their phone; null: the tablet")
    at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=Objection.Status.values)
    resolution = serializers.CharField(max_length=OBJECTION_NOTE_MAX, allow_blank=True)
    resolved_at = serializers.DateTimeField(allow_null=True)


class TournamentObjectionSerializer(ObjectionSerializer):
    table_number = serializers.IntegerField()
    round = serializers.IntegerField()


class CallSerializer(StrictSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    round = serializers.IntegerField()
    by = serializers.CharField(allow_null=True, help_text="the calling player; null: the "
                                                          "tablet")
    reason = serializers.CharField(max_length=CALL_REASON_MAX, allow_blank=True)
    at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=DirectorCall.Status.values)
    seen_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)


class TableSerializer(StrictSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    round_closed = serializers.BooleanField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    game = serializers.CharField()
    rules = serializers.DictField(help_text="the house rules in force, defaults included")
    status = serializers.ChoiceField(choices=["open", "submitted"])
    submitted = serializers.BooleanField()
    shortened = serializers.BooleanField()
    end_reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    sheet_length = serializers.IntegerField()
    complete = serializers.BooleanField()
    next_deal = serializers.IntegerField(allow_null=True)
    dealer = serializers.IntegerField(allow_null=True)
    next = HintsSerializer(allow_null=True)
    seats = SheetSeatSerializer(many=True)
    summary = serializers.ListField(child=serializers.DictField(), allow_null=True)
    totals = serializers.ListField(child=TotalsField())
    deals = DealRowSerializer(many=True)
    confirmed = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="the seats whose players confirmed the sheet as it stands (any change "
                  "voids them); after the submission, those who had confirmed it")
    objections = ObjectionSerializer(many=True, help_text="the open objections")
    entry_token = serializers.CharField(required=False, help_text="staff only")
    entry_url = serializers.CharField(required=False, help_text="staff only")


class PreviewSerializer(StrictSerializer):
    number = serializers.IntegerField()
    record = DealRecordField()
    scores = serializers.ListField(child=serializers.IntegerField())
    extra = serializers.DictField()


_HEX = r"^[0-9a-f]{64}$"


class HistoryEntrySerializer(StrictSerializer):
    """One entry of a table's history, a link of its hash chain: ``hash = SHA-256(previous
    ‖ the entry's canonical JSON)``, canonical JSON being RFC 8785 (JCS: sorted keys, no
    whitespace, UTF-8) of the entry as this endpoint shows it without ``hash``;
    ``previous`` goes in as its 64 hex digits, nothing for the first entry. Every other
    field is hashed, ``id`` among them."""

    id = serializers.IntegerField(help_text="the entry's key; verify names it as first_bad")
    at = serializers.DateTimeField(help_text="UTC, as hashed")
    action = serializers.ChoiceField(choices=SheetEvent.Action.choices)
    deal = serializers.IntegerField(allow_null=True)
    by = serializers.CharField(allow_null=True,
                               help_text="'table', the staff member's user name, or null")
    participant = serializers.IntegerField(
        allow_null=True, help_text="the player whose own phone made the change, else null")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    previous = serializers.RegexField(_HEX, allow_null=True,
                                      help_text="the hash of the entry before; null first")
    hash = serializers.RegexField(
        _HEX, help_text="SHA-256 (64 hex digits) of previous's hex digits followed by the "
                        "RFC 8785 canonical JSON of this entry without hash")


DEAL_BODY = {"application/json": DEAL_ENTRY}
# a correction: the entry and, beside it, why (``reason``)
CORRECTION_BODY = {"application/json": DEAL_CORRECTION}
