"""Reads of club life: a season's evenings, the stored season, whether it is stale, a
player's profile, and a player's own history (the phone's, by personal token).

Terms of the player history: an *event* is a tournament or club evening the player took
part in; a *series* is one sheet he played (one seat at one table); the *average per
series* is his standing figure summed over series, divided by their number. *Won* and
*lost* count his declarer games, for games whose engine counts them.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count, Max, Q

from clublife.models import Season, SeasonOutbox, SeasonRow
from clubs.models import Club, Player
from clubs.publication import shown_player
from games.engines import get_engine
from tournaments.models import Participant, Seat, StandingsOutbox, Tournament
from tournaments.policies import (
    full_name_seen,
    in_own_history,
    sees_full_name_of,
    visible_tournaments,
)
from tournaments.selectors import standings_lists


def evenings_of(club_id: int, game: str, year: int):
    """The season's evenings (a queryset), oldest first."""
    return (Tournament.objects.filter(club_id=club_id, club_evening=True, game=game,
                                      date__year=year).order_by("date", "id"))


def ranked_evenings_of(club_id: int, game: str, year: int):
    """The evenings a season ranks: the published ones. An unpublished evening is seen by
    its directors only (``tournaments.policies``), so no public ranking may count it."""
    return evenings_of(club_id, game, year).filter(published=True)


def season_find(*, club: Club, game: str, year: int) -> Season | None:
    return Season.objects.filter(club=club, game=game, year=year).first()


def season_pending(season: Season | None, *, club_id: int, game: str, year: int) -> str:
    """A fingerprint of the changes not yet in the season ("" when none): its own outbox
    and its evenings' standings outboxes."""
    own = (SeasonOutbox.objects.filter(season=season).aggregate(m=Max("id"))["m"]
           if season is not None else None)
    evenings = (StandingsOutbox.objects.filter(
        tournament__club_id=club_id, tournament__club_evening=True, tournament__game=game,
        tournament__date__gte=datetime.date(year, 1, 1),
        tournament__date__lte=datetime.date(year, 12, 31)).aggregate(m=Max("id"))["m"])
    if own is None and evenings is None:
        return ""
    return f"{own or 0}.{evenings or 0}"


def seasons_with_pending_changes() -> list[int]:
    return list(SeasonOutbox.objects.values_list("season_id", flat=True).distinct())


def player_profile(*, player: Player, viewer=None) -> dict[str, Any]:
    """Every event of the player that ``viewer`` may see (``visible_tournaments``; with no
    viewer, the published ones), newest first, and his figures per game over those."""
    events, sums = _events(Participant.objects.filter(player=player)
                           .filter(visible_tournaments(viewer, via="tournament__")))
    games: dict[str, dict[str, Any]] = {}
    for event in events:
        game = games.setdefault(event["game"], {"events": 0, "series": 0, "score": 0,
                                                "won": 0, "lost": 0})
        game["events"] += 1
        for name in ("series", "score", "won", "lost"):
            game[name] += sums[event["tournament"]][name]
    per_game = []
    for key in sorted(games):
        game = games[key]
        declarer = "lost" in get_engine(key).figures
        per_game.append({
            "game": key, "events": game["events"], "series": game["series"],
            "average": round(game["score"] / game["series"], 1) if game["series"] else None,
            "won": game["won"] if declarer else None,
            "lost": game["lost"] if declarer else None})
    # the name as the viewer may see it (``sees_full_name_of``); no start number here
    return {"player": player.pk,
            "name": shown_player(player, full=sees_full_name_of(viewer, player)),
            "club": player.club.name if player.club else None,
            "events": events, "games": per_game}


def player_history(participant: Participant) -> dict[str, Any]:
    """A player's own history in the club of the event their personal token belongs to
    (``participant``): their events there that ``in_own_history`` shows, as the profile
    lists them, newest first; and their places in the club's stored season rankings,
    newest year first (``{"year", "game", "rank", "players" ranked, "score", "average",
    "ranked_by", "attended", "counted", "evenings"}``; ``rank`` None below the season's
    attendance minimum). A fixed number of queries, however many events and seasons."""
    club_id = participant.tournament.club_id
    events, _sums = _events(Participant.objects.filter(
        player_id=participant.player_id, tournament__club_id=club_id)
        .filter(in_own_history(via="tournament__")))
    rows = (SeasonRow.objects.filter(player_id=participant.player_id, season__club_id=club_id)
            .select_related("season")
            .annotate(players=Count("season__rows", filter=Q(season__rows__rank__isnull=False)))
            .order_by("-season__year", "season__game"))
    seasons = [{"year": row.season.year, "game": row.season.game, "rank": row.rank,
                "players": row.players, "score": row.score, "average": row.average,
                "ranked_by": row.season.ranked_by, "attended": row.attended,
                "counted": row.counted, "evenings": row.season.evenings} for row in rows]
    return {"player": participant.player_id, "name": participant.player.name,
            "events": events, "seasons": seasons}


