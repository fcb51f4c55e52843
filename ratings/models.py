"""Ratings (games.md §10.1): a player's skill per game, its history, the rated results in
their order, and the outbox of changes not yet rated.

- ``RatedResult``: one submitted sheet that counts, in the order results are applied —
  its ``key`` is the event date, the round number, the table number and the sheet's id,
  written so that text order is that order (``result_key``). ``standing`` is what was
  rated (``[[player, score], …]``), so a re-rating can tell where the new list first
  differs from the stored one and start there.
- ``RatingEntry``: one player's state after one rated result (``mu``, ``sigma``, rated
  ``sheets`` so far and the shown ``rating``): the history, and the point an incremental
  update restarts from.
- ``Rating``: a player's current state per game (his last entry), for leaderboards.
- ``RatingOutbox``: a committed change whose effect on a game's ratings is pending;
  ``from_key`` is the first result it may touch (``FROM_START``: every one, re-rated in
  full), or empty with ``tournament`` set: the first stored or current result of that
  tournament.
- ``RatingState``: one row per game, locked by a re-rating; when it last ran.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments.models import Table, Tournament

FROM_START = "0"  # sorts before every key


def result_key(date, round_number: int, table_number: int, table_id: int) -> str:
    """The sortable key of a result: ``2026-11-26|0003|0012|000000004711``."""
    return f"{date.isoformat()}|{round_number:04d}|{table_number:04d}|{table_id:012d}"


class RatingState(models.Model):
    game = models.CharField(_("game"), max_length=20, unique=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    outbox_upto = models.BigIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)
    # results re-rated by the last run (0: nothing had changed)
    last_rerated = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.game}: {self.computed_at}"


class RatingOutbox(models.Model):
    game = models.CharField(max_length=20)
    tournament = models.ForeignKey(Tournament, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    from_key = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "id"])]

    def __str__(self) -> str:
        return f"{self.game} from {self.from_key or self.tournament_id}"


class RatedResult(models.Model):
    game = models.CharField(_("game"), max_length=20)
    key = models.CharField(max_length=40)
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    date = models.DateField(_("date"))
    round_number = models.PositiveIntegerField(_("round"))
    table_number = models.PositiveIntegerField(_("table"))
    standing = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "key"]
        constraints = [models.UniqueConstraint(fields=["game", "key"],
                                               name="one_rated_result_per_key")]

    def __str__(self) -> str:
        return f"{self.game} {self.key}"


class RatingEntry(models.Model):
    result = models.ForeignKey(RatedResult, on_delete=models.CASCADE, related_name="entries")
    # no index of its own: the one on (player, game, key) serves a player's look-ups too,
    # and each index is one more write per entry of every re-rating
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                               db_index=False)
    game = models.CharField(max_length=20)
    key = models.CharField(max_length=40)  # the result's, for ordering without a join
    mu = models.FloatField()
    sigma = models.FloatField()
    sheets = models.PositiveIntegerField()
    rating = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["player", "game", "key"]),
                   models.Index(fields=["game", "key"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.key}: {self.rating}"


class Rating(models.Model):
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE,
                               related_name="+")
    game = models.CharField(_("game"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    sheets = models.PositiveIntegerField(_("rated sheets"))
    rating = models.IntegerField(_("rating"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["player", "game"],
                                               name="one_rating_per_player_and_game")]
        indexes = [models.Index(fields=["game", "-rating", "-sheets"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game}: {self.rating}"

from ratings.insight_models import SheetStat  # noqa: E402, F401  (games.md §11)
from ratings.list_models import RankingList  # noqa: E402, F401  (the ranking lists: ratings.list_models)
