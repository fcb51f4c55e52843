"""Ranking lists (*Ranglisten*, games.md §10.2): a club's list over a period.

A *ranking list* has a name, a game, a period (``first`` and ``last`` date, both
included), the clubs whose published tournaments of that game in the period count (the
owning club by default), ``best_n`` (None: every event counts), ``min_events`` (events
needed to be ranked) and a points table: ``"field"`` (place p of N gets N − p + 1) or a
list of non-negative whole numbers (place p gets the p-th, places beyond it 0). The list
itself is computed when read, from the tournaments' stored standings
(``ratings.ranking_lists.compute``): nothing is stored but the definition.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.choices import HasGame, validate_game

NAME_MAX = 120
MAX_POINTS = 200  # entries of a points table
MAX_POINT_VALUE = 100_000  # one place's points
MAX_EVENTS = 1000  # best_n and min_events
MAX_CLUBS = 50  # clubs of one list


def field_points() -> str:
    """The default points table: place p of N gets N − p + 1."""
    return "field"


class RankingList(HasGame, models.Model):
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="ranking_lists")
    name = models.CharField(_("name"), max_length=NAME_MAX)
    game = models.CharField(_("game"), max_length=20, validators=[validate_game])
    first = models.DateField(_("first day"))
    last = models.DateField(_("last day"))
    clubs = models.ManyToManyField(Club, verbose_name=_("clubs counted"), related_name="+")
    best_n = models.PositiveIntegerField(_("best events counted"), null=True, blank=True)
    min_events = models.PositiveIntegerField(_("events needed to be ranked"), default=1)
    # "field" or a list of non-negative whole numbers (place 1 first)
    points = models.JSONField(_("points table"), default=field_points)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["club", "-last", "id"]
        verbose_name = _("ranking list")
        verbose_name_plural = _("ranking lists")

    def __str__(self) -> str:
        return self.name
