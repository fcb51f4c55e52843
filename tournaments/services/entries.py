"""Creating tournaments and registering participants: members of the tournament's club
and guests (players without a club), see ``player_for_name``."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext_noop as _

from clubs.models import Club, Player
from clubs.names import clean_name, name_key
from clubs.services import player_create
from clubs.uniques import create_with_slug, unique_errors
from games.engines import get_engine
from games.errors import UserError, user_error
from tournaments.errors import StateConflict
from tournaments.models import (
    MAX_ROUNDS_PLANNED,
    MIN_ROUNDS_PLANNED,
    TEAM_SIZE_DEFAULT,
    Participant,
    Tournament,
)
from tournaments.recompute.outbox import sheet_changed
from tournaments.recompute.signals import publication_changed, results_changed
from tournaments.services.categories import (
    check_categories,
    check_club_ranking_k,
    participant_categories_set,
    prune_member_categories,
)
from tournaments.services.lifecycle import lock_open_tournament


@transaction.atomic
def tournament_create(*, name: str, game: str, rules: dict | None = None,
                      club: Club | None = None, date: datetime.date | None = None,
                      director=None, avoid_same_club: bool = False,
                      published: bool = False,
                      rounds_planned: int | None = None,
                      team_size: int = TEAM_SIZE_DEFAULT,
                      categories: list[str] | None = None,
                      club_ranking_k: int | None = None,
                      one_prize_per_player: bool = False,
                      club_evening: bool = False) -> Tournament:
    """Create a tournament; the game's engine validates the rules first
    (``UserError`` naming ``rules.<option>``, nothing stored). ``rounds_planned``
    None takes the game's default.

    A ``club_evening`` counts for its club's season of the game and the date's year
    (``clublife``): it needs the club and the date, is published (a season ranks only
    published evenings) and keeps the table money the club charges today."""
    money = {}
    if club_evening:
        if club is None:
            raise user_error("club", _("A club evening needs its club."))
        if not isinstance(date, datetime.date):
            raise user_error("date", _("A date is required."))
        published = True
        money = {"club_evening": True, "loss_fee_cents": club.loss_fee_cents,
                 "loss_fee_from": club.loss_fee_from,
                 "loss_fee_high_cents": club.loss_fee_high_cents}
    engine = get_engine(game)
    engine.options(rules or {})
    check_rounds_planned(rounds_planned)
    labels = check_categories(categories or [])
    check_club_ranking_k(club_ranking_k)
    tournament = create_with_slug(
        Tournament, name, name=name, game=game, rules=rules or {},
        club=club, date=date, avoid_same_club=avoid_same_club, published=published,
        rounds_planned=rounds_planned, team_size=team_size, categories=labels,
        club_ranking_k=club_ranking_k, one_prize_per_player=one_prize_per_player, **money,
    )
    if director is not None:
        tournament.directors.add(director)
    return tournament


def check_rounds_planned(value: int | None) -> None:
    """None (the game's default) or a whole number within the documented bounds."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) \
            or not MIN_ROUNDS_PLANNED <= value <= MAX_ROUNDS_PLANNED:
        raise user_error("rounds_planned", _("Must be a whole number from %(min)s to %(max)s."),
                         min=MIN_ROUNDS_PLANNED, max=MAX_ROUNDS_PLANNED)


@transaction.atomic
def participant_add(*, tournament: Tournament, player: Player,
                    checked_in: bool = True) -> Participant:
    """Register a player with the next free start number (checked in: registering at
    the desk is the check-in; a director can undo it). ``UserError`` on ``player``
    when he is registered already (by a request that passed the caller's check too)."""
    # Lock the tournament row so two registrations never get the same start number.
    lock_open_tournament(tournament.pk)
    if is_registered(tournament=tournament, player=player):
        raise user_error("player", _("This player is already registered."))
    last = tournament.participants.aggregate(m=Max("start_number"))["m"] or 0
    with unique_errors(Participant):
        # the club ranking counts the player's club at registration (games.md §10.4)
        return Participant.objects.create(tournament=tournament, player=player,
                                          start_number=last + 1, checked_in=checked_in,
                                          club_id=player.club_id)


def is_registered(*, tournament: Tournament, player: Player) -> bool:
    """The one decision "is this player registered for this tournament already?" (the
    console, the API and ``participant_add`` ask it; the unique constraint backs it)."""
    return tournament.participants.filter(player=player).exists()


def player_for_name(*, tournament: Tournament, name: str, as_member: bool = False,
                    by=None) -> Player:
    """The player a name typed at the desk means, created when new.

    A *member* is a player of the tournament's club; a *guest* has no club. The name is
    looked up (``clubs.names.name_key``: spacing, case) among the club's members, then
    among the guests who played the club's tournaments before (a returning guest keeps
    his history); a new name becomes a guest, or a member of the club only when the
    director says so (``as_member``: "als Mitglied aufnehmen"), so guests never fill the
    member list and the evening's tick list."""
    key = name_key(name)
    club = tournament.club
    if club is not None:
        for player in Player.objects.filter(club=club).only("pk", "name", "club"):
            if name_key(player.name) == key:
                return player
        guests = (Player.objects.filter(club=None, participations__tournament__club=club)
                  .distinct().order_by("pk"))
        for player in guests:
            if name_key(player.name) == key:
                return player
    else:
        for player in (Player.objects.filter(club=None, participations__tournament=tournament)
                       .order_by("pk")):
            if name_key(player.name) == key:
                return player
    return player_create(name=clean_name(name), club=club if as_member else None,
                         created_by=by)


@transaction.atomic
def participants_register(*, tournament: Tournament, names: list[str],
                          as_members: bool = False, by=None) -> tuple[int, list[str]]:
    """Register names typed or pasted at the desk (``player_for_name`` picks or creates
    each player). Returns how many were added and the names not added (listed twice —
    compared as ``clubs.names.name_key`` does — or registered already) so the director
    sees them."""
    added, skipped, seen = 0, [], set()
    for name in names:
        key = name_key(name)
        if key in seen:
            skipped.append(name)
            continue
        seen.add(key)
        player = player_for_name(tournament=tournament, name=name, as_member=as_members, by=by)
        if is_registered(tournament=tournament, player=player):
            skipped.append(name)
            continue
        try:
            participant_add(tournament=tournament, player=player)
        except UserError:  # registered meanwhile by a request that passed the check
            skipped.append(name)
            continue
        added += 1
    return added, skipped


PARTICIPANT_FLAGS = ("checked_in", "withdrawn", "categories", "paid")


@transaction.atomic
def participant_update(*, participant: Participant, **fields) -> Participant:
    """Check in, check out, withdraw or re-admit a participant, between rounds or during
    one.

    A withdrawn player is drawn no more and keeps the rounds played; withdrawing them
    during a round leaves them seated, and the director ends their table's sheet early
    (``sheet_end``). Re-admitting draws them again from the next round. Withdrawal is
    shown in the standings, so changing it has them recomputed as any sheet change
    does. ``UserError`` names a field that is unknown or not true/false;
    ``StateConflict`` when the tournament is finished. ``categories`` (the tournament's
    labels the participant belongs to) may change after the finish too.
    """
    categories = fields.pop("categories", None)
    for name, value in fields.items():
        if name not in PARTICIPANT_FLAGS:
            raise user_error(name, _("Unknown field; only %(fields)s can be changed."),
                             fields=", ".join(PARTICIPANT_FLAGS))
        if not isinstance(value, bool):
            raise user_error(name, _("Must be true or false."))
    if categories is not None:
        participant = participant_categories_set(participant=participant,
                                                 categories=categories)
        if not fields:
            return participant
    lock_open_tournament(participant.tournament_id)
    withdrawn_before = participant.withdrawn
    for name, value in fields.items():
        setattr(participant, name, value)
    participant.save(update_fields=list(fields) or None)
    if participant.withdrawn != withdrawn_before:
        sheet_changed(participant.tournament_id)
    return participant


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change a tournament; game and rules only before the first round is drawn."""
    if ("game" in fields or "rules" in fields) and tournament.rounds.exists():
        changed = (fields.get("game", tournament.game) != tournament.game
                   or fields.get("rules", tournament.rules) != tournament.rules)
        if changed:
            raise StateConflict(_("Game and rules cannot change once a round is drawn."))
    get_engine(fields.get("game", tournament.game)).options(fields.get("rules", tournament.rules))
    check_rounds_planned(fields.get("rounds_planned"))
    if "categories" in fields:
        fields["categories"] = check_categories(fields["categories"])
        prune_member_categories(tournament, fields["categories"])
    if "club_ranking_k" in fields:
        check_club_ranking_k(fields["club_ranking_k"])
    if "team_size" in fields:
        largest = max(Participant.objects.filter(tournament=tournament, team__isnull=False)
                      .values("team").annotate(n=Count("pk")).values_list("n", flat=True),
                      default=0)
        if fields["team_size"] < largest:
            raise user_error("team_size", _("A team has %(members)s members; take some out "
                                            "before making teams smaller."), members=largest)
    publication = "published" in fields and fields["published"] != tournament.published
    moved = "date" in fields and fields["date"] != tournament.date
    for name, value in fields.items():
        setattr(tournament, name, value)
    # publish/unpublish: the save's signal bumps the answers' versions after the commit
    tournament.save(update_fields=list(fields) or None)
    if publication:
        publication_changed.send(sender=Tournament, tournament=tournament)
    if moved:  # results over many events are ordered by date (ratings)
        results_changed.send(sender=Tournament, tournament_id=tournament.pk,
                             round_number=None, table=None, table_id=None)
    return tournament
