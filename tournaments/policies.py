"""Who may see and direct a tournament: the one answer to each question, used by the API's
permission classes and the pages' decorator alike.

Each rule is written once, as a filter (``directed_tournaments``, ``visible_tournaments``)
for every list that shows tournaments or what was played in them (a player's profile, a
club's evenings, the API's lists), so a list costs the same few queries however many
tournaments it holds; the test on one tournament (``directs``, ``can_see_tournament``)
asks the same filter of that one tournament. The filter takes ``via``, the path from the
queried model to its tournament (``"tournament__"`` for participants), and uses
``EXISTS`` subqueries, never joins, so no row is doubled.

A *table token* (a table's ``entry_token``, what its tablet holds) is judged by
``sheet_refusal`` alone — the API's authentication, the services that write a sheet and
the tablet's pages all ask it.

A *personal token* (a participant's ``personal_token``, the player's own phone) is judged
by ``personal_token_valid`` (does it still open the player's page) and ``plays_at`` (may
it act at this table: the player sits there and the round is open, as a table token).

*Seeing* a tournament means its name, its participants and their results: everyone sees a
published one; an unpublished one is seen only by those who direct it — its directors,
the admins of its club and superusers. Being staff, or running another club, is not
enough.
"""

from datetime import date, timedelta

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, Value

from clubs.models import Club, Player
from clubs.policies import is_staff, may_change_player, runs_club
from tournaments.models import Participant, Seat, Tournament


def directs(user, tournament) -> bool:
    """Staff who run the tournament: its directors, its club's admins, superusers
    (``directed_tournaments`` asked of this one tournament)."""
    if not is_staff(user):
        return False
    return user.is_superuser or Tournament.objects.filter(
        directed_tournaments(user), pk=tournament.pk).exists()


def sees_full_names(user, tournament) -> bool:
    """Whether ``user`` sees players' full names in a tournament's answers (the staff
    API, the console): those who direct it. Everyone else sees each name as its player
    chose (``clubs.publication.shown_name``). The public board and its print page show
    the choice to everybody — they are projected and pinned up."""
    return directs(user, tournament)


def sees_full_name_of(user, player) -> bool:
    """Whether ``user`` sees ``player``'s full name where the player is shown by himself
    (the staff API's player and player list, the player's page) although the player chose
    "initial" or "number": superusers, the admins of his club and those who direct a
    tournament he is in. Everyone else — other staff included — sees the name as the
    player chose (``clubs.publication.shown_player``)."""
    if player.publication == Player.Publication.FULL:
        return True
    if not is_staff(user):
        return False
    if user.is_superuser or runs_club(user, player.club):
        return True
    return Participant.objects.filter(player_id=player.pk).filter(
        directed_tournaments(user, via="tournament__")).exists()


def full_name_seen(user):
    """``sees_full_name_of`` as an expression on players, for a list (one query)."""
    if is_staff(user) and user.is_superuser:
        return Value(True)
    full = Q(publication=Player.Publication.FULL)
    if not is_staff(user):
        return ExpressionWrapper(full, output_field=BooleanField())
    administered = Club.admins.through.objects.filter(club_id=OuterRef("club_id"),
                                                      user_id=user.pk)
    directed = Participant.objects.filter(player_id=OuterRef("pk")).filter(
        directed_tournaments(user, via="tournament__"))
    return ExpressionWrapper(full | Q(Exists(administered)) | Q(Exists(directed)),
                             output_field=BooleanField())


def handles_data_of(user, player) -> bool:
    """Who may export and erase a person's data (DSGVO): who may change the player
    (``may_change_player``: his club's admins, his creator, superusers); for a guest
    without a club who signed up himself, also the directors of the tournaments he signed
    up for — nobody else runs anything of his."""
    if may_change_player(user, player):
        return True
    if player.club_id is not None or not is_staff(user):
        return False
    return Participant.objects.filter(player_id=player.pk, self_registered=True).filter(
        directed_tournaments(user, via="tournament__")).exists()


def directs_table(user, table) -> bool:
    """Who directs a table's tournament (the table's own token: ``sheet_refusal``)."""
    return directs(user, table.round.tournament)


