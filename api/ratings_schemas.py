"""The shapes of the ratings' answers, for the OpenAPI schema (documentation only)."""

from rest_framework import serializers

from api.strict import StrictSerializer


class LeaderboardRowSerializer(StrictSerializer):
    rank = serializers.IntegerField(help_text="equal rating and sheets share a rank")
    player = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="round(1000 + 40 × (mu − 3 × sigma))")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    sheets = serializers.IntegerField(help_text="rated sheets")


class LeaderboardSerializer(StrictSerializer):
    game = serializers.CharField()
    club = serializers.IntegerField(allow_null=True)
    min_sheets = serializers.IntegerField()
    results = LeaderboardRowSerializer(many=True)


class RatingPointSerializer(StrictSerializer):
    date = serializers.DateField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    rating = serializers.IntegerField(help_text="the rating after this result")


class PlayerRatingSerializer(StrictSerializer):
    game = serializers.CharField()
    rating = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    sheets = serializers.IntegerField()
    history = RatingPointSerializer(many=True)
