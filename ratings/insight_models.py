"""The stored figures of a player's statistics (games.md §11; ``ratings.insight``).

``SheetStat``: one player's row of one rated result (a finished sheet) — his score,
placement and expected placement there and his counts from the deal records. Written
by the re-rating (``ratings.services``) beside the ratings' history, for the same
results from the same first affected one on, so it is kept current incrementally and
always equals a full recompute. ``key`` is the result's key (``ratings.models
.result_key``): a player's rows in their order, and a date range, are one index range.
"""

from django.db import models

from clubs.models import Player
from tournaments.models import Tournament


class SheetStat(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                               db_index=False)  # the (player, game, key) index serves
    game = models.CharField(max_length=20)
    key = models.CharField(max_length=40)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    score = models.IntegerField()
    placement = models.PositiveSmallIntegerField()
    expected_placement = models.FloatField()
    deals = models.PositiveIntegerField(default=0)
    by_role = models.JSONField(default=dict)
    by_kind = models.JSONField(default=dict)

    class Meta:
        indexes = [models.Index(fields=["player", "game", "key"]),
                   models.Index(fields=["game", "key"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.key}"