# why a sheet may not be read or written now (``sheet_refusal``)
ROUND_CLOSED = "round_closed"
SUBMITTED = "submitted"
FINISHED = "finished"
# the refusals that make a table's token useless, for reading too: asked for a write,
# ``sheet_refusal`` answers one of these exactly when it would refuse the token a read
TOKEN_VOID = frozenset({ROUND_CLOSED, FINISHED})


def sheet_refusal(table, *, by_table: bool, write: bool,
                  after_submit: bool = False) -> str | None:
    """Why the table's own token (``by_table``) or staff who direct its tournament may
    not read (``write`` False) or change its sheet now; None when they may.

    - A token is good while its round is open: a closed round, one that staff reopened
      for corrections, or a finished tournament (whose rounds are all closed) makes it
      useless, for reading too.
    - Nobody writes a sheet of a closed round; staff write those of a reopened one.
    - A submitted sheet is written by nobody, except staff where ``after_submit`` (a
      correction, the summary).
    """
    round_ = table.round
    if by_table and (round_.closed or round_.reopened):
        return ROUND_CLOSED
    if by_table and round_.tournament.status == Tournament.Status.FINISHED:
        return FINISHED
    if not write:
        return None
    if round_.closed:
        return ROUND_CLOSED
    if table.submitted and (by_table or not after_submit):
        return SUBMITTED
    return None


# How long a personal link keeps opening the player's page after the tournament's day
# (its date, or the day it was created): long enough to look back at the evening and the
# season, short enough that a lost player card does not open the page for good.
PERSONAL_TOKEN_DAYS = 90


def personal_token_valid(participant: Participant, today: date) -> bool:
    """Whether the participant's personal token still opens their page: not erased (an
    erased person's token is gone with the name) and not expired."""
    tournament = participant.tournament
    day = tournament.date or tournament.created_at.date()
    return not participant.player.erased and today <= day + timedelta(days=PERSONAL_TOKEN_DAYS)


def in_own_history(via: str = "") -> Q:
    """Which of a player's own events their phone's history shows (the rows whose
    tournament is reached by ``via``): the finished ones, and the running ones already
    published. A player sees their own results even of an event the director did not
    publish, once it is over; an unpublished event still running is shown only on the
    player's page of that event, and a draft has no result yet."""
    status = f"{via}status"
    return Q(**{status: Tournament.Status.FINISHED}) | (
        Q(**{f"{via}published": True}) & Q(**{status: Tournament.Status.RUNNING}))


def plays_at(participant: Participant, table) -> bool:
    """Whether the participant's phone may act at ``table`` as the table's token does:
    the player sits at it, and the table's token would be good now (its round open)."""
    if participant.tournament_id != table.round.tournament_id:
        return False
    if sheet_refusal(table, by_table=True, write=False) is not None:
        return False
    return Seat.objects.filter(table_id=table.pk, participant_id=participant.pk).exists()


def can_see_tournament(user, tournament) -> bool:
    """Everyone sees a published tournament; an unpublished one only those who direct it."""
    return tournament.published or directs(user, tournament)


_NOTHING = Q(pk__in=[])


def directed_tournaments(user, via: str = "") -> Q:
    """``directs`` as a filter: the tournaments (or, with ``via``, the rows whose
    tournament is reached by ``via``) the user directs."""
    if not is_staff(user):
        return _NOTHING
    if user.is_superuser:
        return Q()
    tournament = f"{via.removesuffix('__')}_id" if via else "pk"  # no join for the id
    club = f"{via}club_id"
    directed = Tournament.directors.through.objects.filter(
        tournament_id=OuterRef(tournament), user_id=user.pk)
    administered = Club.admins.through.objects.filter(club_id=OuterRef(club), user_id=user.pk)
    return Q(Exists(directed)) | Q(Exists(administered))


def visible_tournaments(user, via: str = "") -> Q:
    """``can_see_tournament`` as a filter: published, or directed by the user."""
    published = Q(**{f"{via}published": True})
    if not is_staff(user):
        return published
    if user.is_superuser:
        return Q()
    return published | directed_tournaments(user, via)
