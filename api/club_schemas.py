"""The shapes of the club-life answers (evenings, seasons, table money, members, player
profiles and merges) and of an import's answer, for the OpenAPI schema
(documentation only; the schema-conformance run of the suite holds them to the views)."""

from rest_framework import serializers

from api.strict import StrictSerializer
from tournaments.models import Tournament


class EveningSerializer(StrictSerializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    game = serializers.CharField()
    rules = serializers.DictField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    published = serializers.BooleanField()
    club = serializers.IntegerField(allow_null=True)
    club_evening = serializers.BooleanField()
    participants = serializers.IntegerField(allow_null=True)


class EveningListSerializer(StrictSerializer):
    results = EveningSerializer(many=True)


class EveningEntrantSerializer(StrictSerializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField()


class EveningCreatedSerializer(EveningSerializer):
    participants = EveningEntrantSerializer(many=True)
    round = serializers.DictField(allow_null=True, help_text="the first round with its "
                                                             "tables and entry tokens")


class MemberLineSerializer(StrictSerializer):
    line = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    member_number = serializers.CharField(allow_blank=True, allow_null=True)
    status = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    existing = serializers.DictField(required=False)
    alike = serializers.ListField(child=serializers.CharField(), help_text=(
        "why the line is a suspect (a name alike another line's or a member's); the "
        "import needs its number in keep or drop"))


class MembersPreviewSerializer(StrictSerializer):
    valid = serializers.BooleanField()
    new = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    exists = serializers.IntegerField()
    suspects = serializers.IntegerField()
    lines = MemberLineSerializer(many=True)


class ImportedMemberSerializer(StrictSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    member_number = serializers.CharField(allow_blank=True, allow_null=True)


class MembersImportedSerializer(StrictSerializer):
    created = serializers.IntegerField()
    players = ImportedMemberSerializer(many=True)


class ProfileEventSerializer(StrictSerializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    date = serializers.CharField(allow_null=True)
    game = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    club_evening = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField()
    series = serializers.IntegerField()
    participants = serializers.IntegerField()


class ProfileGameSerializer(StrictSerializer):
    game = serializers.CharField()
    events = serializers.IntegerField()
    series = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    won = serializers.IntegerField(allow_null=True)
    lost = serializers.IntegerField(allow_null=True)


class ProfileSerializer(StrictSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    events = ProfileEventSerializer(many=True)
    games = ProfileGameSerializer(many=True)


class MergedSerializer(StrictSerializer):
    kept = serializers.IntegerField()
    removed = serializers.IntegerField()
    participations = serializers.IntegerField()
    profile = ProfileSerializer()


class SeasonRowSerializer(StrictSerializer):
    rank = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField()
    name = serializers.CharField()
    qualified = serializers.BooleanField()
    score = serializers.IntegerField()
    rounds = serializers.IntegerField(help_text="rounds played on the counted evenings")
    average = serializers.FloatField(help_text="score per round, two decimals")
    attended = serializers.IntegerField()
    counted = serializers.IntegerField()
    evenings = serializers.ListField(child=serializers.DictField())


class SeasonSerializer(StrictSerializer):
    club = serializers.IntegerField()
    club_name = serializers.CharField()
    game = serializers.CharField()
    year = serializers.IntegerField()
    best_n = serializers.IntegerField(allow_null=True)
    min_evenings = serializers.IntegerField()
    ranked_by = serializers.ChoiceField(choices=["sum", "average"],
                                        help_text='"sum": by the counted score; "average": '
                                                  'by the score per round played')
    evenings = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    stale = serializers.BooleanField()
    results = SeasonRowSerializer(many=True)


class TableMoneyRowSerializer(StrictSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    member_number = serializers.CharField(allow_blank=True, allow_null=True)
    lost = serializers.IntegerField()
    amount_cents = serializers.IntegerField()


class EveningTableMoneySerializer(StrictSerializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.CharField(allow_null=True)
    game = serializers.CharField()
    loss_fee_cents = serializers.IntegerField()
    loss_fee_from = serializers.IntegerField(allow_null=True)
    loss_fee_high_cents = serializers.IntegerField()
    players = TableMoneyRowSerializer(many=True)
    lost = serializers.IntegerField()
    total_cents = serializers.IntegerField()


class SeasonPlayerMoneySerializer(StrictSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    member_number = serializers.CharField(allow_blank=True, allow_null=True)
    evenings = serializers.IntegerField()
    lost = serializers.IntegerField()
    amount_cents = serializers.IntegerField()


class SeasonTableMoneySerializer(StrictSerializer):
    club = serializers.IntegerField()
    game = serializers.CharField()
    year = serializers.IntegerField()
    evenings = EveningTableMoneySerializer(many=True)
    players = SeasonPlayerMoneySerializer(many=True)
    total_cents = serializers.IntegerField()


class ImportedSerializer(StrictSerializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
