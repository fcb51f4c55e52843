"""Club and Player.

A *club* (Verein) is run by its admins (staff users). A *player* is a person who sits at
tables; membership in one club is optional and carries the club's member number.
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
