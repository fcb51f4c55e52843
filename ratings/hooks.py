"""The ratings' parts of the pages below them (``tournaments.pages.panels``): the
rating history chart on a player's profile and personal page."""

from ratings.pages import rating_panel
from tournaments.pages.panels import register_player_panel

register_player_panel("ratings", rating_panel)
