"""Reading ratings: leaderboards, a player's ratings and history, pending work.

*Published results only* (api.md): the public sees a player on a leaderboard, and his
ratings' history, only through results of published tournaments; a player rated only in
unpublished ones is not shown (404 for his ratings) except to those who may change him
(``clubs.policies.may_change_player``: his club's admins, whoever entered him,
superusers), who see his whole history. The rating itself counts every submitted sheet
(``ratings.results``).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from clubs.publication import shown_player
from ratings.models import Rating, RatingEntry, RatingOutbox, RatingState
from tournaments.models import Participant

# api.md: a player is listed after this many rated sheets unless ``min_sheets`` says else
DEFAULT_MIN_SHEETS = 10
MAX_MIN_SHEETS = 100_000


def games_with_pending_changes() -> list[str]:
    return list(RatingOutbox.objects.order_by("game").values_list("game", flat=True).distinct())


def ratings_version(game: str) -> str:
    """Changes with every re-rating of ``game`` and every pending change (for ETags)."""
    state = RatingState.objects.filter(game=game).values_list("recomputes", "outbox_upto").first()
    return "-".join(map(str, state or (0, 0)))


def leaderboard(*, game: str, club_id: int | None = None,
                min_sheets: int = DEFAULT_MIN_SHEETS, full_names: bool = False) -> list[dict]:
    """The rated players of ``game`` with at least ``min_sheets`` sheets and a published
    result (of ``club_id``'s tournaments, when given), best first: by rating, then more
    sheets; equal in both share the rank. One query."""
    published = RatingEntry.objects.filter(player=OuterRef("player_id"), game=game,
                                           result__tournament__published=True)
    if club_id is not None:
        published = published.filter(result__tournament__club_id=club_id)
    ratings = (Rating.objects.filter(game=game, sheets__gte=min_sheets)
               .filter(Exists(published)).select_related("player")
               .order_by("-rating", "-sheets", "player_id"))
    rows, previous, rank = [], None, 0
    for n, r in enumerate(ratings, start=1):
        if (r.rating, r.sheets) != previous:
            rank, previous = n, (r.rating, r.sheets)
        rows.append({"rank": rank, "player": r.player_id,
                     "name": shown_player(r.player, full=full_names), "rating": r.rating,
                     "mu": r.mu, "sigma": r.sigma, "sheets": r.sheets})
    return rows


def player_ratings(*, player, everything: bool = False) -> list[dict]:
    """The player's rating per game with its history (one point per rated result: date,
    tournament, rating after it); only published results unless ``everything``; a game
    with no such result is left out. Two queries; one for a player never rated (a
    walk-in's own page)."""
    ratings = list(Rating.objects.filter(player=player).order_by("game"))
    if not ratings:
        return []
    entries = (RatingEntry.objects.filter(player=player)
               .select_related("result__tournament").order_by("game", "key"))
    if not everything:
        entries = entries.filter(result__tournament__published=True)
    history: dict[str, list[dict]] = {}
    for e in entries:
        history.setdefault(e.game, []).append({
            "date": e.result.date, "tournament": e.result.tournament_id,
            "tournament_name": e.result.tournament.name, "round": e.result.round_number,
            "table": e.result.table_number, "rating": e.rating})
    return [{"game": r.game, "rating": r.rating, "mu": r.mu, "sigma": r.sigma,
             "sheets": r.sheets, "history": history[r.game]}
            for r in ratings if r.game in history]


def seen_in_public(player) -> bool:
    """Whether the player took part in a published tournament (his ratings are then
    public, if only an empty list)."""
    return Participant.objects.filter(player=player, tournament__published=True).exists()
