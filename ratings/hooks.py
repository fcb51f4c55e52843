"""The ratings' parts of the pages below them (``tournaments.pages.panels``): the rating
history on a player's profile and personal page, the leaderboards' links on the club
page. Imported once from ``RatingsConfig.ready``."""

from ratings.pages import club_panel, player_panel
from tournaments.pages.panels import register_panel

register_panel("player", "ratings", player_panel)
register_panel("club", "ratings", club_panel)
