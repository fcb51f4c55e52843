"""``ShownNameField``: a participant's (or player's) name in an answer, as the request
may see it — full for those who direct the tournament (``sees_full_names``, put in the
serializer's context as ``full_names``), else as the player chose (``clubs.publication``).
Read-only; the player must be loaded with the row (no query of its own)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Player
from clubs.publication import shown_player


@extend_schema_field({"type": "string", "maxLength": 120, "readOnly": True})
class ShownNameField(serializers.Field):
    def __init__(self, source_path: str = "", **kwargs):
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("help_text", "the name as its player chose to be shown "
                          "(full, “Anna B.” or “No. 17”); full for directors")
        super().__init__(**kwargs)

    def get_attribute(self, instance):
        return instance

    def to_representation(self, value) -> str:
        full = bool(self.context.get("full_names", False))
        if not isinstance(value, Player):
            participant = getattr(value, "participant", value)
            return shown_player(participant.player, participant.start_number, full=full)
        return shown_player(value, full=full)
