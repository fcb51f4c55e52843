"""The ratings' parts of the pages below them (``tournaments.pages.panels``): the rating
history and the statistics (games.md §11) on a player's profile and personal page, the
leaderboards' links and the ranking lists on the club page. Imported once from
``RatingsConfig.ready``."""

from ratings.pages.insight import insight_panel
from ratings.pages.leaderboard import club_panel, player_panel
from ratings.pages.lists import club_lists_panel
from tournaments.pages.panels import register_panel

register_panel("player", "ratings", player_panel)
register_panel("player", "insight", insight_panel)
register_panel("club", "ratings", club_panel)
register_panel("club", "ranking-lists", club_lists_panel)
