"""Self-registration, the waiting list and check-in at the door (issue 29).

Terms:

- *registration settings* of a tournament: ``registration_open``, an optional *cap*
  (places), an optional *deadline*, ``check_in`` (only checked-in registrants are
  drawn) and an optional *release time* (``release_at``) after which unchecked
  registrants are released.
- *registrant*: a participant who signed up themselves (``self_registered``); their
  ``status`` is ``registered`` (has a place), ``waiting`` (on the waiting list, in
  ``queue_number`` order) or ``cancelled`` (cancelled or released). Only ``registered``
  participants are drawn, counted and shown on boards and prints.
- *moving up*: when a place frees (a cancel, a larger cap, a release), the first waiting
  registrant takes it.

Every function here locks the tournament row first, so concurrent sign-ups for the last
place are serialised: exactly one gets it, the others queue in lock order.
E-mails are queued in the mail outbox (``signup.mails``) in the same transaction
and sent after the commit.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from clubs.models import Club, Player
from clubs.names import clean_name, name_key
from clubs.services import player_create
from clubs.uniques import unique_errors
from games.errors import user_error
from signup.mails import mail_queue
from tournaments import freshness
from tournaments.errors import StateConflict
from tournaments.models import Participant, RegistrationStatus, Tournament
from tournaments.services.lifecycle import lock_open_tournament
from tournaments.text_checks import control_characters, storable

REGISTERED = RegistrationStatus.REGISTERED
WAITING = RegistrationStatus.WAITING
CANCELLED = RegistrationStatus.CANCELLED

MAX_CAP = 10_000
NAME_MAX = 120
PUBLICATIONS = tuple(Player.Publication.values)


# -- reading ---------------------------------------------------------------------

def waiting_position(participant: Participant) -> int | None:
    """1 for the first on the waiting list; None when not waiting."""
    if participant.status != WAITING:
        return None
    return Participant.objects.filter(
        tournament_id=participant.tournament_id, status=WAITING,
        queue_number__lte=participant.queue_number).count()


def registration_refusal(tournament: Tournament, now: datetime.datetime | None = None
                         ) -> str | None:
    """Why the tournament takes no sign-up now (a msgid), or None when it does."""
    now = now or timezone.now()
    if tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is finished.")
    if not tournament.published or not tournament.registration_open:
        return _("Registration for this tournament is not open.")
    if tournament.registration_deadline is not None and now > tournament.registration_deadline:
        return _("The registration deadline has passed.")
    return None


# -- settings --------------------------------------------------------------------

@transaction.atomic
def registration_configure(*, tournament_id: int, open: bool, check_in: bool,
                           cap: int | None = None,
                           deadline: datetime.datetime | None = None,
                           release_at: datetime.datetime | None = None,
                           walk_in: bool | None = None) -> Tournament:
    """Open or close self-registration, set the cap, deadline, check-in, release
    time and walk-in mode (None: as it is). A larger cap moves the waiting list up;
    turning check-in on asks the registrants with a place to check in at the door."""
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)
                            or not 1 <= cap <= MAX_CAP):
        raise user_error("registration.cap", _("Must be a whole number from %(min)s to %(max)s."),
                         min=1, max=MAX_CAP)
    tournament = lock_open_tournament(tournament_id)
    check_in_before = tournament.check_in
    tournament.registration_open = open
    tournament.registration_cap = cap
    tournament.registration_deadline = deadline
    tournament.check_in = check_in
    if release_at != tournament.release_at:
        tournament.released = False
    tournament.release_at = release_at
    if walk_in is not None:
        tournament.registration_walk_in = walk_in
    tournament.save(update_fields=["registration_open", "registration_cap",
                                   "registration_deadline", "check_in", "release_at",
                                   "released", "registration_walk_in"])
    if check_in and not check_in_before:
        Participant.objects.filter(tournament=tournament, self_registered=True,
                                   status=REGISTERED, seats__isnull=True
                                   ).update(checked_in=False)
    _move_up(tournament)
    return tournament


# -- signing up ------------------------------------------------------------------

def _check_name(name: str) -> str:
    if not isinstance(name, str) or not storable(name) or control_characters(name):
        raise user_error("name", _("The name holds characters that cannot be stored."))
    cleaned = clean_name(name)
    if not cleaned:
        raise user_error("name", _("The name must not be blank."))
    if len(cleaned) > NAME_MAX:
        raise user_error("name", _("At most %(max)s characters."), max=NAME_MAX)
    return cleaned


def _club_named(club_name: str) -> Club | None:
    """The club of that name (spacing and case aside), or None."""
    key = name_key(club_name)
    if not key:
        return None
    for club in Club.objects.only("pk", "name"):
        if name_key(club.name) == key:
            return club
    return None


def _match_player(*, name: str, club: Club | None, email: str) -> Player | None:
    """A known player: one registered before with this e-mail, or one of the same
    normalised name in the same club (or, without a club, a guest of that name)."""
    if email:
        earlier = (Participant.objects.filter(email__iexact=email, player__erased_at=None)
                   .order_by("-pk").select_related("player").first())
        if earlier is not None:
            return earlier.player
    key = name_key(name)
    for player in Player.objects.filter(club=club, erased_at=None).only("pk", "name", "club"
                                                                         ).order_by("pk"):
        if name_key(player.name) == key:
            return player
    return None


@transaction.atomic
def registration_submit(*, tournament_id: int, name: str, club: Club | None = None,
                        club_name: str = "", email: str = "", publication: str | None = None,
                        language: str = "", at_door: bool = False,
                        door_key: str = "") -> Participant:
    """Sign a player up: a place while the cap allows, else the end of the waiting list.
    ``at_door``: signed up at the door (walk-in mode): checked in at once. ``door_key``:
    the door form's one-time key; the same key sent again for the same player (a double
    tap, both requests at once) answers the participant the first one stored.

    ``StateConflict`` (409) when registration is closed or past its deadline, and when
    the player is registered or waiting already (nothing doubled, and no one else's
    link handed out); a known player is matched, not created twice; after a cancel a
    sign-up queues anew.
    """
    name = _check_name(name)
    if publication is not None and publication not in PUBLICATIONS:
        raise user_error("publication", _("Must be one of %(choices)s."),
                         choices=", ".join(PUBLICATIONS))
    club_name = clean_name(club_name or "")
    if club is None and club_name:
        club = _club_named(club_name)
    if club is not None:
        club_name = ""  # a known club: the player's club tells it
    elif len(club_name) > NAME_MAX:
        raise user_error("club_name", _("At most %(max)s characters."), max=NAME_MAX)
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    refusal = registration_refusal(tournament)
    if refusal is not None:
        raise StateConflict(refusal)
    player = _match_player(name=name, club=club, email=email)
    if player is None:
        player = player_create(name=name, club=club)
        # a known player's choice is theirs and their club's: an anonymous form only
        # sets it for a new player
        if publication is not None and publication != player.publication:
            player.publication = publication
            player.save(update_fields=["publication"])
    participant = Participant.objects.filter(tournament=tournament, player=player).first()
    if participant is not None and participant.status != CANCELLED:
        if door_key and participant.door_key == door_key:
            return participant  # the same form sent twice: the first one's answer
        # never the existing personal link: it would open someone else's page to anyone
        # who types their name (the link came with the first sign-up)
        raise StateConflict(_("This player is registered for this tournament already; "
                              "the personal link came with the first registration."))
    cap = tournament.registration_cap
    has_place = cap is None or _taken(tournament) < cap
    if at_door and not has_place:  # a walk-in plays today or not at all
        raise StateConflict(_("All places are taken."))
    status = REGISTERED if has_place else WAITING
    fields = {
        "status": status, "self_registered": True, "email": email or "",
        "language": language or "", "door_key": door_key,
        "checked_in": status == REGISTERED and (
            not tournament.check_in or (at_door and tournament.registration_walk_in)),
        "queue_number": _next_queue_number(tournament),
        # the club ranking counts the club at registration (games.md §10.4); a guest's
        # typed club is shown, never made a membership
        "club_id": player.club_id, "club_name": club_name if player.club_id is None else "",
    }
    if participant is None:
        last = tournament.participants.aggregate(m=Max("start_number"))["m"] or 0
        with unique_errors(Participant):
            participant = Participant.objects.create(tournament=tournament, player=player,
                                                     start_number=last + 1, **fields)
    else:
        for key, value in fields.items():
            setattr(participant, key, value)
        participant.save(update_fields=list(fields))
    if status == REGISTERED:
        mail_queue(participant, "registered")
    else:
        mail_queue(participant, "waiting", position=waiting_position(participant))
    return participant


def _taken(tournament: Tournament) -> int:
    """Places taken: every participant with a place, withdrawn ones included (they
    played), registered at the desk or by themselves."""
    return Participant.objects.filter(tournament=tournament, status=REGISTERED).count()


def _next_queue_number(tournament: Tournament) -> int:
    last = Participant.objects.filter(tournament=tournament).aggregate(
        m=Max("queue_number"))["m"] or 0
    return last + 1


def _move_up(tournament: Tournament) -> list[Participant]:
    """Give free places to the first waiting registrants (the caller holds the lock)."""
    if tournament.status == Tournament.Status.FINISHED:
        return []
    waiting = Participant.objects.filter(tournament=tournament, status=WAITING
                                         ).order_by("queue_number", "pk")
    if tournament.registration_cap is not None:
        free = tournament.registration_cap - _taken(tournament)
        if free <= 0:
            return []
        waiting = waiting[:free]
    moved = list(waiting)
    if moved:
        freshness.bump(tournament.pk)  # the players' own pages show the status
    for participant in moved:
        participant.status = REGISTERED
        participant.checked_in = not tournament.check_in
        participant.save(update_fields=["status", "checked_in"])
        mail_queue(participant, "moved_up")
    return moved


@transaction.atomic
def registration_cancel(*, participant_id: int) -> Participant:
    """Cancel a registration (its own token's); the first waiting registrant moves up.
    Cancelling twice is harmless; one who played a round is withdrawn instead (they keep
    the rounds played). One seated in a round still being played cannot leave: their
    table needs them, and withdrawing them is the director's (``StateConflict``)."""
    participant = Participant.objects.select_related("tournament").get(pk=participant_id)
    tournament = lock_open_tournament(participant.tournament_id)
    participant.refresh_from_db()
    if participant.status == CANCELLED or participant.withdrawn:
        return participant
    if participant.seats.filter(table__round__closed=False, table__round__reopened=False).exists():
        raise StateConflict(_("You are seated in a round that is being played, so you "
                              "cannot cancel here. Please tell the tournament director; "
                              "only they can withdraw you now."))
    if participant.seats.exists():
        from tournaments.services.entries import participant_update
        return participant_update(participant=participant, withdrawn=True)
    participant.status = CANCELLED
    participant.checked_in = False
    participant.save(update_fields=["status", "checked_in"])
    freshness.bump(tournament.pk)  # the players' own pages show the status
    mail_queue(participant, "cancelled")
    _move_up(tournament)
    return participant


@transaction.atomic
def registrations_release(*, tournament_id: int, now: datetime.datetime | None = None) -> int:
    """After the release time: registrants with a place who have not checked in lose it
    and the waiting list moves up (the moved-up ones check in too). Returns how many
    were released; idempotent (``released`` marks it done)."""
    now = now or timezone.now()
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if (not tournament.check_in or tournament.release_at is None or tournament.released
            or now < tournament.release_at
            or tournament.status == Tournament.Status.FINISHED):
        return 0
    unchecked = list(Participant.objects.filter(tournament=tournament, status=REGISTERED,
                                                self_registered=True, checked_in=False,
                                                seats__isnull=True))
    for participant in unchecked:
        participant.status = CANCELLED
        participant.save(update_fields=["status"])
        mail_queue(participant, "released")
    freshness.bump(tournament.pk)
    tournament.released = True
    tournament.save(update_fields=["released"])
    _move_up(tournament)
    return len(unchecked)


def releases_due(now: datetime.datetime | None = None) -> list[int]:
    """Tournaments whose release time has passed and whose release is still to run."""
    now = now or timezone.now()
    return list(Tournament.objects.filter(check_in=True, released=False,
                                          release_at__lte=now)
                .exclude(status=Tournament.Status.FINISHED).values_list("pk", flat=True))
