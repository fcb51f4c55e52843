"""A league season's data (games.md §9.2).

Terms:

- *league* (a season): one competition of one game in one year, with its house rules
  (``rules``), its scoring (``scoring``, ``leagues.scoring.Scoring.as_dict``) and the days
  after a matchday when its table becomes binding. Run by its *directors* (the staff user
  who created it and those added) and the admins of its ``club``, if it has one.
- *division* (*Liga*, *Staffel*): the teams that meet; ``team_size`` players per team and
  series, ``min_players`` to appear, ``series_per_matchday``, ``matchdays`` a season.
- *team*: a club's team in a division, its *roster* (``RosterEntry``: regulars and
  substitutes; a player is on one team per league) and its *captain*, who sends the
  line-ups with the team's ``captain_token`` (``Authorization: Captain …``).
- *matchday*: a day of the division; its *groups* (``Group``, numbered 1, 2, …) of 2..5
  teams (``GroupTeam``, in the group's order: team index t of the seating plan); a
  decentral matchday names a host per group.
- *line-up* (``LineUp``): per group and team the players at positions 1..team_size
  (null: missing); *substitutions* (``Substitution``) put another player at a position from
  a later series on.
- *group tournament*: a group is played as a tournament of the app, one round per series,
  seated by the day's ``plan`` (``leagues.schedule``); *series results*
  (``SeriesResult``) are read from its submitted sheets, or keyed in from paper.
- *table* (``TableRow``): the stored league table, recomputed off the request: the
  *outbox* (``LeagueOutbox``) lists the changes still to be counted, ``DivisionState``
  when they last were. League figures are stored in half-points.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.choices import HasGame, validate_league_game
from tournaments.models import Tournament
from tournaments.tokens import new_token

BINDING_AFTER_DAYS = 14


class League(HasGame, models.Model):
    name = models.CharField(_("name"), max_length=160)
    game = models.CharField(_("game"), max_length=20, validators=[validate_league_game])
    year = models.PositiveSmallIntegerField(_("year"))
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    scoring = models.JSONField(_("scoring"))
    binding_after_days = models.PositiveSmallIntegerField(_("binding after days"),
                                                          default=BINDING_AFTER_DAYS)
    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="leagues")
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, verbose_name=_("directors"),
                                       related_name="leagues_run", blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-year", "name", "id"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return f"{self.name} {self.year}"


class Division(models.Model):
    league = models.ForeignKey(League, verbose_name=_("league"), on_delete=models.CASCADE,
                               related_name="divisions")
    name = models.CharField(_("name"), max_length=160)
    level = models.PositiveSmallIntegerField(_("level"))
    team_size = models.PositiveSmallIntegerField(_("team size"), default=4)
    min_players = models.PositiveSmallIntegerField(_("minimum players"))
    max_substitutes = models.PositiveSmallIntegerField(_("maximum substitutes"), null=True,
                                                       blank=True)
    series_per_matchday = models.PositiveSmallIntegerField(_("series per matchday"))
    matchdays = models.PositiveSmallIntegerField(_("matchdays"), default=5)
    notes = models.TextField(_("notes on promotion and relegation"), blank=True)

    class Meta:
        ordering = ["league", "level", "name", "id"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")

    def __str__(self) -> str:
        return self.name


class LeagueTeam(models.Model):
    division = models.ForeignKey(Division, verbose_name=_("division"),
                                 on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.PROTECT,
                             related_name="league_teams")
    name = models.CharField(_("name"), max_length=120)
    captain = models.ForeignKey(Player, verbose_name=_("captain"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    captain_token = models.CharField(_("captain token"), max_length=64, unique=True,
                                     default=new_token, editable=False)
    withdrawn_on = models.DateField(_("withdrawn on"), null=True, blank=True)

    class Meta:
        ordering = ["division", "id"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["division", "name"],
                                               name="unique_league_team_name")]

    def __str__(self) -> str:
        return self.name


class RosterEntry(models.Model):
    class Role(models.TextChoices):
        REGULAR = "regular", _("regular")
        SUBSTITUTE = "substitute", _("substitute")

    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="roster")
    # the team's league, kept here so that the database holds "one team per league"
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               related_name="league_rosters")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices,
                            default=Role.REGULAR)

    class Meta:
        ordering = ["team", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "player"],
                                               name="one_team_per_league")]

    def __str__(self) -> str:
        return f"{self.team} – {self.player_id}"


class Matchday(models.Model):
    class Kind(models.TextChoices):
        CENTRAL = "central", _("central")
        DECENTRAL = "decentral", _("decentral")

    division = models.ForeignKey(Division, verbose_name=_("division"),
                                 on_delete=models.CASCADE, related_name="matchday_set")
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    venue_name = models.CharField(_("venue"), max_length=160, blank=True)
    venue_address = models.CharField(_("address"), max_length=300, blank=True)
    double_with = models.ForeignKey("self", verbose_name=_("double matchday with"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    # a director reopened the binding results for a correction
    reopened = models.BooleanField(_("reopened"), default=False)

    class Meta:
        ordering = ["division", "number"]
        verbose_name = _("matchday")
        verbose_name_plural = _("matchdays")
        constraints = [models.UniqueConstraint(fields=["division", "number"],
                                               name="unique_matchday_number")]

    def __str__(self) -> str:
        return f"{self.division} – {self.number}"


class Group(models.Model):
    matchday = models.ForeignKey(Matchday, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField(_("number"))
    host = models.ForeignKey(LeagueTeam, verbose_name=_("host"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    tournament = models.OneToOneField(Tournament, null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="league_group")
    # the day's seating: {"kind", "teams": [team ids, plan order], "series": [[[[t, p]]]]}
    plan = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    teams = models.ManyToManyField(LeagueTeam, through="GroupTeam", related_name="groups")

    class Meta:
        ordering = ["matchday", "number"]
        constraints = [models.UniqueConstraint(fields=["matchday", "number"],
                                               name="unique_group_number")]

    def __str__(self) -> str:
        return f"{self.matchday} – {self.number}"


class GroupTeam(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="+")
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["group", "order"]
        constraints = [models.UniqueConstraint(fields=["group", "team"],
                                               name="team_once_per_group")]

    def __str__(self) -> str:
        return f"{self.group} – {self.team_id}"



class LineUp(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="lineups")
    positions = models.JSONField(default=list)  # player ids or null, position 1 first
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "team"],
                                               name="one_lineup_per_group_and_team")]

    def __str__(self) -> str:
        return f"{self.group} – {self.team_id}: {self.positions}"



class Substitution(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="substitutions")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(_("position"))
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               related_name="+")
    replaced = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+")
    from_series = models.PositiveSmallIntegerField(_("from series"))
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["group", "from_series", "id"]

    def __str__(self) -> str:
        return f"{self.group} – {self.team_id}/{self.position} from {self.from_series}"



class SeriesResult(models.Model):
    class Source(models.TextChoices):
        SHEETS = "sheets", _("sheets")
        PAPER = "paper", _("paper")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="results")
    series = models.PositiveSmallIntegerField(_("series"))
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="results")
    total = models.IntegerField(_("total"))
    players = models.JSONField(default=list)  # [{"player", "position", "score"}]
    source = models.CharField(max_length=10, choices=Source.choices)

    class Meta:
        ordering = ["group", "series", "team"]
        constraints = [models.UniqueConstraint(fields=["group", "series", "team"],
                                               name="one_result_per_series_and_team")]

    def __str__(self) -> str:
        return f"{self.group} – {self.series} – {self.team_id}: {self.total}"



class TableRow(models.Model):
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="table_rows")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    points = models.IntegerField()  # half-points
    minus = models.IntegerField(null=True, blank=True)  # half-points; None: not shown
    game_points = models.BigIntegerField()
    matchdays = models.JSONField(default=list)

    class Meta:
        ordering = ["division", "position"]

    def __str__(self) -> str:
        return f"{self.division_id}: {self.rank}. {self.team_id}"



class LeagueOutbox(models.Model):
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="outbox")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.division_id} @ {self.created_at}"



class DivisionState(models.Model):
    division = models.OneToOneField(Division, on_delete=models.CASCADE, related_name="state")
    computed_at = models.DateTimeField(null=True, blank=True)
    outbox_upto = models.BigIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.division_id}: {self.computed_at}"
