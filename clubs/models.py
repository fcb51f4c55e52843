"""Club and Player, a club's seasons, and the record of merged players.

A *club* (Verein) is run by its admins (staff users). A *player* is a person who sits at
tables; membership in one club is optional and carries the club's member number (a
player's *membership* is his ``club`` with his ``member_number``).

A club's *defaults* are what its *club evenings* (weekly tournaments of the club) start
with: the game, its house rules and the *table money* (Verlustspielgeld): a fee in cents
per lost declarer game, optionally higher from the n-th loss of the evening on.

A *season* (Jahreswertung) ranks the players of a club's evenings of one game in one
calendar year; its stored rows are recomputed from the evenings' seats (see
``tournaments.services.seasons``). This app imports nothing from the others: the game
key and the rules are checked by the services that write them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("admins"), related_name="clubs_run", blank=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    default_game = models.CharField(_("default game"), max_length=20, default="skat")
    default_rules = models.JSONField(_("default house rules"), default=dict, blank=True)
    loss_fee_cents = models.PositiveIntegerField(_("fee per lost game (cents)"), default=0)
    loss_fee_from = models.PositiveSmallIntegerField(
        _("higher fee from the n-th lost game"), null=True, blank=True)
    loss_fee_high_cents = models.PositiveIntegerField(_("higher fee per lost game (cents)"),
                                                      default=0)
    season_best_n = models.PositiveSmallIntegerField(
        _("season: best evenings counted"), null=True, blank=True,
        help_text=_("Empty: every evening counts."))
    season_min_evenings = models.PositiveSmallIntegerField(
        _("season: evenings needed to be ranked"), default=0)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="players",
    )
    member_number = models.CharField(_("member number"), max_length=40, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~models.Q(member_number=""),
                name="unique_member_number_per_club",
            )
        ]

    def __str__(self) -> str:
        return self.name



class Season(models.Model):
    """A club's ranking of one game over one calendar year, and when it was computed.

    ``best_n`` (None: all) and ``min_evenings`` start as the club's defaults and may be
    changed per season; ``evenings`` is how many evenings the season had at the last
    computation. Pending ``SeasonOutbox`` rows mean "stale".
    """

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="seasons")
    game = models.CharField(_("game"), max_length=20)
    year = models.PositiveSmallIntegerField(_("year"))
    best_n = models.PositiveSmallIntegerField(_("best evenings counted"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("evenings needed to be ranked"),
                                                    default=0)
    evenings = models.PositiveIntegerField(_("evenings"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    outbox_upto = models.BigIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)

    class Meta:
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
    the number of evenings he played, ``counted`` how many of them count; ``results``
    lists every evening: ``{"evening", "date", "score", "counted"}``.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    score = models.IntegerField()
    figures = models.JSONField(default=dict)
    attended = models.PositiveIntegerField()
    counted = models.PositiveIntegerField()
    results = models.JSONField(default=list)

    class Meta:
        ordering = ["season", "position"]
        indexes = [models.Index(fields=["season", "position"])]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.rank}. {self.player_id}"


class SeasonOutbox(models.Model):
    """One row per change not yet in a season's stored ranking (written with the change)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="outbox")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
        ordering = ["-at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return f"{self.removed_name} → {self.kept_name}"