def _events(participations) -> tuple[list[dict[str, Any]], dict[int, dict[str, int]]]:
    """The events of ``participations`` (a queryset of one player's), newest first, each
    with his rank in the stored overall standings, his score and series summed over his
    seats, and the number of participants; and his sums per event (``series``, ``score``,
    ``won``, ``lost``) by tournament id. Four queries."""
    participations = list(participations.select_related("tournament__club"))
    ranks = {(tid, row["participant"]): row["rank"] for (tid, _round), rows in
             standings_lists([p.tournament for p in participations], 0).items()
             for row in rows}
    seats = Seat.objects.filter(participant__in=participations).values_list(
        "participant__tournament_id", "score", "figures")
    sums: dict[int, dict[str, int]] = {
        p.tournament_id: {"series": 0, "score": 0, "won": 0, "lost": 0} for p in participations}
    for tid, score, figures in seats:
        event = sums[tid]
        event["series"] += 1
        event["score"] += score
        for name in ("won", "lost"):
            value = figures.get(name, 0) if isinstance(figures, dict) else 0
            event[name] += value if isinstance(value, int) else 0
    counts = dict(_participant_counts([p.tournament_id for p in participations]))
    events = []
    for p in participations:
        t = p.tournament
        events.append({"tournament": t.pk, "name": t.name, "slug": t.slug,
                       "date": t.date.isoformat() if t.date else None, "game": t.game,
                       "club": t.club.name if t.club else None, "club_evening": t.club_evening,
                       "rank": ranks.get((t.pk, p.pk)), "score": sums[t.pk]["score"],
                       "series": sums[t.pk]["series"], "participants": counts.get(t.pk, 0)})
    events.sort(key=lambda e: (e["date"] or "", e["tournament"]), reverse=True)
    return events, sums


def _participant_counts(tournament_ids):
    return (Participant.objects.filter(tournament_id__in=tournament_ids)
            .values("tournament_id").annotate(n=Count("id"))
            .values_list("tournament_id", "n"))


def merge_candidates(*, keep: Player, query: str, limit: int = 30,
                     viewer=None) -> list[Player]:
    """Players a person may mean as the duplicate of ``keep``: by name (or member number)
    when searched, else those of the same name — of those whose full name ``viewer``
    sees (``sees_full_name_of``): a search must not find a name its player withheld."""
    players = (Player.objects.exclude(pk=keep.pk).select_related("club")
               .alias(seen=full_name_seen(viewer)).filter(seen=True)
               .annotate(tournaments=Count("participations")))
    if query:
        players = players.filter(name__icontains=query) | players.filter(
            member_number__iexact=query)
    else:
        players = players.filter(name__iexact=keep.name)
    return list(players.order_by("name", "pk")[:limit])


def merge_summary(*, keep: Player, remove: Player, viewer=None) -> dict[str, Any]:
    """What a merge of ``remove`` into ``keep`` moves, for the confirmation page: every
    participation counts, but only the tournaments ``viewer`` may see are named."""
    participations = list(Participant.objects.filter(player=remove)
                          .select_related("tournament").order_by("tournament__date", "pk"))
    shown = set(Participant.objects.filter(player=remove)
                .filter(visible_tournaments(viewer, via="tournament__"))
                .values_list("pk", flat=True))
    takes_club = keep.club_id is None and remove.club_id is not None
    takes_number = (not takes_club and keep.club_id == remove.club_id
                    and not keep.member_number and bool(remove.member_number))
    return {
        "participations": participations,
        "tournaments": [p.tournament for p in participations if p.pk in shown],
        "hidden": len(participations) - len(shown),
        "takes_club": takes_club,
        "takes_number": takes_number or (takes_club and bool(remove.member_number)),
    }


def returning_guests(*, club: Club, limit: int = 200) -> list[Player]:
    """Guests (players without a club) who played the club's tournaments before: the
    evening's tick list offers them after the members, so a returning guest keeps one
    record. One query."""
    return list(Player.objects.filter(club=None, participations__tournament__club=club)
                .distinct().order_by("name", "pk")[:limit])
