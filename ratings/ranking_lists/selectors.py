"""Reading ranking lists (games.md §10.2): the list computed from the stored standings.

Nothing is recomputed: each counted tournament's overall standings are read as the
standings workers stored them (``tournaments.selectors.standings_lists``) and a player's
place is their rank there. Counted are the *published* tournaments of the list's game
whose date lies in the period (both days included) and whose club is one of the list's
clubs, in date order. Six queries, whatever the number of tournaments and players.
"""

from __future__ import annotations

from typing import Any

from django.db.models import DateField
from django.db.models.functions import Coalesce, TruncDate

from clubs.models import Player
from clubs.publication import shown_player
from ratings.list_models import RankingList
from ratings.ranking_lists.compute import ranking_list
from tournaments.models import Participant, Tournament
from tournaments.selectors import standings_lists


def definition(ranking: RankingList, club_ids: list[int] | None = None) -> dict[str, Any]:
    """The list's settings as the API shows them (``club_ids``: the clubs, when read)."""
    if club_ids is None:
        club_ids = sorted(ranking.clubs.values_list("pk", flat=True))
    return {"id": ranking.pk, "club": ranking.club_id, "name": ranking.name,
            "game": ranking.game, "first": ranking.first, "last": ranking.last,
            "clubs": club_ids, "best_n": ranking.best_n, "min_events": ranking.min_events,
            "points": ranking.points}


def counted_tournaments(ranking: RankingList, club_ids: list[int]) -> list[Tournament]:
    """The published tournaments of the list's game and clubs in its period, by day; a
    tournament without a date counts on the day it was created."""
    day = Coalesce("date", TruncDate("created_at"), output_field=DateField())
    return list(Tournament.objects.annotate(day=day).filter(
        club_id__in=club_ids, game=ranking.game, published=True,
        day__gte=ranking.first, day__lte=ranking.last).order_by("day", "pk"))


def ranking_answer(ranking: RankingList, *, full: bool = False) -> dict[str, Any]:
    """The definition, the counted tournaments and ``results``: ``[{"rank", "player",
    "name", "points", "events": [{"tournament", "place", "points", "counted"}]}]``; names
    as their players chose unless ``full``."""
    club_ids = sorted(ranking.clubs.values_list("pk", flat=True))
    tournaments = counted_tournaments(ranking, club_ids)
    lists = standings_lists(tournaments, 0) if tournaments else {}
    players = dict(Participant.objects.filter(tournament__in=tournaments)
                   .values_list("pk", "player_id")) if tournaments else {}
    events = []
    for tournament in tournaments:
        rows = lists.get((tournament.pk, 0), [])
        places = {players[row["participant"]]: row["rank"] for row in rows
                  if row["participant"] in players}
        if places:
            events.append({"tournament": tournament.pk, "places": places})
    rows = ranking_list(events, points=ranking.points, best_n=ranking.best_n,
                        min_events=ranking.min_events)
    people = Player.objects.in_bulk({row["player"] for row in rows})
    results = [{"rank": row["rank"], "player": row["player"],
                "name": shown_player(people[row["player"]], full=full),
                "points": row["points"], "events": row["events"]}
               for row in rows if row["player"] in people]
    counted = [{"id": t.pk, "name": t.name, "date": t.day, "slug": t.slug}
               for t in tournaments if any(e["tournament"] == t.pk for e in events)]
    return {**definition(ranking, club_ids), "tournaments": counted, "results": results}
