"""Tournament and Participant.

A *tournament* (also a club evening) is played in one game under its house rules
(``rules``, validated by the game's engine when the tournament is created). A
*participant* is a player registered for it, with a start number.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.choices import GAME_CHOICES


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=180, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    date = models.DateField(_("date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.DRAFT)
    published = models.BooleanField(_("published"), default=False)
    avoid_same_club = models.BooleanField(_("avoid club-mates at a table"), default=False)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), related_name="tournaments_run",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               related_name="participations")
    start_number = models.PositiveIntegerField(_("start number"))
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        ordering = ["tournament", "start_number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
            models.UniqueConstraint(fields=["tournament", "start_number"],
                                    name="unique_start_number"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number}. {self.player.name}"
