"""A player's history, and merging a duplicate player into the one kept.

Terms: an *event* is a tournament or club evening the player took part in; a *series*
is one sheet he played (one seat at one table); the *average per series* is his standing
figure summed over series, divided by their number. *Won* and *lost* count his declarer
games, for games whose engine counts them.

A *merge* moves every participation of the duplicate (``remove``) to the player kept,
takes over the duplicate's membership when the kept player has none, deletes the
duplicate and records it all in a ``PlayerMerge``. It is refused when both played the
same tournament (a tournament has one entry per player) or when they are members of
different clubs, or of one club under different member numbers (then they are likely
two people).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, ProtectedError

from clubs.models import Player, PlayerMerge
from games.engines import get_engine
from games.engines.base import _, user_error
from tournaments.errors import StateConflict
from tournaments.models import Participant, Seat, StandingRow
from tournaments.services.notify import sheet_changed
from tournaments.services.seasons import season_mark_stale, seasons_of_tournaments


def player_profile(*, player: Player, published_only: bool = True) -> dict[str, Any]:
    """Every event of the player (newest first) and his figures per game."""
    participations = (Participant.objects.filter(player=player)
                      .select_related("tournament__club"))
    if published_only:
        participations = participations.filter(tournament__published=True)
    participations = list(participations)
    ranks = {(r.tournament_id, r.participant_id): r for r in StandingRow.objects.filter(
        participant__in=participations, round_number=0)}
    seats = Seat.objects.filter(participant__in=participations).values_list(
        "participant__tournament_id", "score", "figures")
    per_event: dict[int, dict[str, Any]] = {}
    for tid, score, figures in seats:
        event = per_event.setdefault(tid, {"series": 0, "score": 0, "won": 0, "lost": 0})
        event["series"] += 1
        event["score"] += score
        for name in ("won", "lost"):
            value = figures.get(name, 0) if isinstance(figures, dict) else 0
            event[name] += value if isinstance(value, int) else 0
    events, games = [], {}
    for p in participations:
        t = p.tournament
        sums = per_event.get(t.pk, {"series": 0, "score": 0, "won": 0, "lost": 0})
        row = ranks.get((t.pk, p.pk))
        events.append({"tournament": t.pk, "name": t.name, "slug": t.slug,
                       "date": t.date.isoformat() if t.date else None, "game": t.game,
                       "club": t.club.name if t.club else None, "club_evening": t.club_evening,
                       "rank": row.rank if row else None, "score": sums["score"],
                       "series": sums["series"], "participants": None})
        game = games.setdefault(t.game, {"game": t.game, "events": 0, "series": 0, "score": 0,
                                         "won": 0, "lost": 0})
        game["events"] += 1
        for name in ("series", "score", "won", "lost"):
            game[name] += sums[name]
    counts = dict(_participant_counts([e["tournament"] for e in events]))
    for event in events:
        event["participants"] = counts.get(event["tournament"], 0)
    events.sort(key=lambda e: (e["date"] or "", e["tournament"]), reverse=True)
    per_game = []
    for key in sorted(games):
        game = games[key]
        declarer = "lost" in get_engine(key).figures
        per_game.append({
            "game": key, "events": game["events"], "series": game["series"],
            "average": round(game["score"] / game["series"], 1) if game["series"] else None,
            "won": game["won"] if declarer else None,
            "lost": game["lost"] if declarer else None})
    return {"player": player.pk, "name": player.name,
            "club": player.club.name if player.club else None,
            "events": events, "games": per_game}


def _participant_counts(tournament_ids):
    return (Participant.objects.filter(tournament_id__in=tournament_ids)
            .values("tournament_id").annotate(n=Count("id"))
            .values_list("tournament_id", "n"))


def _check_mergeable(keep: Player, remove: Player) -> None:
    if keep.pk == remove.pk:
        raise user_error("remove", _("A player cannot be merged with himself."))
    shared = list(Participant.objects.filter(player=remove, tournament__participants__player=keep)
                  .values_list("tournament__name", flat=True)[:5])
    if shared:
        raise StateConflict(_("Both players played in %(tournaments)s; a tournament has one "
                              "entry per player, so they cannot be merged."),
                            tournaments=", ".join(shared))
    if keep.club_id and remove.club_id and keep.club_id != remove.club_id:
        raise StateConflict(_("The players are members of different clubs; they may be two "
                              "people. Change one membership first."))
    if (keep.club_id and keep.club_id == remove.club_id and keep.member_number
            and remove.member_number and keep.member_number != remove.member_number):
        raise StateConflict(_("The players have different member numbers; they may be two "
                              "people. Change one member number first."))


@transaction.atomic
def player_merge(*, keep: Player, remove: Player, by=None) -> PlayerMerge:
    """Merge the duplicate ``remove`` into ``keep``; every result is kept."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(
        pk__in=[keep.pk, remove.pk]).order_by("pk")}
    keep, remove = locked.get(keep.pk, keep), locked.get(remove.pk, remove)
    if remove.pk not in locked or keep.pk not in locked:
        raise Player.DoesNotExist()
    _check_mergeable(keep, remove)
    tournament_ids = list(Participant.objects.filter(player=remove)
                          .values_list("tournament_id", flat=True))
    club_id, number, removed_pk = remove.club_id, remove.member_number, remove.pk
    try:
        with transaction.atomic():
            moved = Participant.objects.filter(player=remove).update(player=keep)
            remove.delete()
    except (IntegrityError, ProtectedError):  # registered for a tournament meanwhile
        raise StateConflict(_("One of the players was registered meanwhile; try again.")) \
            from None
    record = PlayerMerge.objects.create(
        kept=keep, kept_name=keep.name, removed_id=removed_pk, removed_name=remove.name,
        removed_club_id=club_id, removed_member_number=number, participations=moved, by=by)
    changed = []
    if keep.club_id is None and club_id is not None:
        keep.club_id, keep.member_number = club_id, number
        changed = ["club", "member_number"]
    elif keep.club_id == club_id and not keep.member_number and number:
        keep.member_number = number
        changed = ["member_number"]
    if changed:
        keep.save(update_fields=changed)
    # The stored standings and seasons show names: have them redone.
    for tid in tournament_ids:
        sheet_changed(tid)
    for season in seasons_of_tournaments(tournament_ids):
        season_mark_stale(season)
    return record
