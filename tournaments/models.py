"""The tournament's data: who plays, how they were seated, what they scored, who changed it.

Terms (the rules in ../shared/spec/games.md):

- *tournament* (also a club evening): played in one game under its house rules
  (``rules``, validated by the game's engine when the tournament is created); its
  ``status`` goes draft → running → finished.
- *participant*: a player (``clubs.Player``) registered for a tournament, with a start
  number; present (``checked_in``) players are drawn, a *withdrawn* one no more.
- *team*: participants ranked together in the team ranking (``TeamEvent`` is its history).
- *prize list*: the entry fee and who gets what, and its history — the ``prizes``
  app's (``prizes.models``).
- *round*: one draw of the present participants into tables, by a seating method and a
  seed (reproducible); *closed* once every sheet is in, *reopened* for corrections.
- *table*: one table of a round, with its *seats* (seat 1..n in clockwise order, each
  with that seat's sheet totals), its *sheet* (the *deals*, or a summary) and the
  entry token of its QR code. A *deal* holds the validated record and per-seat scores.
- *sheet history* (``SheetEvent``): append-only, who changed what, when and from where;
  a correction keeps the value before and after; a change made from a player's phone
  names the player (``participant``).
- *personal token*: a participant's secret (``/me/<token>/``, ``Authorization: Player``):
  the player's own phone sees their seat, sheet and rank, and acts at their table as the
  table's token does.
- *confirmation* (``SheetConfirmation``): a seated player's word that the sheet as it
  stands (its ``version``) is right; a later change to the sheet voids it. When every
  seated player has confirmed the current version, the sheet is submitted.
- *objection* (``Objection``, "Einspruch"): a player's or table's note against a deal or
  the whole sheet; while one is open the sheet is not submitted; the director resolves it.
- *call* (``DirectorCall``): a table or player asks for the director; open → seen → closed.
- *idempotency key*: the first answer to a POST, replayed to a retry.
- *standings*: computed off the request — the *outbox* (``StandingsOutbox``) lists the
  committed changes still to be counted, ``StandingsState`` when they last were, and
  ``StandingsPage`` holds the stored lists (overall and per round).
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.choices import HasGame, validate_game
from games.engines import get_engine
from tournaments import freshness
from tournaments.clock import Clock
from tournaments.seating import METHOD_LABELS
from tournaments.tokens import MAX_LENGTH as TOKEN_LENGTH
from tournaments.tokens import new_token

# Bounds of a tournament's planned rounds (any game).
MIN_ROUNDS_PLANNED = 1
MAX_ROUNDS_PLANNED = 30
# Bounds of the team size (games.md §6: default 4, a tandem is 2).
TEAM_SIZE_DEFAULT = 4
MIN_TEAM_SIZE = 2
MAX_TEAM_SIZE = 8
# Categories (games.md §10.3): at most 10 labels of 1-40 characters per tournament.
MAX_CATEGORIES = 10
CATEGORY_MAX_LENGTH = 40
# the longest reason given for ending a sheet early, submitting it unconfirmed or
# correcting a deal (``PUT /tables/{id}/deals/{number}/`` ``reason``)
REASON_MAX = 200
# The club ranking's K (games.md §10.4): 1..10, None: no club ranking.
MIN_CLUB_RANKING_K = 1
MAX_CLUB_RANKING_K = 10


class Tournament(HasGame, models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=180, unique=True)
    game = models.CharField(_("game"), max_length=20, validators=[validate_game])
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
    # None: the game's default (Engine.rounds_planned); balanced draws plan this many
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds planned"), null=True, blank=True,
        validators=[MinValueValidator(MIN_ROUNDS_PLANNED), MaxValueValidator(MAX_ROUNDS_PLANNED)])
    team_size = models.PositiveSmallIntegerField(
        _("team size"), default=TEAM_SIZE_DEFAULT,
        validators=[MinValueValidator(MIN_TEAM_SIZE), MaxValueValidator(MAX_TEAM_SIZE)],
        help_text=_("Players per team in the team ranking (2 for tandems)."))
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), related_name="tournaments_run",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # A club evening is the club's weekly routine (counted in its season ranking), not
    # an open tournament. Table money: the club's settings unless loss_fee_cents is set
    # here, in which case these three replace them for this tournament.
    club_evening = models.BooleanField(_("club evening"), default=False)
    loss_fee_cents = models.PositiveIntegerField(_("fee per lost game (cents)"), null=True,
                                                 blank=True)
    loss_fee_from = models.PositiveSmallIntegerField(_("higher fee from the n-th lost game"),
                                                     null=True, blank=True)
    loss_fee_high_cents = models.PositiveIntegerField(_("higher fee per lost game (cents)"),
                                                      null=True, blank=True)
    # games.md §10.3: the labels of the tournament's categories (Damen, Senioren, …), in
    # the director's order; a participant's ``categories`` are a subset of them
    categories = models.JSONField(_("categories"), default=list, blank=True)
    # games.md §10.3: a player wins one prize at most (the overall list pays first)
    one_prize_per_player = models.BooleanField(_("one prize per player"), default=False)
    # games.md §10.4: clubs ranked by their best K players; None: no club ranking
    club_ranking_k = models.PositiveSmallIntegerField(
        _("club ranking: players counted per club"), null=True, blank=True,
        validators=[MinValueValidator(MIN_CLUB_RANKING_K),
                    MaxValueValidator(MAX_CLUB_RANKING_K)])
    # Self-registration (signup.services.registrations): open to anyone while
    # ``registration_open`` and before the deadline; beyond the cap a waiting list.
    # With ``check_in`` on, only checked-in registrants are drawn; at ``release_at``
    # the unchecked ones are released and the waiting list moves up.
    registration_open = models.BooleanField(_("registration open"), default=False)
    registration_cap = models.PositiveIntegerField(_("places"), null=True, blank=True)
    registration_deadline = models.DateTimeField(_("registration deadline"), null=True,
                                                 blank=True)
    check_in = models.BooleanField(_("check-in at the door"), default=False)
    release_at = models.DateTimeField(_("release unchecked registrants at"), null=True,
                                      blank=True)
    released = models.BooleanField(_("unchecked registrants released"), default=False)
    # Walk-in mode: a sign-up at the door (the door poster's form) is checked in at once
    registration_walk_in = models.BooleanField(_("walk-ins at the door"), default=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    @property
    def planned_rounds(self) -> int:
        """Rounds the balanced draw plans: the tournament's choice or its game's default."""
        if self.rounds_planned is not None:
            return self.rounds_planned
        return get_engine(self.game).rounds_planned


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", _("registered")
    WAITING = "waiting", _("waiting list")
    CANCELLED = "cancelled", _("cancelled")


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               related_name="participations")
    start_number = models.PositiveIntegerField(_("start number"))
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    team = models.ForeignKey("Team", verbose_name=_("team"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="members")
    registered_at = models.DateTimeField(_("registered at"), null=True, blank=True,
                                         auto_now_add=True)
    personal_token = models.CharField(_("personal token"), max_length=TOKEN_LENGTH, unique=True,
                                      default=new_token, editable=False)
    # the labels of the tournament's categories this participant belongs to
    categories = models.JSONField(_("categories"), default=list, blank=True)
    # the player's club when registered (the club ranking counts it, games.md §10.4);
    # empty for a guest
    club = models.ForeignKey(Club, verbose_name=_("club at registration"), null=True,
                             blank=True, on_delete=models.SET_NULL, related_name="+")
    # a guest's own club as typed at sign-up (a club this server does not know): shown
    # beside the name in every list, print and file; the guest is no member of any club
    club_name = models.CharField(_("club name (guest)"), max_length=120, blank=True)
    # Registration (signup.services.registrations): only ``registered`` ones are
    # drawn, listed on boards and prints; ``waiting`` ones wait in ``queue_number`` order.
    status = models.CharField(_("registration status"), max_length=10,
                              choices=RegistrationStatus.choices,
                              default=RegistrationStatus.REGISTERED)
    queue_number = models.PositiveIntegerField(_("place in the queue"), null=True, blank=True)
    self_registered = models.BooleanField(_("registered themselves"), default=False)
    paid = models.BooleanField(_("paid"), default=False)
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    # the door form's one-time key (a hidden field) this sign-up came with: the same
    # phone's form sent twice at once is recognised by it (a double tap lands on the
    # same page); empty for every other sign-up
    door_key = models.CharField(_("door form key"), max_length=64, blank=True, editable=False)

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

    @property
    def club_label(self) -> str:
        """The club shown beside the name: the player's club, else a guest's typed club
        name, else empty (load ``player__club`` with the participant)."""
        club = self.player.club
        return club.name if club is not None else self.club_name


class Team(models.Model):
    """A team of the team ranking (*Mannschaft*; a *Tandem* of two): at most the
    tournament's ``team_size`` participants, each in at most one team."""

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"],
                                               name="unique_team_name")]

    def __str__(self) -> str:
        return self.name


