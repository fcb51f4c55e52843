"""Club and Player: the bottom of the house (imports nothing but ``games``).

A *club* (Verein) is run by its admins (staff users). A *player* is a person who sits at
tables; membership in one club is optional and carries the club's member number (a
player's *membership* is his ``club`` with his ``member_number``).

A club's *defaults* are what its *club evenings* (weekly tournaments of the club) start
with: the game, its house rules and the *table money* (Verlustspielgeld): a fee in cents
per lost declarer game, optionally higher from the n-th loss of the evening on.

A player's *publication* choice (DSGVO) says how their name appears to the public: the
full name, the first name and the surname's initial ("Anna B."), or the start number
only ("Nr. 17"); directors always see the full name. An *erased* person's name and
contact were replaced ("Gelöschte Person <n>"); their results stay, so that the other
players' standings do not change.

A club's seasons, evenings and merged players live one floor up, in ``clublife``. The
game key and the rules are checked by the services that write them (``clubs.services``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.choices import DEFAULT_GAME, validate_game


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("admins"), related_name="clubs_run", blank=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    default_game = models.CharField(_("default game"), max_length=20, default=DEFAULT_GAME,
                                    validators=[validate_game])
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

    class Publication(models.TextChoices):
        FULL = "full", _("full name")
        INITIAL = "initial", _("first name and initial of the surname")
        NUMBER = "number", _("start number only")

    # db_default too: a row written without the column (an older migration state, a raw
    # insert) gets the full name, as every player had before the choice existed
    publication = models.CharField(_("name on public pages"), max_length=10,
                                   choices=Publication.choices, default=Publication.FULL,
                                   db_default=Publication.FULL)
    erased_at = models.DateTimeField(_("erased at"), null=True, blank=True)

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

    @property
    def erased(self) -> bool:
        return self.erased_at is not None
