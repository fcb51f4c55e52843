"""Club life: a club's seasons and their stored ranking, and the record of merged players.

A *season* (Jahreswertung) ranks the players of a club's evenings of one game in one
calendar year; its stored rows are recomputed from the evenings' seats (see
``clublife.services.seasons``). A *club evening* is a tournament flagged ``club_evening``
(``clublife.services.evenings``). These models moved here from ``clubs``; their tables
kept their names (``db_table``), so the move recreated no table.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clublife.season_ranking import average_per_round
from clubs.models import Club, Player


class Season(models.Model):
    """A club's ranking of one game over one calendar year, and when it was computed.

    ``best_n`` (None: all) and ``min_evenings`` start as the club's defaults and may be
    changed per season; ``ranked_by`` orders the ranking by the counted score ("sum", the
    default) or by the score per round played ("average", the DDV's *Rundenschnitt*,
    games.md §8.8), for every game; ``evenings`` is how many evenings the season had at the last
    computation. Pending ``SeasonOutbox`` rows mean "stale".
    """

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="seasons")
    game = models.CharField(_("game"), max_length=20)
    year = models.PositiveSmallIntegerField(_("year"))
    best_n = models.PositiveSmallIntegerField(_("best evenings counted"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("evenings needed to be ranked"),
                                                    default=0)
    RANKED_BY_CHOICES = [("sum", _("Sum of the points")),
                         ("average", _("Average per round"))]
    ranked_by = models.CharField(_("ranked by"), max_length=10, choices=RANKED_BY_CHOICES,
                                 default="sum")
    evenings = models.PositiveIntegerField(_("evenings"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    outbox_upto = models.BigIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "clubs_season"  # moved from ``clubs``; the table kept its name
        ordering = ["club", "-year", "game"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "year"], name="one_season_per_year"),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.year} ({self.game})"


class SeasonRow(models.Model):
    """One player's place in a stored season ranking.

    ``rank`` is None for a player below the season's attendance minimum; ``attended`` is
    the number of evenings he played, ``counted`` how many of them count, ``rounds`` the
    rounds he played on the counted evenings (the average per round is ``score / rounds``);
    ``results`` lists every evening: ``{"evening", "date", "score", "counted"}``.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    score = models.IntegerField()
    figures = models.JSONField(default=dict)
    attended = models.PositiveIntegerField()
    counted = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField(default=0)
    results = models.JSONField(default=list)

    class Meta:
        db_table = "clubs_seasonrow"
        ordering = ["season", "position"]
        indexes = [models.Index(fields=["season", "position"])]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.rank}. {self.player_id}"

    @property
    def average(self) -> float:
        """The counted score per counted round, to two decimals (0 without a round)."""
        return average_per_round(self.score, self.rounds)


class SeasonOutbox(models.Model):
    """One row per change not yet in a season's stored ranking (written with the change)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="outbox")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "clubs_seasonoutbox"
        indexes = [models.Index(fields=["season", "id"])]

    def __str__(self) -> str:
        return f"{self.season_id} @ {self.created_at}"


class PlayerMerge(models.Model):
    """The record of a duplicate player merged into another: who was removed, what moved."""

    kept = models.ForeignKey(Player, verbose_name=_("kept player"), null=True,
                             on_delete=models.SET_NULL, related_name="merges")
    kept_name = models.CharField(_("kept name"), max_length=120)
    removed_id = models.BigIntegerField(_("removed player id"))
    removed_name = models.CharField(_("removed name"), max_length=120)
    removed_club = models.ForeignKey(Club, verbose_name=_("removed player's club"), null=True,
                                     blank=True, on_delete=models.SET_NULL, related_name="+")
    removed_member_number = models.CharField(_("removed member number"), max_length=40,
                                             blank=True)
    participations = models.PositiveIntegerField(_("participations moved"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True,
                           blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        db_table = "clubs_playermerge"
        ordering = ["-at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return f"{self.removed_name} → {self.kept_name}"


class TableMoneyChange(models.Model):
    """One correction of a tournament's table-money schedule (*Verlustspielgeld*):
    the schedule before and after, who and when. Append-only, so an evening's fee can be
    corrected after it was played without losing what it was.

    ``before``/``after`` are ``{"loss_fee_cents", "loss_fee_from", "loss_fee_high_cents"}``
    as stored on the tournament (``loss_fee_cents`` None: the club's schedule applies).
    """

    tournament = models.ForeignKey("tournaments.Tournament", verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="table_money_changes")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True,
                           blank=True, on_delete=models.SET_NULL, related_name="+")
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        ordering = ["tournament", "at", "id"]
        verbose_name = _("table money change")
        verbose_name_plural = _("table money changes")

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.at}"
