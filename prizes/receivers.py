"""How the prizes app hooks into tournaments, which imports nothing of it: a prize
list's change bumps its tournament's live answers (``tournaments.freshness``), as a
team's does, and the console's tournament page shows the prize step
(``tournaments.pages.parts``)."""

from tournaments import freshness
from tournaments.pages.parts import page_part


def _show_prizes(tournament) -> bool:
    """A club evening shows the step only once it has a prize list."""
    from prizes.models import PrizeList

    return (not tournament.club_evening
            or PrizeList.objects.filter(tournament=tournament).exists())


def connect() -> None:
    freshness.follow("prizes.PrizeList")
    page_part("console", "show_prizes")(_show_prizes)