class TeamEvent(models.Model):
    """History of a tournament's teams: who created, renamed, changed or removed which
    team, with the team before and after (``{"name", "members": [participant ids]}``)."""

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        UPDATE = "update", _("changed")
        DELETE = "delete", _("removed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="team_events")
    team_id_at_time = models.PositiveIntegerField(_("team"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} {self.team_id_at_time} @ {self.at}"


class Round(models.Model):
    """One draw of the tournament's participants into tables."""

    # seating's one list of drawing methods (names and label msgids): RANDOM, BALANCED, …
    Method = models.TextChoices("Method", [(name.upper(), (name, _(label)))
                                           for name, label in METHOD_LABELS.items()])

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))
    method = models.CharField(_("seating method"), max_length=10, choices=Method.choices)
    seed = models.BigIntegerField(_("seed"))
    closed = models.BooleanField(_("closed"), default=False)
    # Set when staff reopen the closed round for corrections and kept afterwards: the
    # tables' entry tokens stay locked for good once their round has been closed.
    reopened = models.BooleanField(_("reopened"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # the round's clock (``tournaments.clock``): an end time while it runs, what was left
    # while it is paused, and the minutes given so far (0: never started)
    clock_ends_at = models.DateTimeField(_("clock ends at"), null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(_("clock paused with seconds left"),
                                                       null=True, blank=True)
    clock_minutes = models.PositiveIntegerField(_("clock minutes"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}"

    @property
    def clock(self) -> Clock:
        return Clock(self.clock_ends_at, self.clock_paused_seconds, self.clock_minutes)

    @property
    def clock_now(self) -> dict | None:
        """The clock as shown now (``Clock.shown``), None before the start."""
        return self.clock.shown(timezone.now())


class RoundEvent(models.Model):
    """A round's history: its draws taken back (*Auslosung zurückgenommen*: ``before`` is
    the round as it was drawn — method, seed, when, and every table with its seats and
    its sheet's history — so that a draw undone before any entry loses nothing) and its
    clock's actions (``before`` and ``after`` the clock: ``ends_at``, ``paused_seconds``,
    ``minutes``), each with who and when."""

    class Action(models.TextChoices):
        UNDO = "undo", _("draw taken back")
        START = "start", _("clock started")
        PAUSE = "pause", _("clock paused")
        RESUME = "resume", _("clock resumed")
        EXTEND = "extend", _("clock extended")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="round_events")
    number = models.PositiveIntegerField(_("round"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} {self.number} @ {self.at}"


class Table(models.Model):
    """A table of one round: its seats, its sheet (deals or a summary) and its token.

    ``version`` grows with every change to the sheet; ``entry_token`` lets the table's
    tablet write its own sheet while the round is open and the sheet not submitted.
    """

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE,
                              related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    entry_token = models.CharField(_("entry token"), max_length=TOKEN_LENGTH, unique=True)
    submitted = models.BooleanField(_("submitted"), default=False)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    summary = models.JSONField(_("summary"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    # the hash of the last entry of the table's history (tournaments.services.history)
    history_head = models.CharField(_("history head"), max_length=64, blank=True, default="",
                                    editable=False)
    # Ended early by staff with the deals entered (``sheet_end``); the reason is here and
    # in the history.
    shortened = models.BooleanField(_("shortened"), default=False)
    end_reason = models.CharField(_("reason for ending early"), max_length=REASON_MAX,
                                  blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – {_('table')} {self.number}"


class Seat(models.Model):
    """A participant's seat at a table, with the sheet's totals for that seat.

    ``score`` is the game's standing figure for this sheet, ``figures`` the engine's
    other figures (e.g. Skat's won/lost/game_points); both are kept current by the
    services on every change so standings can sum them.
    """

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    participant = models.ForeignKey(Participant, verbose_name=_("participant"),
                                    on_delete=models.PROTECT, related_name="seats")
    score = models.IntegerField(_("score"), default=0)
    figures = models.JSONField(_("figures"), default=dict)

    class Meta:
        ordering = ["table", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="unique_seat"),
            models.UniqueConstraint(fields=["table", "participant"], name="seated_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.seat}"


class Deal(models.Model):
    """One deal of a table's sheet: the validated record and its per-seat scores."""

    # no index of its own: the unique (table, number) serves every look-up by table, and
    # each deal's insert then updates one index fewer (issue 51)
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="deals", db_index=False)
    number = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("record"))
    scores = models.JSONField(_("scores"))
    extra = models.JSONField(_("extra"), default=dict)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_deal_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.number}"

    @property
    def etag(self) -> str:
        # The primary key makes a re-entered deal (deleted, then posted again) a new
        # resource whose ETag never matches the old one.
        return freshness.etag("deal", self.pk, self.version)


class SheetEvent(models.Model):
    """Append-only history of a table's sheet: who changed what, when, from where."""

    class Action(models.TextChoices):
        DEAL_CREATE = "deal_create", _("deal entered")
        DEAL_UPDATE = "deal_update", _("deal corrected")
        DEAL_DELETE = "deal_delete", _("deal deleted")
        SUMMARY = "summary", _("summary entered")
        SUBMIT = "submit", _("sheet submitted")
        SWAP = "swap", _("players swapped")
        END = "end", _("sheet ended early")
        ROUND_CLOSE = "round_close", _("round closed")
        ROUND_REOPEN = "round_reopen", _("round reopened")
        CONFIRM = "confirm", _("sheet confirmed")
        OBJECTION = "objection", _("objection raised")
        OBJECTION_RESOLVE = "objection_resolve", _("objection resolved")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="events")
    # set by the history writer (tournaments.services.history), which hashes it
    at = models.DateTimeField(_("at"), default=timezone.now, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True,
                             blank=True, on_delete=models.SET_NULL, related_name="+")
    by_table = models.BooleanField(_("by the table"), default=False)
    # the player whose phone (personal token) made the change; by_table is then True too
    participant = models.ForeignKey(Participant, verbose_name=_("player"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    deal_number = models.PositiveIntegerField(_("deal number"), null=True, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # the hash chain (tournaments/history_chain.py): the table's entry before this one
    # ("" for the first) and SHA-256(previous ‖ the entry's canonical JSON)
    previous = models.CharField(_("previous hash"), max_length=64, blank=True, default="",
                                editable=False)
    hash = models.CharField(_("hash"), max_length=64, default="", editable=False)

    class Meta:
        ordering = ["table", "at", "id"]
        verbose_name = _("sheet event")
        verbose_name_plural = _("sheet events")

    def __str__(self) -> str:
        return f"{self.table} – {self.action}"


class SheetConfirmation(models.Model):
    """A seated player's confirmation of a sheet at one ``version`` of it: valid while the
    table's version is still that one (any change to the sheet voids it)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.PositiveSmallIntegerField(_("seat"))
    version = models.PositiveIntegerField(_("sheet version"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    # who confirmed: the player's own phone (participant), else the tablet or staff
    participant = models.ForeignKey(Participant, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["table", "seat", "version"]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat", "version"],
                                    name="one_confirmation_per_seat_and_version"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – seat {self.seat} (v{self.version})"


# Bounds of the texts a table or a player writes to the director (api.md).
OBJECTION_NOTE_MAX = 500
CALL_REASON_MAX = 200


class Objection(models.Model):
    """An objection ("Einspruch") against one deal or the whole sheet (``deal_number``
    empty); the sheet is not submitted while it is open."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="objections")
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=OBJECTION_NOTE_MAX)
    # raised from a player's phone (participant) or from the table's tablet (empty)
    participant = models.ForeignKey(Participant, verbose_name=_("raised by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    resolution = models.CharField(_("resolution"), max_length=OBJECTION_NOTE_MAX, blank=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("objection")
        verbose_name_plural = _("objections")
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.table} – {self.note[:40]}"


class DirectorCall(models.Model):
    """A call for the director from a table's tablet (``participant`` empty) or a
    player's phone: open, then seen (acknowledged), then closed."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        SEEN = "seen", _("seen")
        CLOSED = "closed", _("closed")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="calls")
    participant = models.ForeignKey(Participant, verbose_name=_("called by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(_("reason"), max_length=CALL_REASON_MAX, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    seen_at = models.DateTimeField(_("seen at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("call for the director")
        verbose_name_plural = _("calls for the director")
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.table} – {self.get_status_display()}"


class IdempotencyKey(models.Model):
    """The first answer to a POST with an ``Idempotency-Key``, replayed to retries."""

    # served by the unique (table, key): no index of its own (issue 51)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="idempotency_keys",
                              db_index=False)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return self.key


class StandingsOutbox(models.Model):
    """One row per committed sheet change whose effect on the standings is pending.

    Written in the same transaction as the change (an insert: no hot row to contend
    for); a recompute deletes the rows it has taken in. Pending rows mean "stale".
    """

    # served by the index of (tournament, id): no index of its own (issue 51)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="standings_outbox", db_index=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # the round whose sheets changed; None: anything may have (a withdrawal, a merge, an
    # import), so the recompute does the whole tournament
    round_number = models.PositiveIntegerField(null=True, blank=True)
    # the table whose sheet changed (its seats' players unchanged); None: the whole round
    table_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "id"])]

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.created_at}"


class StandingsState(models.Model):
    """When a tournament's standings were last computed, and up to which change."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE,
                                      related_name="standings_state")
    computed_at = models.DateTimeField(null=True, blank=True)
    outbox_upto = models.BigIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.computed_at}"


class StandingsPage(models.Model):
    """A page of one stored standings list, overall (round 0) or of one round: the rows
    of the participants whose id falls in the page (``participant // PAGE_SIZE``), as
    one JSON array of ``{"participant", "score", <the game's figures>, "rounds":
    [{"round", "score"}, ...]}``. Ranks are not stored: a reader sorts the list with the
    game's tie-break (``tournaments.selectors``), so a change rewrites only the pages of
    the participants it touches, however large the field."""

    PAGE_SIZE = 128

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="standings_pages")
    round_number = models.PositiveIntegerField(default=0)
    page = models.BigIntegerField()
    rows = models.TextField(default="[]")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "round_number", "page"],
                                               name="one_standings_page")]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.round_number}/{self.page}"
